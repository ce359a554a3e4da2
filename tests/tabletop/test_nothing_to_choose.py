"""Steps with nothing to choose are taken by the table itself (docs/tabletop.md, "Nothing to choose"): at Coruscant
Shift's improve phase a player who kept all five cards was dealt none, and is not asked "how many of the 0 new cards
do you add (0 to 0)". The skipped steps are plain steps (the history and the document replay them); undoing the
step that led to them takes them back with it. And a hand tapped on the deck's picture with too few cards is told
so in the words of the one tapping."""

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.realcards.document import play_document
from games.tabletop import history, services
from games.tabletop.models import RealTable
from tests.factories import client_as
from tests.tabletop.helpers import current_due, play_to_reveal, started_table

pytestmark = pytest.mark.django_db


def _bet_round_to_improve(table, host, keep: dict[int, int]) -> None:
    """Deal, roll, let each seat keep `keep[seat]` cards, then check round 1 through, up to the shift."""
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 5, "suit": "circle"}})
    for _ in range(20):
        now = current_due(table)
        if now["due"] != "act" or now["phase"] not in ("select", "betting_1"):
            return
        seat = now["seats"][0]
        verbs = now["choices"][seat]["verbs"]
        if "select" in verbs:
            step = {"step": "act", "seat": seat, "verb": "select", "count": keep[seat]}
        else:
            step = {"step": "act", "seat": seat, "verb": next(v for v in ("check", "call") if v in verbs)}
        services.realtable_step(actor=host, table=table, step=step)
    raise AssertionError("the hand did not reach its improve phase")


@pytest.mark.parametrize("preset", ["halcyon", "cantina"])
def test_when_nobody_swapped_nobody_is_asked_to_add_none_of_no_cards(preset):
    table, host, ann, _ = started_table(preset=preset)
    _bet_round_to_improve(table, host, keep={0: 5, 1: 5, 2: 5})
    now = current_due(table)
    assert now["due"] == "act" and now["phase"] == "betting_2", now  # the improve phase passed by itself
    table.refresh_from_db()
    auto = [change for change in table.changes if change.get("auto")]
    assert sorted((change["did"] for change in auto), key=lambda step: step["seat"]) == [
        {"step": "act", "seat": seat, "verb": "select", "count": 0} for seat in (0, 1, 2)
    ]
    assert len(auto) == 3 and all(change["by"] == "the table" for change in auto)
    page = client_as(ann).get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert "0 new cards" not in page and "(0 to 0)" not in page
    assert "ann was dealt no new card, so has none to add (skipped)" in page  # the log says what happened
    # The steps stand as any other: the history shows them, the document replays to the same stacks.
    hand = history.table_history(table)["hands"][0]
    assert "ann: put 0 cards in their selection" in hand["steps"]
    document = history.table_document(table)
    assert play_document(document).stacks == services.load_game(table).stacks
    # Undo takes back the last step a person took with the table's own after it: round 1's last check.
    before = len(table.steps)
    services.realtable_undo(actor=host, table=table)
    table.refresh_from_db()
    assert len(table.steps) == before - 4
    now = current_due(table)
    assert now["due"] == "act" and now["phase"] == "betting_1"
    assert [change["undid"]["seat"] for change in table.changes[-4:]] == [
        change["did"]["seat"] for change in reversed(table.changes[-8:-4])
    ]


def test_a_seat_with_new_cards_is_asked_and_one_without_is_not():
    table, host, ann, _ = started_table(preset="halcyon")
    _bet_round_to_improve(table, host, keep={0: 5, 1: 2, 2: 5})
    now = current_due(table)
    assert now["due"] == "act" and now["phase"] == "improve" and now["seats"] == [1]
    assert now["choices"][1]["count"] == [0, 3]
    table.refresh_from_db()
    assert sorted(change["did"]["seat"] for change in table.changes if change.get("auto")) == [0, 2]
    services.realtable_step(actor=ann, table=table, step={"step": "act", "seat": 1, "verb": "select", "count": 1})
    assert current_due(table)["phase"] == "betting_2"
    # An undo now takes back ann's choice alone: she took it, not the table.
    services.realtable_undo(actor=host, table=table)
    now = current_due(table)
    assert now["phase"] == "improve" and now["seats"] == [1]


def test_a_hand_tapped_with_too_few_or_too_many_cards_is_told_in_tapping_words():
    table, host, _, _ = started_table()
    play_to_reveal(table, host)
    table.refresh_from_db()
    before = (table.version, list(table.steps))
    client = client_as(host)
    url = reverse("tabletop-do", args=[table.code, "step"])
    few = client.post(url, {"step": "reveal", "seat": "0", "cards": ["+1c"]}, HTTP_HX_REQUEST="true")
    assert few.status_code == 400
    assert "Tap all 2 of hostess&#x27;s cards (1 tapped so far), then show the hand." in few.content.decode()
    assert "card codes" not in few.content.decode()
    many = client.post(url, {"step": "reveal", "seat": "0", "cards": ["+1c", "+2c", "+3c"]}, HTTP_HX_REQUEST="true")
    assert many.status_code == 400
    assert "Tap exactly 2 of hostess&#x27;s cards: 3 are tapped; untap 1." in many.content.decode()
    # The API sends card codes, and its words say so.
    api = Client().post(
        f"/api/tabletop/{table.code}/step/",
        {"step": {"step": "reveal", "seat": 0, "cards": ["+1c"]}},
        content_type="application/json",
    )
    assert api.status_code in (400, 403)
    answer = client.post(
        f"/api/tabletop/{table.code}/step/",
        {"step": {"step": "reveal", "seat": 0, "cards": ["+1c"]}},
        content_type="application/json",
    )
    assert answer.status_code == 400 and "a list of 2 card codes" in answer.json()["detail"]
    fresh = RealTable.objects.get(pk=table.pk)
    assert (fresh.version, fresh.steps) == before
