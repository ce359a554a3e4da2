"""The pots a real-cards table shows while the hand waits for its roll: cut from the contributions by
`games.history.pots_in_play`, as at an online table and in the histories, in the page, the API and the big screen
alike; never the engine's settling slices (a blind not yet called is no side pot the others cannot win)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.history import pots_in_play
from games.tabletop import services
from games.tabletop.present import public_view
from tests.factories import client_as
from tests.tabletop.helpers import act_to_reveal, current_due, started_table

pytestmark = pytest.mark.django_db


def _blinds_dealt(small: int, big: int):
    """hostess (seat 0) deals a hand with blinds: ann posts the small blind, Bob the big one; the roll is due."""
    table, host, ann, bob = started_table()
    services.realtable_step(
        actor=host, table=table, step={"step": "levels", "ante": 0, "small_blind": small, "big_blind": big}
    )
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    assert current_due(table)["due"] == "dice"
    return table, host, ann, bob


def _page_pots(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", found) for found in re.findall(r'<span class="tt-pot">(.*?)</span>', html)]


@pytest.mark.parametrize(("small", "big", "amount"), [(5, 10, 15), (5, 100, 105)])
def test_the_pots_while_the_roll_is_due_are_cut_from_the_contributions(small, big, amount):
    """A blind is a bet: one pot that every seat still in may win, also when the big blind put its whole stack in."""
    table, host, ann, _ = _blinds_dealt(small, big)
    game = services.load_game(table)
    view = public_view(game)
    contributed = {row["seat"]: row.get("contributed") for row in view["players"]}
    assert contributed == {0: 0, 1: small, 2: big}
    assert pots_in_play(view) == [{"amount": amount, "eligible": [0, 1, 2]}]
    # The engine's own pots (which settle the hand) slice the unmatched blinds: what the page used to show.
    assert len(game.game.hand.pots()) > 1
    expected = [{"amount": amount, "eligible": ["hostess", "ann", "Bob"]}]
    api = client_as(ann).get(f"/api/tabletop/{table.code}/").json()
    assert api["pots"] == expected
    assert [(p["name"], p["all_in"]) for p in api["players"]] == [
        ("hostess", False),
        ("ann", False),
        ("Bob", big == 100),
    ]
    page = client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert _page_pots(page) == [f"Pot: {amount}"]
    screen = Client().get(reverse("tabletop-screen", args=[table.code])).content.decode()
    assert "Side pot" not in screen and f"<strong>{amount}</strong>" in screen
    # After the roll the engine's view answers: the same pots, so nothing jumps when the dice are entered.
    services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 0, "suit": "circle"}})
    assert client_as(ann).get(f"/api/tabletop/{table.code}/").json()["pots"] == expected


def test_a_seat_that_folded_before_the_roll_pays_into_the_pot_but_may_not_win_it():
    """Corellian Spike rolls after its second betting round: ann folded in the first, and the pot shown at the roll
    holds her ante but names only the two seats still in (the API and `pots_in_play` agree)."""
    table, host, ann, _ = started_table(variant="corellian_spike", preset="cantina_spike")
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    everyone = ("check", "call", "stand")
    assert act_to_reveal(table, host, bets=lambda seat: ("fold", *everyone) if seat == 1 else everyone)["due"] == "dice"
    game = services.load_game(table)
    assert game.game.hand.folded == {1}
    view = public_view(game)
    assert pots_in_play(view) == [{"amount": 6, "eligible": [0, 2]}]
    answer = client_as(ann).get(f"/api/tabletop/{table.code}/").json()
    assert answer["pots"] == [{"amount": 6, "eligible": ["hostess", "Bob"]}]
    assert [p["folded"] for p in answer["players"]] == [False, True, False]
