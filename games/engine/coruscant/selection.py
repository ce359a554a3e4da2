"""Choosing cards toward the target: exhaustive subset search, and a look-ahead heuristic for the first select.

Pure functions of cards, target and suit letter; no game state, so a bot can only use what its view shows.
"""

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations
from math import comb

from games.engine.cards import DECK_COUNTS, Card, parse_card
from games.engine.coruscant.evaluation import Score, score

HAND_SIZE = 5
# A selection that misses after the shift is worth a little for being close; this is the weight of that.
NEAR_MISS_WEIGHT = 0.5


def subsets(cards: Sequence[Card]) -> Iterable[tuple[Card, ...]]:
    """Every subset of `cards`, smallest first (the empty one included)."""
    for size in range(len(cards) + 1):
        yield from combinations(cards, size)


def best_selection(
    cards: Iterable[object], target: int, suit: str, *, fixed: Iterable[object] = ()
) -> tuple[list[Card], Score]:
    """The cards to add to `fixed` that give the best final selection, and its score.

    Best means: non-empty, then the smallest distance to `target`, then the most cards in `suit`
    (a Sylop counts in every suit), then the fewest cards added. Only `cards` are searched; the
    `fixed` cards (already selected before the shift) are always kept.
    """
    pool = [parse_card(c) for c in cards]
    kept = [parse_card(c) for c in fixed]
    best_added: tuple[Card, ...] = ()
    best_score = score(kept, target, suit)
    for added in subsets(pool):
        candidate = score(kept + list(added), target, suit)
        if candidate.key > best_score.key:
            best_added, best_score = added, candidate
    return list(best_added), best_score


def first_selection(cards: Iterable[object], target: int, suit: str) -> list[Card]:
    """The cards to keep at the first select, before the shift, looking one shift ahead.

    Heuristic: a kept subset of k cards leaves 5 - k cards to be redrawn, and at improve any of the
    new cards may be added. A subset that already hits the target is kept as it is (most target-suit
    cards first). Otherwise each non-empty subset is worth the chance that some of the redrawn cards
    close its gap exactly (`completion_chance`), plus, if they do not, a little for being near the
    target; ties go to more target-suit cards. The selection is never empty when a card is held.
    """
    pool = [parse_card(c) for c in cards]
    hit, hit_score = best_selection(pool, target, suit)
    if hit_score.distance == 0 or not pool:
        return hit
    best_kept: tuple[Card, ...] = tuple(hit)
    best_key: tuple[float, int, int] = (-1.0, 0, 0)
    for kept in subsets(pool):
        if not kept:
            continue
        now = score(kept, target, suit)
        chance = completion_chance(target - now.total, HAND_SIZE - len(kept))
        worth = chance + (1 - chance) * NEAR_MISS_WEIGHT / (1 + now.distance)
        key = (round(worth, 9), now.suit_count, -now.distance)
        if key > best_key:
            best_kept, best_key = kept, key
    return list(best_kept)


@cache
def _value_weights() -> dict[int, float]:
    """The chance that a card from a full deck has each value (a Sylop is the value 0)."""
    total = sum(DECK_COUNTS.values())
    weights: dict[int, float] = {}
    for card, count in DECK_COUNTS.items():
        weights[card.value] = weights.get(card.value, 0.0) + count / total
    return weights


@cache
def _sum_chances(count: int) -> dict[int, float]:
    """The chance that `count` cards drawn from a full deck (with replacement) add up to each total."""
    chances = {0: 1.0}
    for _ in range(count):
        nxt: dict[int, float] = {}
        for total, p in chances.items():
            for value, q in _value_weights().items():
                nxt[total + value] = nxt.get(total + value, 0.0) + p * q
        chances = nxt
    return chances


@cache
def completion_chance(gap: int, slots: int) -> float:
    """Roughly, the chance that some non-empty subset of `slots` fresh cards adds up to exactly `gap`.

    Treats the subsets as independent (they are not), which is close enough to rank choices.
    """
    if slots <= 0:
        return 1.0 if gap == 0 else 0.0
    miss = 1.0
    for size in range(1, slots + 1):
        p = _sum_chances(size).get(gap, 0.0)
        miss *= (1 - p) ** comb(slots, size)
    return 1 - miss
