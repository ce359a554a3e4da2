"""A player's ledger reads the same on their page (any width) and in its CSV: from the player's side (money paid in
is negative, money taken home positive; chips won positive), a corrected game's lines marked for every viewer
(the reversal and the new result, with the correction's number; the reason stays the organisers'), and a stack
after each line that the player really held: never below zero while a correction undoes a game."""

import csv
import io

import pytest

from games.services import result_correct, result_record
from league.models import LedgerEntry, LedgerKind
from league.pages import line_note
from tests.league.conftest import client_for
from tests.manage.conftest import page_client

pytestmark = pytest.mark.django_db


def record_and_correct(world, first: tuple[int, int], then: tuple[int, int], reason: str):
    """Han and Lando buy in 450 each and end with `first` credits (the winner takes them home: the payout); then
    the result is corrected to `then`. Returns the game and the correction."""
    organiser = world.users["organiser"]

    def seats(credits: tuple[int, int]) -> list[dict]:
        return [
            {"player": player.pk, "buy_in": 450, "final_credits": final}
            for player, final in zip(world.players[:2], credits, strict=True)
        ]

    game = result_record(actor=organiser, event=world.event, seats=seats(first))
    return game, result_correct(actor=organiser, game=game, reason=reason, seats=seats(then))


@pytest.fixture
def corrected(world):
    """Han ends with 900 and Lando with nothing; then the result is corrected to 600 / 300."""
    return world, *record_and_correct(world, (900, 0), (600, 300), "Lando's count was wrong")


def ledger_csv(world, role: str, player=None) -> list[dict[str, str]]:
    player = player or world.players[0]
    response = client_for(world.users[role]).get(f"/api/players/{player.pk}/ledger/csv/?league={world.league.slug}")
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode())))


@pytest.mark.parametrize("role", ["member", "anonymous", "organiser"])
def test_the_csv_reads_from_the_players_side_as_their_page(corrected, role):
    world, _, _ = corrected
    rows = ledger_csv(world, role)
    assert list(rows[0]) == [
        "when", "event", "game", "kind", "hand", "money", "chips", "stack_after", "net_after", "note", "reason",
        "author",
    ]  # fmt: skip
    first = [row for row in rows if not row["note"]]
    assert [(row["kind"], row["money"], row["chips"]) for row in first] == [
        ("Buy-in", "-450", ""),  # paid in
        ("Hand won", "", "450"),  # won at the table
        ("Payout", "900", ""),  # taken home
    ]
    # The page shows the same signs, line by line (newest first there).
    page = page_client(world.users.get(role)).get(f"/players/{world.players[0].pk}/")
    shown = [(line["kind_label"], line["amount_text"], line["note"]) for line in page.context["ledger"]]
    listed = [(row["kind"], f"{int(row['money'] or row['chips']):+,}", row["note"]) for row in rows]
    assert sorted(shown) == sorted(listed)


@pytest.mark.parametrize("role", ["member", "anonymous", "organiser"])
def test_correction_lines_are_marked_for_everyone_and_the_stack_never_goes_below_zero(corrected, role):
    world, _, correction = corrected
    rows = ledger_csv(world, role)
    notes = [row["note"] for row in rows]
    n = correction.pk
    assert notes.count(f"correction {n}: reversal") == 3 and notes.count(f"correction {n}: new result") == 3
    # Booked that way too: each player's reversals put chips back on the table before taking them off.
    booked = LedgerEntry.objects.filter(correction=correction, reversal=True, player=world.players[0]).order_by("id")
    amounts = list(booked.values_list("amount", flat=True))
    assert amounts == sorted(amounts, reverse=True) and amounts[0] > 0
    stacks = [int(row["stack_after"]) for row in rows]
    assert min(stacks) >= 0, stacks
    # Paid out after the first result, back to nothing after its reversal, paid out again after the new one.
    assert stacks[2] == 0 and stacks[5] == 0 and stacks[-1] == 0 and max(stacks) == 900
    # The private reason and author stay the organisers'.
    assert ({row["reason"] for row in rows} - {""} != set()) is (role == "organiser")
    assert ("Lando's count was wrong" in str(rows)) is False  # the correction's reason is never a ledger line's


def test_an_old_correction_booked_buy_in_first_still_shows_stacks_the_player_held(world):
    """Reversals booked before they were ordered (the buy-in's first) are listed payout first in the CSV."""
    han = world.players[0]
    _, correction = record_and_correct(world, (600, 300), (450, 450), "recount")
    # Rebook Han's reversals as the service used to: in the order the kinds were first booked (buy-in first).
    mine = LedgerEntry.objects.filter(player=han, correction=correction, reversal=True)
    old_order = sorted(
        mine, key=lambda line: [LedgerKind.BUY_IN, LedgerKind.HAND_WON, LedgerKind.PAYOUT].index(line.kind)
    )
    assert [line.kind for line in old_order] != [line.kind for line in mine.order_by("id")]
    for line in old_order:
        LedgerEntry.objects.create(
            event=line.event, game=line.game, player=han, kind=line.kind, amount=line.amount, reversal=True,
            correction=correction, reason=line.reason,
        )  # fmt: skip
    rows = ledger_csv(world, "member")
    assert min(int(row["stack_after"]) for row in rows) >= 0


def test_the_page_marks_correction_lines_for_a_member_at_every_width(corrected):
    world, _, correction = corrected
    page = page_client(world.users["member"]).get(f"/players/{world.players[0].pk}/").content.decode()
    n = correction.pk
    assert page.count(f"(correction {n}: reversal)") == 3 and page.count(f"(correction {n}: new result)") == 3
    # The mark sits in the kind's cell, never in a column or span hidden on a phone.
    for line in page.splitlines():
        if "data-line-note" in line:
            cell = line[: line.index("data-line-note")]
            assert "hide-narrow" not in cell[cell.rindex("<td") :] and "hide-phone" not in cell[cell.rindex("<td") :]
    assert "reversed by correction" not in page  # the organisers' reason is not shown to a member


def test_line_notes():
    assert line_note(reversal=True, correction_id=3) == "correction 3: reversal"
    assert line_note(reversal=False, correction_id=3) == "correction 3: new result"
    assert line_note(reversal=True, correction_id=None) == "refund"
    assert line_note(reversal=False, correction_id=None) == ""


def test_the_json_ledger_marks_reversals_for_everyone_too(corrected):
    world, _, correction = corrected
    rows = client_for(world.users["member"]).get("/api/ledger/", {"player": world.players[0].pk}).json()["results"]
    marked = [(row["correction"], row["reversal"]) for row in rows if row["correction"]]
    assert marked.count((correction.pk, True)) == 3 and marked.count((correction.pk, False)) == 3
    assert {row["reason"] for row in rows} == {None}
