"""Whole numbers nested in an API body (a list's items, an object's values, a nested input's fields) are read as
strictly as top-level ones (config.serializers.StrictInput): digits or a JSON whole number; "4.0", " 4 ", 4.0 and
true are refused with a 400 naming the item's path, and nothing is written."""

import pytest

from games.models import Game
from league.models import ChipSet, LedgerEntry
from tests.league.conftest import client_for

LOOKS_WHOLE = ["4.0", " 4 ", "+4", 4.0, True, "4.5"]


def chip_set(count) -> dict:
    return {
        "name": "Nested",
        "slug": "nested",
        "denominations": [{"name": "gold", "value": 10}],
        "starting_chips": {"gold": count},
    }


@pytest.mark.parametrize("count", LOOKS_WHOLE)
def test_a_starting_chips_count_that_only_looks_whole_is_refused(world, count):
    answer = client_for(world.users["admin"]).post("/api/chip-sets/", chip_set(count), format="json")
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "invalid" and body["extra"]["field"] == "starting_chips.gold"
    assert body["extra"]["fields"] == {"starting_chips": {"gold": [body["detail"].split(": ", 1)[1]]}}
    assert "whole number" in body["detail"]
    assert not ChipSet.objects.filter(slug="nested").exists()


@pytest.mark.parametrize(("count", "stored"), [("4", 4), (4, 4)])
def test_a_starting_chips_count_in_digits_or_as_a_number_is_taken(world, count, stored):
    answer = client_for(world.users["admin"]).post("/api/chip-sets/", chip_set(count), format="json")
    assert answer.status_code == 201, answer.content
    assert ChipSet.objects.get(slug="nested").starting_chips == {"gold": stored}


@pytest.mark.parametrize("value", LOOKS_WHOLE)
def test_a_denomination_value_that_only_looks_whole_is_refused(world, value):
    body = {**chip_set(1), "denominations": [{"name": "gold", "value": value}]}
    answer = client_for(world.users["admin"]).post("/api/chip-sets/", body, format="json")
    assert answer.status_code == 400 and answer.json()["extra"]["field"] == "denominations[0].value"
    assert not ChipSet.objects.filter(slug="nested").exists()


def result(world, hands) -> dict:
    han, lando = world.players[:2]
    return {
        "event": world.event.pk,
        "seats": [{"player": han.pk, "final_credits": 900}, {"player": lando.pk, "final_credits": 0}],
        "hands": hands,
    }


@pytest.mark.parametrize("won", LOOKS_WHOLE)
def test_a_hands_amount_that_only_looks_whole_is_refused_and_books_nothing(world, won):
    han, lando = world.players[:2]
    games, entries = Game.objects.count(), LedgerEntry.objects.count()
    hands = [{str(han.pk): 450, str(lando.pk): -450}, {str(han.pk): won, str(lando.pk): -4}]
    answer = client_for(world.users["admin"]).post("/api/games/", result(world, hands), format="json")
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["extra"]["field"] == f"hands[1].{han.pk}"
    assert f"hands[1].{han.pk}: Give a whole number" in body["detail"]
    assert (Game.objects.count(), LedgerEntry.objects.count()) == (games, entries)


def test_tie_breakers_items_must_be_text(world):
    answer = client_for(world.users["admin"]).patch(
        f"/api/leagues/{world.league.slug}/", {"tie_breakers": ["points", 4]}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["extra"]["field"] == "tie_breakers[1]"
