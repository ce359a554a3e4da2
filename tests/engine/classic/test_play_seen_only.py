"""Ruling 3.2.9 and fair play: whether a player's play turn is accepted (and why it is refused) is a function of
what that player sees, never of the hidden cards. A probe: for many arrangements of the cards the player has not
seen (the draw pile and the other hands), every candidate play gets the same answer from
`verify_play(seen_only=True)`, the check a table runs on a player's own decision."""

import random

import pytest

from games.engine.classic.cards import KINDS, codes
from games.engine.classic.hand import TAKEN
from games.engine.errors import EngineError
from tests.engine.classic.helpers import act, new_game, seat, start


def _answer(hand, where: int, verb: str, card, unlock, lock, seen_only: bool) -> str:
    try:
        hand.verify_play(where, verb, card, unlock, lock, seen_only=seen_only)
    except EngineError as exc:
        return f"{type(exc).__name__}: {exc}"
    return "accepted"


def _candidates(game, where: int) -> list[tuple]:
    """Every play worth asking: each verb, each card of the hand (and two it lacks) traded, each field card
    (or none) unlocked, each of the 68 card kinds, `taken` or nothing locked."""
    held = game.view_for(where)["cards"]
    field = next(row.get("field") for row in game.view_for(where)["players"] if row["seat"] == where) or []
    strangers = [code for code in ("+1s", "+15t", "-17", "0") if code not in held][:2]
    locks = [None, TAKEN, *codes(KINDS)]
    plays = []
    for unlock in [None, *field]:
        for lock in locks:
            plays.append(("draw", None, unlock, lock))
            plays.append(("stand", None, unlock, lock))
            for card in [*held, *strangers, *([unlock] if unlock else [])]:
                plays.append(("trade", card, unlock, lock))
    return plays


def _arrangements(game, where: int, rng: random.Random):
    """The hidden cards (draw pile and the other seats' hands) rearranged, yielding after each arrangement: first
    with each unseen card kind on top of the draw pile in turn, then shuffled at random."""
    hand = game.hand
    pools = [hand._draw] + [hand._hand[s] for s in hand.seats if s != where]  # hidden state: tests only
    unseen = [card for pool in pools for card in pool]
    orders = []
    for kind in dict.fromkeys(unseen):
        rest = list(unseen)
        rest.remove(kind)
        rng.shuffle(rest)
        orders.append([kind, *rest])
    for _ in range(20):
        orders.append(rng.sample(unseen, len(unseen)))
    for order in orders:
        at = 0
        for pool in pools:
            pool[:] = order[at : at + len(pool)]
            at += len(pool)
        yield


def _probe(game, where: int, *, seen_only: bool) -> dict[tuple, set[str]]:
    """Each candidate play's answers over the arrangements (one answer each when the hidden cards never matter)."""
    view = game.view_for(where)
    plays = _candidates(game, where)
    answers: dict[tuple, set[str]] = {play: set() for play in plays}
    for _ in _arrangements(game, where, random.Random(where)):
        assert game.view_for(where) == view  # the player sees the same table in every arrangement
        for play in plays:
            answers[play].add(_answer(game.hand, where, *play, seen_only=seen_only))
    return answers


@pytest.mark.parametrize("deal_seed", range(4))
def test_3_2_9_a_play_is_accepted_or_refused_alike_whatever_the_hidden_cards(deal_seed):
    game = new_game()
    rng = random.Random(deal_seed)
    faces = ["-17", "-15", "-2", "0"]
    suits = [f"+{value}{suit}" for value in range(1, 16) for suit in "sfct"]
    rng.shuffle(suits)
    # Ann holds a face card whose twin is hidden (`trade X lock X` was the probe) and, in two deals, a locked card.
    start(game, {"Ann": [faces[deal_seed], suits[0]], "Bob": [suits[1], suits[2]]}, then=[suits[3], suits[4]])
    act(game, "Bob", "draw", lock=TAKEN if deal_seed % 2 else None)
    if deal_seed >= 2:
        act(game, "Ann", "stand", lock=suits[0])
        act(game, "Bob", "check")
        act(game, "Ann", "check")
        act(game, "Bob", "stand")
    where = seat(game, "Ann")
    assert game.waiting_for() == [where]
    answers = _probe(game, where, seen_only=True)
    leaking = {play: found for play, found in answers.items() if len(found) > 1}
    assert not leaking
    kept = ", ".join(c for c in game.view_for(where)["cards"] if c != faces[deal_seed]) or "none"
    assert answers[("trade", faces[deal_seed], None, faces[deal_seed])] == {
        f"InvalidSelection: cannot lock {faces[deal_seed]} (the trade gives it up): lock a card Ann keeps "
        f"({kept}), or `taken` for the card the trade takes."
    }
    assert "accepted" in answers[("draw", None, None, TAKEN)]


def test_without_seen_only_the_answer_tells_the_top_of_the_pile():
    """Why a player's play is checked `seen_only`: the replay's check accepts a lock naming the card taken, so
    `trade card=X lock=X` passes exactly when X's twin is on top (what the probe above rules out)."""
    game = new_game()
    start(game, {"Ann": ["-17", "+3s"], "Bob": ["+9c", "+4t"]}, then=["+7s"])
    act(game, "Bob", "draw")
    answers = _probe(game, seat(game, "Ann"), seen_only=False)
    assert len(answers[("trade", "-17", None, "-17")]) == 2
    assert len(answers[("draw", None, None, "+7s")]) == 2
