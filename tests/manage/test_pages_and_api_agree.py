"""Pages and API agree on who may do what: for every role and action, the page offers the action exactly
when the API allows it, and the page's POST is refused exactly when the API's is.

Each call runs in a savepoint that is rolled back, so the page and the API start from the same state.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.shortcuts import resolve_url
from rest_framework.test import APIClient

from games.services import result_record
from league.models import EventKind, EventStatus, Membership
from tests.manage.conftest import ROLES, league_form_data, page_client, seat_data, user_of

pytestmark = pytest.mark.django_db


@dataclass
class Case:
    """Where a page offers the action (a page and its `data-action` marker), the page's POST, the API's call."""

    offered_on: Callable[[Any], str]
    marker: str
    page_post: Callable[[Any], tuple[str, dict]]
    api_call: Callable[[APIClient, Any], list[int]]


def member_id(world, player) -> int:
    return Membership.objects.get(league=world.league, player=player).pk


def guest_api(client, world):
    created = client.post("/api/players/", {"display_name": "Api guest"}, format="json")
    if created.status_code != 201:
        return [created.status_code]
    added = client.post("/api/memberships/", {"league": world.league.slug, "player": created.data["id"]}, format="json")
    return [created.status_code, added.status_code]


def result_seats(world):
    han, lando = world.players[:2]
    return [
        {"player": han.pk, "buy_in": 450, "final_credits": 600},
        {"player": lando.pk, "buy_in": 450, "final_credits": 300},
    ]


CASES: dict[str, Case] = {
    "create league": Case(
        offered_on=lambda w: "/manage/",
        marker="create-league",
        page_post=lambda w: ("/manage/leagues/new/", league_form_data(name="Page league")),
        api_call=lambda c, w: [c.post("/api/leagues/", {"name": "Api league"}, format="json").status_code],
    ),
    "edit league": Case(
        offered_on=lambda w: f"/manage/leagues/{w.league.slug}/",
        marker="edit-league",
        page_post=lambda w: (
            f"/manage/leagues/{w.league.slug}/edit/",
            league_form_data(name="Renamed", slug=w.league.slug, buy_in_policy=str(w.league.buy_in_policy_id)),
        ),
        api_call=lambda c, w: [
            c.patch(f"/api/leagues/{w.league.slug}/", {"name": "Renamed"}, format="json").status_code
        ],
    ),
    "add season": Case(
        offered_on=lambda w: f"/manage/leagues/{w.league.slug}/seasons/",
        marker="add-season",
        page_post=lambda w: (
            f"/manage/leagues/{w.league.slug}/seasons/",
            {"name": "Spring", "starts_on": "2026-03-01"},
        ),
        api_call=lambda c, w: [
            c.post(
                "/api/seasons/", {"league": w.league.slug, "name": "Spring", "starts_on": "2026-03-01"}, format="json"
            ).status_code
        ],
    ),
    "edit season": Case(
        offered_on=lambda w: f"/manage/leagues/{w.league.slug}/seasons/",
        marker="edit-season",
        page_post=lambda w: (f"/manage/seasons/{w.season.pk}/edit/", {"name": "Renamed", "starts_on": "2026-01-01"}),
        api_call=lambda c, w: [c.patch(f"/api/seasons/{w.season.pk}/", {"name": "Renamed"}, format="json").status_code],
    ),
    "add guest": Case(
        offered_on=lambda w: f"/manage/leagues/{w.league.slug}/members/",
        marker="add-guest",
        page_post=lambda w: (f"/manage/leagues/{w.league.slug}/members/guest/", {"display_name": "Page guest"}),
        api_call=guest_api,
    ),
    "add registered user": Case(
        offered_on=lambda w: f"/manage/leagues/{w.league.slug}/members/",
        marker="add-user",
        page_post=lambda w: (
            f"/manage/leagues/{w.league.slug}/members/user/",
            {"username": "outsider", "role": "player"},
        ),
        api_call=lambda c, w: [
            c.post(
                "/api/memberships/",
                {"league": w.league.slug, "player": w.users["outsider"].player.pk},
                format="json",
            ).status_code
        ],
    ),
    "change role": Case(
        offered_on=lambda w: f"/manage/leagues/{w.league.slug}/members/",
        marker="change-role",
        page_post=lambda w: (
            f"/manage/members/{member_id(w, w.users['member'].player)}/role/",
            {"role": "organiser"},
        ),
        api_call=lambda c, w: [
            c.patch(
                f"/api/memberships/{member_id(w, w.users['member'].player)}/", {"role": "organiser"}, format="json"
            ).status_code
        ],
    ),
    "remove member": Case(
        offered_on=lambda w: f"/manage/leagues/{w.league.slug}/members/",
        marker="remove-member",
        page_post=lambda w: (f"/manage/members/{member_id(w, w.players[-1])}/remove/", {}),
        api_call=lambda c, w: [c.delete(f"/api/memberships/{member_id(w, w.players[-1])}/").status_code],
    ),
    "create event": Case(
        offered_on=lambda w: f"/manage/leagues/{w.league.slug}/",
        marker="create-event",
        page_post=lambda w: (
            f"/manage/leagues/{w.league.slug}/events/new/",
            {"name": "Cup", "kind": "tournament", "season": str(w.season.pk), "starts_at": "2026-05-01T20:00"},
        ),
        api_call=lambda c, w: [
            c.post(
                "/api/events/",
                {"season": w.season.pk, "name": "Cup", "kind": "tournament", "starts_at": "2026-05-01T20:00:00Z"},
                format="json",
            ).status_code
        ],
    ),
    "add table": Case(
        offered_on=lambda w: f"/manage/events/{w.event.pk}/",
        marker="add-table",
        page_post=lambda w: (f"/manage/events/{w.event.pk}/tables/", {"name": "Table 7", "number": "7"}),
        api_call=lambda c, w: [
            c.post(f"/api/events/{w.event.pk}/tables/", {"name": "Table 7", "number": 7}, format="json").status_code
        ],
    ),
    "edit event": Case(
        offered_on=lambda w: f"/manage/events/{w.event.pk}/",
        marker="edit-event",
        page_post=lambda w: (
            f"/manage/events/{w.event.pk}/edit/",
            {"name": "Renamed", "kind": "tournament", "starts_at": "2026-05-01T20:00"},
        ),
        api_call=lambda c, w: [c.patch(f"/api/events/{w.event.pk}/", {"name": "Renamed"}, format="json").status_code],
    ),
    "adjust credits": Case(
        offered_on=lambda w: f"/manage/events/{w.event.pk}/",
        marker="adjust-credits",
        page_post=lambda w: (
            f"/manage/events/{w.event.pk}/adjustments/",
            {"player": str(w.players[0].pk), "amount": "-50", "reason": "miscounted"},
        ),
        api_call=lambda c, w: [
            c.post(
                f"/api/events/{w.event.pk}/adjustments/",
                {"player": w.players[0].pk, "amount": -50, "reason": "miscounted"},
                format="json",
            ).status_code
        ],
    ),
    "start event": Case(
        offered_on=lambda w: f"/manage/events/{w.event.pk}/",
        marker="start-event",
        page_post=lambda w: (f"/manage/events/{w.event.pk}/status/", {"status": "running"}),
        api_call=lambda c, w: [c.patch(f"/api/events/{w.event.pk}/", {"status": "running"}, format="json").status_code],
    ),
    "finish event": Case(
        offered_on=lambda w: f"/manage/events/{w.event.pk}/",
        marker="finish-event",
        page_post=lambda w: (f"/manage/events/{w.event.pk}/status/", {"status": "finished"}),
        api_call=lambda c, w: [
            c.patch(f"/api/events/{w.event.pk}/", {"status": "finished"}, format="json").status_code
        ],
    ),
    "record result": Case(
        offered_on=lambda w: f"/manage/events/{w.event.pk}/",
        marker="record-result",
        page_post=lambda w: (
            f"/manage/events/{w.event.pk}/results/new/",
            {"mode": "credits", "round": "1", "table": "", **seat_data(result_seats(w))},
        ),
        api_call=lambda c, w: [
            c.post("/api/games/", {"event": w.event.pk, "seats": result_seats(w)}, format="json").status_code
        ],
    ),
    "correct result": Case(
        offered_on=lambda w: f"/manage/games/{w.game.pk}/",
        marker="correct-result",
        page_post=lambda w: (
            f"/manage/games/{w.game.pk}/correct/",
            {
                "reason": "miscount",
                "mode": "credits",
                **seat_data(
                    [{**seat, "final_credits": 900 - seat["final_credits"]} for seat in result_seats(w)], total=2
                ),
            },
        ),
        api_call=lambda c, w: [
            c.post(
                f"/api/games/{w.game.pk}/corrections/",
                {
                    "reason": "miscount",
                    "seats": [{**seat, "final_credits": 900 - seat["final_credits"]} for seat in result_seats(w)],
                },
                format="json",
            ).status_code
        ],
    ),
}


def fresh(user):
    """The user as a new request would load it: no permission caches carried between calls."""
    return None if user is None else get_user_model().objects.get(pk=user.pk)


def rolled_back(call: Callable[[], Any]) -> Any:
    savepoint = transaction.savepoint()
    try:
        return call()
    finally:
        transaction.savepoint_rollback(savepoint)


def page_allows(response) -> bool:
    """A page's POST went through when it redirects onward (not to the log-in page); refusals are 302 to
    log in, 403 or 404, and a form the service refused is a 400."""
    return response.status_code == 302 and not response.url.startswith(resolve_url(settings.LOGIN_URL))


def check_agreement(world, role: str, action: str) -> bool:
    """Assert that the page offers and accepts the action exactly when the API allows it; return the verdict."""
    case = CASES[action]
    world.event.status = EventStatus.PLANNED
    world.event.kind = EventKind.TOURNAMENT
    world.event.save()
    world.game = result_record(actor=world.users["admin"], event=world.event, seats=result_seats(world))
    world.event.refresh_from_db()
    if world.event.status == EventStatus.RUNNING:  # recording a tournament's game starts it; plan it again
        world.event.status = EventStatus.PLANNED
        world.event.save()
    user = user_of(world, role)

    def api() -> bool:
        client = APIClient()
        if user is not None:
            client.force_authenticate(fresh(user))
        statuses = case.api_call(client, world)
        return all(200 <= status < 300 for status in statuses)

    def offered() -> bool:
        response = page_client(fresh(user)).get(case.offered_on(world))
        return response.status_code == 200 and f'data-action="{case.marker}"' in response.content.decode()

    def page_post() -> bool:
        url, data = case.page_post(world)
        return page_allows(page_client(fresh(user)).post(url, data))

    api_allowed = rolled_back(api)
    page_accepted = rolled_back(page_post)
    assert rolled_back(offered) == api_allowed, f"{role} {action}: offered != API ({api_allowed})"
    assert page_accepted == api_allowed, f"{role} {action}: page POST {page_accepted}, API {api_allowed}"
    return api_allowed


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(CASES))
def test_a_page_offers_and_accepts_an_action_exactly_when_the_api_allows_it(world, role, action):
    allowed = check_agreement(world, role, action)
    expected = role in ("organiser", "admin") or (action == "create league" and role != "anonymous")
    assert allowed == expected, f"{role} {action}: the API {'allows' if allowed else 'refuses'} it"


@pytest.mark.parametrize("role", ROLES)
def test_with_staff_only_league_creation_pages_and_api_agree(world, role, settings):
    settings.LEAGUE_CREATORS = "staff"
    assert check_agreement(world, role, "create league") == (role == "admin")


def test_the_organiser_controls_on_the_public_pages_follow_the_same_predicates(world):
    from django.template.loader import render_to_string

    from league import permissions

    for role in ROLES:
        user = fresh(user_of(world, role))
        can = permissions.can_manage_league(user, world.league) if user else False
        html = render_to_string("manage/_league_controls.html", {"league": world.league, "can_manage": can})
        assert ('data-action="edit-league"' in html) == (role in ("organiser", "admin")), role
