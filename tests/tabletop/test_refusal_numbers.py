"""The engine's refusals of a real-cards step count seats and pots from 0; the page and the API answer them in the
pages' numbers (from 1: "pot 1", "seat 2"), and a refused pot names both, as a refused seat does
(`games/tabletop/refusals.py`; the engine's words are left as they are)."""

import re

import pytest
from django.urls import reverse

from games.tabletop import services
from games.tabletop.models import RealTable
from games.tabletop.refusals import for_people
from tests.factories import client_as
from tests.tabletop.helpers import current_due, play_to_reveal, started_table

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_refused_winners_name_the_pots_as_the_pages_do():
    """A casino cash game with a main pot and a side pot (as in test_words_and_seats): naming nobody for the main pot
    is refused as "pot 1", as the board calls it; a pot that is not there names the API's numbers and the pages'."""
    table, host, _, _ = started_table(preset="casino")
    services.realtable_step(actor=host, table=table, step={"step": "join", "name": "Cy", "stack": 30})
    play_to_reveal(table, host, bets=("allin", "call", "check"))
    assert [pot["pot"] for pot in current_due(table)["or_name_winners"]][:2] == [0, 1]
    version = RealTable.objects.get(pk=table.pk).version
    page = client_as(host).post(
        reverse("tabletop-do", args=[table.code, "step"]), {"step": "winners", "pot": "0"}, HTTP_HX_REQUEST="true"
    )
    assert page.status_code == 400
    text = _text(page.content.decode())
    assert "pot 1 goes to one or more of those who may win it" in text and "pot 0" not in text
    api = client_as(host).post(
        f"/api/tabletop/{table.code}/step/",
        {"step": {"step": "winners", "pot": 7, "seats": [0]}},
        content_type="application/json",
    )
    assert api.status_code == 400
    detail = api.json()["detail"]
    assert detail.startswith("pot is one of 0, 1") and "(Pot 1, Pot 2" in detail and "as the pages show them" in detail
    assert RealTable.objects.get(pk=table.pk).version == version  # refused: nothing written


@pytest.mark.parametrize(
    ("engine", "people"),
    [
        ("pot 0 goes to one or more of those who may win it: ann, Bob.", "pot 1 goes to"),
        ("No card is to be turned over now; name the winners of pot 1, pot 2.", "of pot 2, pot 3."),
        ("raise is not allowed for seat 0 now.", "for seat 1 now."),
        ("This card is ann's, not seat 2's.", "not seat 3's."),
        ("Seat 4 does not exist", "Seat 5 does not exist"),
        ("pot is one of 0, sabacc; got 3.", "pot is one of 0, sabacc (Pot 1, the Sabacc pot as the pages show them)"),
        ("Hand 3 is not the hand at the table (hand 4)", "Hand 3 is not the hand at the table (hand 4)"),  # from 1
    ],
)
def test_engine_words_renumbered_for_people(engine, people):
    assert people in for_people(engine)
