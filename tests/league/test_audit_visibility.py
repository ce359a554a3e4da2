"""Item 6 of the hardening issue: who wrote a ledger line or corrected a result, why, and the result before
and after, are shown to that league's organisers and to site admins only."""

import csv
import io

import pytest

from league.services import ledger_adjust
from tests.league.conftest import client_for, corrected_game

SEES_AUDIT = {"admin": True, "organiser": True, "other_organiser": False, "member": False, "anonymous": False}


@pytest.fixture
def audited(world):
    organiser = world.users["organiser"]
    han = world.players[0]
    game = corrected_game(world, reason="Lando's count was wrong", han=600, lando=300)
    ledger_adjust(actor=organiser, event=world.event, player=han, amount=5, reason="a chip under the table")
    return world, game


@pytest.mark.parametrize("role", list(SEES_AUDIT))
def test_6_ledger_authors_and_reasons_are_for_organisers_and_admins(audited, role):
    world, _ = audited
    client = client_for(world.users[role])
    rows = client.get("/api/ledger/", {"event": world.event.pk}).json()["results"]
    adjustment = next(row for row in rows if row["kind"] == "adjustment")
    reversal = next(row for row in rows if row["correction"] is not None)
    if SEES_AUDIT[role]:
        assert adjustment["author"] == "organiser-a" and adjustment["reason"] == "a chip under the table"
        assert reversal["author"] == "organiser-a" and reversal["reason"]
    else:
        assert {row["author"] for row in rows} == {None} and {row["reason"] for row in rows} == {None}
    body = client.get(f"/api/players/{world.players[0].pk}/ledger/csv/", {"league": world.league.slug})
    table = list(csv.DictReader(io.StringIO(body.content.decode())))
    assert ("organiser-a" in {row["author"] for row in table}) is SEES_AUDIT[role]
    assert ("a chip under the table" in {row["reason"] for row in table}) is SEES_AUDIT[role]
    assert ("organiser-a" in body.content.decode()) is SEES_AUDIT[role]


@pytest.mark.parametrize("role", list(SEES_AUDIT))
def test_6_correction_authors_reasons_and_before_after_are_for_organisers_and_admins(audited, role):
    world, game = audited
    corrections = client_for(world.users[role]).get(f"/api/games/{game.pk}/corrections/").json()
    assert len(corrections) == 1
    correction = corrections[0]
    assert correction["game"] == game.pk and correction["created_at"]
    if SEES_AUDIT[role]:
        assert correction["author"] == "organiser-a"
        assert correction["reason"] == "Lando's count was wrong"
        assert [seat["final_credits"] for seat in correction["before"]] == [900, 0]
        assert [seat["final_credits"] for seat in correction["after"]] == [600, 300]
    else:
        assert correction["author"] is correction["reason"] is correction["before"] is correction["after"] is None
