"""The sensible bot's Coruscant Shift play, from its seat's view only: selects by subset search, bets by hand
strength.


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

from games.engine.bots.base import Decision, target_of
from games.engine.bots.betting import first, open_betting, raise_by, read_table
from games.engine.cards import codes, parse_cards
from games.engine.coruscant.evaluation import score
from games.engine.coruscant.selection import best_selection, first_selection

# Share of its credits (stack + already in this hand) a hit with this many target-suit cards will commit.
COMMITMENT = {0: 0.1, 1: 0.25, 2: 0.45, 3: 0.75}
# From this many target-suit cards on, a hit calls anything (seed 000: three matches are rare already).
NUTS_SUIT_COUNT = 4


def decide(view: dict, rng: random.Random, bluff: float) -> Decision:
    """Select toward the target, or bet by the selection's strength."""
    legal = view["legal"]
    target, suit = target_of(view)
    if "select" in legal["verbs"]:
        if legal["phase"] == "select":
            chosen = first_selection(view["cards"], target, suit)
        else:
            chosen, _ = best_selection(view["cards"], target, suit, fixed=view["selection"])
        return Decision("select", cards=tuple(codes(chosen)))
    distance, suit_count = score_of(view, target, suit)
    return bet(view, legal, distance, suit_count, rng, bluff)


def bet(view: dict, legal: dict, distance: int, suit_count: int, rng: random.Random, bluff: float) -> Decision:
    verbs = legal["verbs"]
    me, opponents, pot, min_bet, facing, free = read_table(view, legal)
    loose = looseness(opponents)

    if distance > 0:
        if free and rng.random() < bluff * loose:
            return open_betting(legal, min_bet, pot * 0.3)
        return first(verbs, "check", "fold")

    worth = me["stack"] + me.get("contributed", 0)
    room = min(1.0, COMMITMENT[min(suit_count, 3)] * loose) * worth - me.get("contributed", 0)
    if suit_count == 0:
        if free:
            if view["hand"]["phase"] == "betting_1" and rng.random() < 2 * bluff * loose:
                return open_betting(legal, min_bet, min(pot * 0.4, room))
            return Decision("check")
        small = max(min_bet, pot * 0.3 * loose)
        if facing <= small or facing <= room:
            return first(verbs, "call", "allin", "fold")
        return Decision("fold")

    size = min(pot * (0.25 + 0.25 * suit_count) * loose, max(room, min_bet))
    if free:
        if "bet" in verbs or "raise" in verbs:
            return open_betting(legal, min_bet, size)
        return Decision("check")
    if suit_count < NUTS_SUIT_COUNT and facing > max(room, pot * 0.3 * loose, min_bet):
        return Decision("fold")
    wants_raise = suit_count >= 2 and rng.random() < 0.3 + 0.15 * suit_count
    if wants_raise and "raise" in verbs and legal["min_raise_to"] - me.get("bet", 0) <= room:
        return raise_by(legal, min(size, room - (legal["min_raise_to"] - me.get("bet", 0))))
    return first(verbs, "call", "allin", "fold")


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
