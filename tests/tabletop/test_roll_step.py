"""While a real-cards hand waits for its roll the page names the roll (the engine is still in the phase before it:
Coruscant Shift's deal, Corellian Spike's last betting round) and the Bet column shows the bets of the round that
just ended, or is left out when no bet stands (a Coruscant roll right after the deal); the page, the big screen and
the API agree."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.tabletop import services
from tests.factories import client_as
from tests.tabletop.helpers import act_to_reveal, current_due, started_table

pytestmark = pytest.mark.django_db


def _hand_line(html: str) -> str:
    return re.sub(r"<[^>]+>", "", re.search(r'<p class="tt-hand">(.*?)</p>', html, re.DOTALL).group(1))


def _bet_cells(html: str) -> list[str]:
    """The players table's last column, row by row, when it has a Bet column (else [])."""
    table = re.search(r'<table class="tt-players">(.*?)</table>', html, re.DOTALL).group(1)
    if '<th scope="col">Bet</th>' not in table:
        return []
    return [
        cells[-1]
        for cells in (re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr.*?</tr>", table, re.DOTALL))
        if cells
    ]


def test_a_coruscant_roll_after_the_deal_is_named_and_has_no_bet_column():
    table, host, ann, _ = started_table()
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    assert current_due(table)["due"] == "dice"
    page = client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert _hand_line(page).startswith("Hand 1 · Roll: the target and its suit")
    assert "Deal" not in _hand_line(page)
    assert '<th scope="col">Bet</th>' not in page  # no bet stands: nothing to show in it
    screen = Client().get(reverse("tabletop-screen", args=[table.code])).content.decode()
    assert "Roll: the target and its suit" in screen and '<th scope="col">Bet</th>' not in screen
    answer = client_as(ann).get(f"/api/tabletop/{table.code}/").json()
    assert answer["hand"]["phase"] == "Roll: the target and its suit" and answer["bets_shown"] is False
    # After the roll the selection names its phase; the first betting round brings the Bet column back.
    services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 0, "suit": "circle"}})
    answer = client_as(ann).get(f"/api/tabletop/{table.code}/").json()
    assert answer["hand"]["phase"] == "Select" and answer["bets_shown"] is False
    for seat in current_due(table)["seats"]:
        services.realtable_step(
            actor=host, table=table, step={"step": "act", "seat": seat, "verb": "select", "count": 2}
        )
    assert current_due(table)["phase"] == "betting_1"
    page = client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert "First betting round" in _hand_line(page) and _bet_cells(page) == ["", "", ""]


def test_a_spike_roll_shows_the_bets_of_the_round_that_just_ended():
    table, host, ann, _ = started_table(variant="corellian_spike", preset="cantina_spike")
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    assert act_to_reveal(table, host, bets=("bet", "call", "check", "stand"))["due"] == "dice"  # each bets the least
    bets = [p["bet"] for p in client_as(ann).get(f"/api/tabletop/{table.code}/").json()["players"]]
    assert any(bets)
    page = client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert "Roll of the spike dice" in _hand_line(page) and "betting" not in _hand_line(page)
    assert _bet_cells(page) == [str(bet) if bet else "" for bet in bets]
    assert "Bet to match" not in page  # everyone matched: nothing is left to match at the roll
    answer = client_as(ann).get(f"/api/tabletop/{table.code}/").json()
    assert answer["bets_shown"] is True and answer["current_bet"] == 0
