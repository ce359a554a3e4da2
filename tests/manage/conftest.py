"""Fixtures of the organiser pages' tests: the league world of tests/league, and page clients per role."""

from typing import Any

import pytest
from django.test import Client

from tests.league.conftest import World, build_world, eager_tasks, private_world, world

ROLES = ("anonymous", "player", "organiser", "other_organiser", "admin")


def user_of(world: World, role: str) -> Any:
    """The world's user for a role ("player" is a member of the league who does not organise it)."""
    return world.users["member" if role == "player" else role]


def page_client(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def real_table_row(*, host: Any, event: Any, code: str) -> Any:
    """A Coruscant Shift (cantina) real-cards table opened at `event`, as its row alone (no seat, no game): listed on
    the event's pages."""
    from games.tabletop.models import RealTable

    return RealTable.objects.create(
        code=code,
        host=host,
        event=event,
        variant="coruscant_shift",
        preset="cantina",
        starting_credits=100,
        master="0" * 32,
    )


def seat_data(seats: list[dict[str, Any]], *, prefix: str = "seat", total: int = 8) -> dict[str, Any]:
    """A result form's player lines, as the browser posts them."""
    data: dict[str, Any] = {
        f"{prefix}-TOTAL_FORMS": str(total),
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "8",
    }
    for index, seat in enumerate(seats):
        for key, value in seat.items():
            data[f"{prefix}-{index}-{key}"] = "" if value is None else str(value)
    return data


def league_form_data(**overrides: Any) -> dict[str, Any]:
    """A complete league form as the browser posts it, with the engine's defaults."""
    data = {
        "name": "Outer Rim League",
        "slug": "",
        "description": "",
        "visibility": "public",
        "variant": "coruscant_shift",
        "preset": "better",
        "chip_set": "",
        "buy_in_policy": "",
        "points_formula": "linear",
        "points_table": "",
        "points_expression": "",
        "tie_order": ["points", "wins", "net_credits", "average_place", "events_played", "biggest_pot"],
        "tie_breakers": ["points", "wins"],
        "best_n": "",
        "min_players": "2",
        "ties_share_better_place": "on",
        "save": "1",
    }
    data.update(overrides)
    return data


def league_edit_data(league: Any, **overrides: Any) -> dict[str, Any]:
    """The league's edit form as its page posts it unchanged (no tie-breakers picked), with `overrides`."""
    return league_form_data(
        **{
            "name": league.name,
            "slug": league.slug,
            "buy_in_policy": str(league.buy_in_policy_id),
            "chip_set": str(league.chip_set_id or ""),
            "tie_breakers": [],
            "min_players": str(league.min_players),
            "ties_share_better_place": "on" if league.ties_share_better_place else "",
            **overrides,
        }
    )


@pytest.fixture
def organiser_client(world: World) -> Client:
    return page_client(world.users["organiser"])


__all__ = ["ROLES", "build_world", "eager_tasks", "private_world", "world"]
