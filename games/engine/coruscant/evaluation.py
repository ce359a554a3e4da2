"""Hand evaluation for Coruscant Shift (RULES 1.3): total, distance, suit count and comparison."""

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.cards import Card
from games.engine.records import slotted_builder


@dataclass(frozen=True, slots=True)
class Score:
    """What a selection is worth against a target number and target suit."""

    size: int
    total: int
    distance: int
    suit_count: int

    @property
    def key(self) -> tuple[bool, int, int]:
        """Larger is better: a non-empty selection first (ruling), then smaller distance, then more in suit."""
        return (self.size > 0, -self.distance, self.suit_count)

    def to_dict(self) -> dict:
        return {"total": self.total, "distance": self.distance, "suit_count": self.suit_count}


_new_score = slotted_builder(Score)


def score(selection: Sequence[Card], target: int, suit_letter: str) -> Score:
    total = sum(card.value for card in selection)
    in_suit = sum(1 for card in selection if card.in_suit(suit_letter))
    return _new_score(len(selection), total, abs(total - target), in_suit)
