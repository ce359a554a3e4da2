"""The sensible bot: selects by subset search and bets by hand strength, from its seat's view only.

Betting follows the usual advice for Coruscant Shift:
- a selection that misses the target is a losing hand: fold when facing a bet, check when free;
- a selection that hits the target with no target-suit card is barely playable: check, or call a
  small bet (so the big blind checks when nobody raised);
- a hit with target-suit cards is strong: bet and raise, the more target-suit cards the more;
- with fewer opponents left every hand is worth more, so the bot plays looser;
- now and then, at a rate set by `bluff` and drawn from the bot's own rng, it opens the betting with
  a weak hand. It only bluffs when nobody has bet, so it still folds a miss that faces a bet.

Hits are common once selections are searched (about four hands in five hit by the end), so a
strong hand caps how much of its credits it will commit in one hand (`COMMITMENT`); without
the cap two good hands raise each other all-in every time.
"""

import random

from games.engine.bots import spike
from games.engine.bots.base import Decision, target_of
from games.engine.bots.selection import best_selection, first_selection
from games.engine.cards import codes, parse_cards
from games.engine.evaluation import score

# Share of its credits (stack + already in this hand) a hit with this many target-suit cards will commit.
COMMITMENT = {0: 0.1, 1: 0.25, 2: 0.45, 3: 0.75}
# From this many target-suit cards on, a hit calls anything (seed 000: three matches are rare already).
NUTS_SUIT_COUNT = 4


class SensibleBot:
    """Plays toward the target and bets by strength; `bluff` is the chance of opening with a weak hand."""

    kind = "sensible"

    def __init__(self, rng: random.Random, *, bluff: float = 0.06) -> None:
        self.rng = rng
        self.bluff = bluff

    def decide(self, view: dict) -> Decision:
        legal = view["legal"]
        if not legal["verbs"]:
            raise ValueError(f"Seat {legal['seat']} has no decision to make in phase {legal['phase']}.")
        if view.get("variant") == "corellian_spike":
            return spike.decide(view, self.rng, self.bluff)
        if view.get("variant") == "classic":
            from games.engine.bots.classic import ClassicSensibleBot

            return ClassicSensibleBot(self.rng).decide(view)
        target, suit = target_of(view)
        if "select" in legal["verbs"]:
            if legal["phase"] == "select":
                chosen = first_selection(view["cards"], target, suit)
            else:
                chosen, _ = best_selection(view["cards"], target, suit, fixed=view["selection"])
            return Decision("select", cards=tuple(codes(chosen)))
        distance, suit_count = score_of(view, target, suit)
        return self._bet(view, legal, distance, suit_count)

    def _bet(self, view: dict, legal: dict, distance: int, suit_count: int) -> Decision:
        verbs = legal["verbs"]
        me = next(row for row in view["players"] if row["seat"] == view["seat"])
        opponents = sum(1 for row in view["players"] if row.get("in_hand") and row["seat"] != view["seat"])
        loose = looseness(opponents)
        pot = sum(p["amount"] for p in view["hand"]["pots"])
        min_bet = max(1, view["levels"]["min_bet"])
        facing = legal.get("call_amount", 0) if "call" in verbs else 0
        free = "check" in verbs

        if distance > 0:
            if free and self.rng.random() < self.bluff * loose:
                return _open(legal, min_bet, pot * 0.3)
            return _first(verbs, "check", "fold")

        worth = me["stack"] + me.get("contributed", 0)
        room = min(1.0, COMMITMENT[min(suit_count, 3)] * loose) * worth - me.get("contributed", 0)
        if suit_count == 0:
            if free:
                if view["hand"]["phase"] == "betting_1" and self.rng.random() < 2 * self.bluff * loose:
                    return _open(legal, min_bet, min(pot * 0.4, room))
                return Decision("check")
            small = max(min_bet, pot * 0.3 * loose)
            if facing <= small or facing <= room:
                return _first(verbs, "call", "allin", "fold")
            return Decision("fold")

        size = min(pot * (0.25 + 0.25 * suit_count) * loose, max(room, min_bet))
        if free:
            if "bet" in verbs or "raise" in verbs:
                return _open(legal, min_bet, size)
            return Decision("check")
        if suit_count < NUTS_SUIT_COUNT and facing > max(room, pot * 0.3 * loose, min_bet):
            return Decision("fold")
        wants_raise = suit_count >= 2 and self.rng.random() < 0.3 + 0.15 * suit_count
        if wants_raise and "raise" in verbs and legal["min_raise_to"] - me.get("bet", 0) <= room:
            return _raise(legal, min(size, room - (legal["min_raise_to"] - me.get("bet", 0))))
        return _first(verbs, "call", "allin", "fold")


def score_of(view: dict, target: int, suit: str) -> tuple[int, int]:
    """(distance, suit count) of the seat's selection; an empty selection counts as a miss."""
    selection = view["selection"]
    if not selection:
        return (abs(target) + 100, 0)
    s = score(parse_cards(selection), target, suit)
    return (s.distance, s.suit_count)


def looseness(opponents: int) -> float:
    """Fewer opponents, looser play: 1.0 against three, up to 1.3 heads-up, down to 0.5 against seven."""
    return max(0.5, 1.0 + 0.15 * (3 - max(1, opponents)))


def _first(verbs: list[str], *wanted: str) -> Decision:
    for verb in wanted:
        if verb in verbs:
            return Decision(verb)
    return Decision(verbs[0])


def _open(legal: dict, min_bet: int, size: float) -> Decision:
    """Open the betting at about `size` (a bet, or a raise when the round already holds forced bets)."""
    verbs = legal["verbs"]
    if "bet" in verbs:
        return Decision("bet", amount=_clamp(max(min_bet, round(size)), legal["min_bet"], legal["max_bet"]))
    if "raise" in verbs:
        return _raise(legal, size)
    return _first(verbs, "check", "call", "fold")


def _raise(legal: dict, extra: float) -> Decision:
    """Raise to the minimum plus about `extra`, within the legal bounds."""
    low, high = legal["min_raise_to"], legal["max_raise_to"]
    return Decision("raise", amount=_clamp(low + max(0, round(extra)), low, high))


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, int(value)))
