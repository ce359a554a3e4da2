"""The ledger is append-only; chip sets show a stack as the fewest chips; the default sets exist."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from league.chips import stack_as_chips
from league.models import ChipSet, LedgerEntry, LedgerKind
from league.services import ledger_adjust
from tests.league.conftest import client_for


def entry(world, **extra):
    return LedgerEntry.objects.create(
        event=world.event, player=world.players[0], kind=LedgerKind.BUY_IN, amount=450, **extra
    )


def test_a_ledger_entry_cannot_be_changed(world):
    line = entry(world)
    line.amount = 900
    with pytest.raises(ValidationError, match="append-only"):
        line.save()
    with pytest.raises(ValidationError, match="append-only"):
        LedgerEntry.objects.filter(pk=line.pk).update(amount=900)
    assert LedgerEntry.objects.get(pk=line.pk).amount == 450


def test_a_ledger_entry_cannot_be_deleted(world):
    line = entry(world)
    with pytest.raises(ValidationError, match="append-only"):
        line.delete()
    with pytest.raises(ValidationError, match="append-only"):
        LedgerEntry.objects.filter(pk=line.pk).delete()
    assert LedgerEntry.objects.filter(pk=line.pk).exists()


def test_an_adjustment_needs_a_reason_and_an_author(world):
    with pytest.raises(ValidationError, match="reason and an author"):
        LedgerEntry.objects.create(event=world.event, player=world.players[0], kind=LedgerKind.ADJUSTMENT, amount=5)
    with pytest.raises(IntegrityError), transaction.atomic():  # the database refuses it too
        LedgerEntry.objects.bulk_create(
            [LedgerEntry(event=world.event, player=world.players[0], kind=LedgerKind.ADJUSTMENT, amount=5)]
        )
    adjusted = ledger_adjust(
        actor=world.users["organiser"],
        event=world.event,
        player=world.players[0],
        amount=-5,
        reason="chip found under the table",
    )
    assert adjusted.author == world.users["organiser"] and adjusted.amount == -5


def test_the_default_chip_sets_come_from_the_migration(db):
    standard = ChipSet.objects.get(slug="standard")
    values = dict(standard.denominations.values_list("name", "value"))
    assert values == {"Bronze": 5, "Silver": 50, "Gold": 100, "Crystal": 200, "Doodad": 500, "Beskar ingot": 1000}
    assert sum(values[name] * count for name, count in standard.starting_chips.items()) == 450
    assert list(ChipSet.objects.get(slug="simple").denominations.values_list("value", flat=True)) == [1]


def test_a_stack_is_shown_as_the_fewest_chips_largest_first(db):
    denominations = list(ChipSet.objects.get(slug="standard").denominations.all())
    shown = stack_as_chips(denominations, 1855)
    assert [(row["name"], row["count"]) for row in shown["chips"]] == [
        ("Beskar ingot", 1),
        ("Doodad", 1),
        ("Crystal", 1),
        ("Gold", 1),
        ("Silver", 1),
        ("Bronze", 1),
    ]
    assert shown["chip_count"] == 6 and shown["remainder"] == 0
    assert stack_as_chips(denominations, 7)["remainder"] == 2
    assert stack_as_chips(denominations, 123456)["chip_count"] == 123 + 1 + 1 + 1 + 1


def test_plain_greedy_is_not_trusted_for_odd_sets():
    class Chip:
        def __init__(self, value):
            self.name, self.colour, self.value = str(value), "", value

    # Greedy would give 4 + 1 + 1 for 6; three-credit chips give two.
    shown = stack_as_chips([Chip(1), Chip(3), Chip(4)], 6)
    assert shown["chip_count"] == 2 and shown["chips"] == [{"name": "3", "colour": "", "value": 3, "count": 2}]


def test_the_api_shows_a_stack_as_chips(world):
    response = client_for(None).get("/api/chip-sets/standard/stack/?credits=450")
    assert response.status_code == 200
    assert {row["name"]: row["count"] for row in response.data["chips"]} == {"Crystal": 2, "Silver": 1}
    assert client_for(None).get("/api/chip-sets/standard/").data["starting_stake"] == 450
    assert client_for(None).get("/api/chip-sets/standard/stack/?credits=lots").status_code == 400
