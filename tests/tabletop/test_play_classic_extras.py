"""Classic Sabacc's card-turn extras at a real table on the page: locking and unlocking (yes or no: which card is
the player's business) on the play buttons, and calling the hand as buttons of its own beside the plain bets."""

import pytest
from django.test import Client
from django.urls import reverse

from games.tabletop import services
from games.tabletop.present import buttons
from tests.factories import client_as
from tests.tabletop.helpers import current_due, started_table

pytestmark = pytest.mark.django_db


def _do(client: Client, table, data: dict):
    return client.post(reverse("tabletop-do", args=[table.code, "step"]), data, HTTP_HX_REQUEST="true")


def test_play_buttons_carry_lock_and_unlock_only_when_legal():
    rows = buttons({"verbs": ["draw", "trade", "stand"], "lockable_count": 2, "unlockable_count": 0})
    flags = {row["verb"]: [f["name"] for f in row["flags"]] for row in rows}
    assert flags == {"draw": ["lock"], "trade": ["lock"], "stand": ["lock"]}
    rows = buttons({"verbs": ["draw", "stand"], "lockable_count": 0, "unlockable_count": 1})
    flags = {row["verb"]: [f["name"] for f in row["flags"]] for row in rows}
    # Standing with nothing in hand to lock may only unlock; a draw may always lock the card it takes.
    assert flags == {"draw": ["unlock", "lock"], "stand": ["unlock"]}
    # Other variants' buttons carry no boxes.
    assert all("flags" not in row for row in buttons({"verbs": ["check", "bet"], "min_bet": 1, "max_bet": 9}))


def test_calling_the_hand_is_offered_beside_each_betting_choice_but_fold():
    rows = buttons({"verbs": ["check", "bet", "fold", "allin"], "min_bet": 2, "max_bet": 50, "all_in_amount": 50})
    assert [r["label"] for r in rows if not r.get("call_hand")] == ["Check", "Bet", "Fold", "All in (50)"]
    assert all(not r.get("call_hand") for r in rows)
    rows = buttons(
        {
            "verbs": ["check", "bet", "fold", "allin"],
            "min_bet": 2,
            "max_bet": 50,
            "all_in_amount": 50,
            "can_call_hand": True,
        }
    )
    calling = [r for r in rows if r.get("call_hand")]
    assert [r["label"] for r in calling] == [
        "Check and call the hand",
        "Bet and call the hand",
        "All in (50) and call the hand",
    ]
    assert calling[1]["amount"] == {"min": 2, "max": 50}  # a bet's bounds go with it


def _to_play_turn(table, host) -> dict:
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    now = current_due(table)
    assert now["due"] == "act" and now["phase"] == "play"
    return now


def test_a_play_turn_with_a_lock_from_the_page_reaches_the_engine():
    table, host, ann, _ = started_table(variant="classic", preset="classic")
    now = _to_play_turn(table, host)
    seat = now["seats"][0]
    assert seat == 1  # ann, left of the dealer
    page = client_as(ann).get(reverse("tabletop-fragment", args=[table.code])).content.decode()
    assert 'name="lock" value="yes"' in page and "lock the card I take into my interference field" in page
    answer = _do(client_as(ann), table, {"step": "act", "seat": "1", "verb": "draw", "lock": "yes"})
    assert answer.status_code == 200
    table.refresh_from_db()
    assert table.steps[-1] == {"step": "act", "seat": 1, "verb": "draw", "lock": True}
    game = services.load_game(table)
    assert len(game.game.hand._field[1]) == 1  # the card drawn lies in ann's interference field


def test_a_refused_extra_answers_400_and_writes_nothing():
    table, host, ann, _ = started_table(variant="classic", preset="classic")
    _to_play_turn(table, host)
    table.refresh_from_db()
    before = (table.version, list(table.steps))
    # Not her turn's kind of choice: a bet on a play turn is refused by the engine, in words.
    answer = _do(client_as(ann), table, {"step": "act", "seat": "1", "verb": "bet", "amount": "3", "call_hand": "yes"})
    assert answer.status_code == 400
    assert "it is ann&#x27;s play turn" in answer.content.decode()
    # Calling the hand on a play turn is no betting choice.
    answer = _do(client_as(ann), table, {"step": "act", "seat": "1", "verb": "draw", "call_hand": "yes"})
    assert answer.status_code == 400 and "draw takes unlock, lock" in answer.content.decode()
    table.refresh_from_db()
    assert (table.version, table.steps) == before


def test_calling_the_hand_from_the_page_when_the_engine_offers_it():
    table, host, _, _ = started_table(variant="classic", preset="classic")
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    # Play rounds until a betting turn offers calling the hand (the rules allow it after the first rounds).
    for _ in range(80):
        now = current_due(table)
        if now["due"] == "dice":
            services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": [1, 2]})
            continue
        assert now["due"] == "act"
        seat = now["seats"][0]
        choices = now["choices"][seat]
        if choices.get("can_call_hand"):
            break
        verb = next(v for v in ("stand", "check", "call") if v in choices["verbs"])
        services.realtable_step(actor=host, table=table, step={"step": "act", "seat": seat, "verb": verb})
    else:
        raise AssertionError("no betting turn offered calling the hand")
    page = client_as(host).get(reverse("tabletop-fragment", args=[table.code])).content.decode()
    assert "Check and call the hand" in page and 'name="call_hand" value="yes"' in page
    answer = _do(client_as(host), table, {"step": "act", "seat": str(seat), "verb": "check", "call_hand": "yes"})
    assert answer.status_code == 200, answer.content.decode()[:400]
    table.refresh_from_db()
    assert table.steps[-1] == {"step": "act", "seat": seat, "verb": "check", "call_hand": True}
    assert services.load_game(table).game.hand.called_by == seat
