"""Hands and their order (RULES 3.3): Idiot's Array, Pure Sabacc, ordinary totals, bombing out.

A hand's `key` sorts hands best last; two hands are equal exactly when their keys are equal.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from games.engine.classic.cards import ClassicCard
from games.engine.records import slotted_builder

IDIOTS_ARRAY, PURE_SABACC, ORDINARY, BOMB_OUT = "idiots_array", "pure_sabacc", "ordinary", "bomb_out"
KIND_RANK = {BOMB_OUT: 0, ORDINARY: 1, PURE_SABACC: 2, IDIOTS_ARRAY: 3}
# The kinds as players say them at the reveal (an ordinary hand is named by its total alone).
HAND_TITLES = {IDIOTS_ARRAY: "Idiot's Array", PURE_SABACC: "Pure Sabacc", ORDINARY: "", BOMB_OUT: "bombed out"}
RANKINGS = ("magnitude", "signed")


@dataclass(frozen=True, slots=True)
class ClassicScore:
    """What a player's cards make: `hand` (one of the four kinds), `total` and the sort `key`."""

    hand: str
    total: int
    key: tuple

    @property
    def bombed(self) -> bool:
        return self.hand == BOMB_OUT

    @property
    def wins_sabacc_pot(self) -> bool:
        return self.hand in (IDIOTS_ARRAY, PURE_SABACC)

    def to_dict(self) -> dict:
        return {"total": self.total, "hand": self.hand}


def is_idiots_array(cards: list[ClassicCard]) -> bool:
    """Ruling 3.3.3: exactly the Idiot, a suit 2 and a suit 3 (the Queen, -2, is not a 2)."""
    if len(cards) != 3:
        return False
    found = sorted((card.value, card.suit is None) for card in cards)
    return found == [(0, True), (2, False), (3, False)]


_new_score = slotted_builder(ClassicScore)


def evaluate(cards: Iterable[ClassicCard], ranking: str = "magnitude") -> ClassicScore:
    """The hand `cards` (hand and field together) make under option `hand_ranking`."""
    cards = list(cards)
    total = sum(card.value for card in cards)
    if is_idiots_array(cards):
        return _new_score(IDIOTS_ARRAY, total, (KIND_RANK[IDIOTS_ARRAY],))
    if total in (23, -23):
        hand = PURE_SABACC
    elif total == 0 or not -23 < total < 23:
        return _new_score(BOMB_OUT, total, (KIND_RANK[BOMB_OUT],))
    else:
        hand = ORDINARY
    # Rulings 3.3.1-3.3.2 (magnitude): nearer to +23 or -23 is better; at the same distance the positive total.
    key = (KIND_RANK[hand], total) if ranking == "signed" else (KIND_RANK[hand], abs(total), total > 0)
    return _new_score(hand, total, key)


def best_of(scores: dict[int, ClassicScore], seats: Iterable[int]) -> list[int]:
    """The seats among `seats` whose hands are equal best (in the order given)."""
    seats = list(seats)
    top = max(scores[s].key for s in seats)
    return [s for s in seats if scores[s].key == top]
