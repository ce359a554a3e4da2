"""Bots for Classic Sabacc, deciding from a seat's view alone: `random` (any legal decision) and `sensible`
(keeps away from bombing out, locks good cards against a Shift, calls the hand and bets when ahead)."""

import random

from games.engine.bots.base import Decision, RandomBotBase, new_decision, pick_verb
from games.engine.classic.cards import parse_card
from games.engine.classic.ranking import evaluate
from games.engine.draws import choice, randint

PLAY = ("draw", "trade", "stand")


class ClassicRandomBot(RandomBotBase):
    """A uniformly random legal decision; locks, unlocks and calls of the hand at random too."""

    def decide(self, view: dict) -> Decision:
        return random_decision(view["legal"], self.rng)


def random_decision(legal: dict, rng: random.Random) -> Decision:
    """A random decision among those `legal` (a `ClassicLegal.to_dict()`) allows."""
    verb = pick_verb(legal, rng)
    if verb in PLAY:
        unlock = choice(rng, legal["unlockable"]) if legal["unlockable"] and rng.random() < 0.2 else None
        card = None
        if verb == "trade":
            if not legal["tradeable"] and unlock is None:
                unlock = choice(rng, legal["unlockable"])  # every card is in the field: free one to trade it
            card = choice(rng, [*legal["tradeable"], *([unlock] if unlock else [])])
        lock = choice(rng, legal["lockable"]) if legal["lockable"] and rng.random() < 0.3 else None
        if lock is not None and lock == card and legal["lockable"].count(lock) < 2:
            lock = None
        return new_decision(verb, card=card, unlock=unlock, lock=lock)
    # Uniform over the legal decisions: each betting action but a fold comes with and without the call.
    call_hand = legal.get("can_call_hand", False) and verb != "fold" and rng.random() < 0.5
    if verb == "bet":
        return new_decision("bet", amount=randint(rng, legal["min_bet"], legal["max_bet"]), call_hand=call_hand)
    if verb == "raise":
        return new_decision(
            "raise", amount=randint(rng, legal["min_raise_to"], legal["max_raise_to"]), call_hand=call_hand
        )
    return new_decision(verb, call_hand=call_hand)


def _total(codes: list[str]) -> int:
    return sum(parse_card(code).value for code in codes)


class ClassicSensibleBot:
    """Plays toward +23 or -23: draws while far from it, trades away the card that overshoots, stands and locks
    its biggest card once close; bets and calls the hand with a strong hand, folds a bombed-out one to a bet."""

    kind = "sensible"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, view: dict) -> Decision:
        legal = view["legal"]
        if legal["verbs"] and legal["verbs"][0] in PLAY:
            return self._play(view, legal)
        return self._bet(view, legal)

    def _play(self, view: dict, legal: dict) -> Decision:
        hand, field = list(view["cards"]), list(view["field"])
        total = _total(hand + field)
        score = evaluate([parse_card(c) for c in hand + field])
        can_take = "draw" in legal["verbs"]
        near = 18 <= abs(total) <= 23
        if score.hand in ("idiots_array", "pure_sabacc") or (near and not score.bombed) or not can_take:
            # Close enough: keep the cards, and protect the biggest one against a Shift.
            lock = max(hand, key=lambda c: abs(parse_card(c).value)) if hand else None
            return Decision("stand", lock=lock)
        if score.bombed and total != 0 and hand and "trade" in legal["verbs"]:
            # Over the edge: give up the card pushing furthest past it.
            sign = 1 if total > 0 else -1
            card = max(hand, key=lambda c: sign * parse_card(c).value)
            return Decision("trade", card=card)
        if abs(total) >= 14 and hand and "trade" in legal["verbs"]:
            # A draw would likely bomb out: swap the smallest card for a chance at a bigger one.
            card = min(hand, key=lambda c: abs(parse_card(c).value))
            return Decision("trade", card=card)
        return Decision("draw")

    def _bet(self, view: dict, legal: dict) -> Decision:
        verbs = legal["verbs"]
        score = evaluate([parse_card(c) for c in list(view["cards"]) + list(view["field"])])
        strong = score.hand in ("idiots_array", "pure_sabacc") or (not score.bombed and abs(score.total) >= 20)
        weak = score.bombed or abs(score.total) < 12
        hand = view.get("hand") or {}
        # Call when ahead, or once the hand has gone on a while with anything but a weak hand (a hand nobody
        # calls never ends unless `max_rounds` is set).
        late = hand.get("round", 0) >= hand.get("call_round", 1) + 2
        call_hand = legal.get("can_call_hand", False) and (strong or (late and not weak) or hand.get("round", 0) > 12)
        if strong and "bet" in verbs:
            return Decision(
                "bet", amount=min(legal["max_bet"], max(legal["min_bet"], legal["max_bet"] // 8)), call_hand=call_hand
            )
        if strong and "raise" in verbs and self.rng.random() < 0.5:
            return Decision("raise", amount=legal["min_raise_to"], call_hand=call_hand)
        if "check" in verbs:
            return Decision("check", call_hand=call_hand)
        if weak and legal.get("call_amount", 0) > 0:
            return Decision("fold")
        if "call" in verbs:
            return Decision("call", call_hand=call_hand)
        return Decision("allin", call_hand=call_hand)


CLASSIC_BOTS: dict[str, type] = {ClassicRandomBot.kind: ClassicRandomBot, ClassicSensibleBot.kind: ClassicSensibleBot}


def sensible_decision(view: dict, rng: random.Random, bluff: float) -> Decision:
    """The sensible bot's Classic decision (Classic's play does not bluff)."""
    return ClassicSensibleBot(rng).decide(view)
