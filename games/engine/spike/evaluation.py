"""Corellian Spike hands (RULES 2.3): the total, the special-hand hierarchy and the tie-breaker chain.

`classify(cards)` names a hand; `SpikeScore.key` orders two hands by the chain of 2.3 (larger is
better), so equal keys tie and split the pot.
"""

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.engine.cards import Card

# Best first (Ruling 2.3.1); rank 1 is the best hand.
HAND_NAMES = (
    "pure_sabacc",
    "full_sabacc",
    "fleet",
    "prime_sabacc",
    "yee_haa",
    "rhylet",
    "squadron",
    "gee_whiz",
    "straight_khyron",
    "banthas_wild",
    "rule_of_two",
    "sabacc",
    "nulrhek",
)
RANKS = {name: rank for rank, name in enumerate(HAND_NAMES, start=1)}
# The names as players say them.
HAND_TITLES = {
    "pure_sabacc": "Pure Sabacc",
    "full_sabacc": "Full Sabacc",
    "fleet": "Fleet",
    "prime_sabacc": "Prime Sabacc",
    "yee_haa": "Yee-Haa",
    "rhylet": "Rhylet",
    "squadron": "Squadron",
    "gee_whiz": "Gee Whiz",
    "straight_khyron": "Straight Khyron",
    "banthas_wild": "Bantha's Wild",
    "rule_of_two": "Rule of Two",
    "sabacc": "Sabacc",
    "nulrhek": "Nulrhek",
}
SPECIAL = frozenset(HAND_NAMES[:11])
_GEE_WHIZ = (sorted([1, 2, 3, 4, -10]), sorted([-1, -2, -3, -4, 10]))


def classify(cards: Sequence[Card]) -> str:
    """The highest name whose row the hand matches exactly (Ruling 2.3.3)."""
    total = sum(card.value for card in cards)
    if total != 0:
        return "nulrhek"
    size = len(cards)
    sylops = sum(1 for card in cards if card.is_sylop)
    plain = [card.value for card in cards if not card.is_sylop]
    kinds = Counter(abs(v) for v in plain)  # Ruling 2.3.2: a kind is an absolute value
    if sylops == 2 and size == 2:
        return "pure_sabacc"
    if sylops == 1:
        if size == 5 and len(kinds) == 1:
            # Total zero with four cards of one kind: two of each sign.
            return "full_sabacc" if plain[0] in (10, -10) else "fleet"
        if size == 3 and len(kinds) == 1:
            return "prime_sabacc" if plain[0] in (10, -10) else "yee_haa"
        return "sabacc"
    if sylops:
        return "sabacc"
    counts = sorted(kinds.values(), reverse=True)
    if size == 5 and counts == [3, 2]:
        return "rhylet"
    if size == 4 and counts == [4]:
        return "squadron"
    if size == 5 and sorted(plain) in _GEE_WHIZ:
        return "gee_whiz"
    if size == 4 and len(kinds) == 4:
        low = min(kinds)
        if sorted(kinds) == list(range(low, low + 4)):
            return "straight_khyron"
    if size in (4, 5) and counts[0] >= 3:
        return "banthas_wild"
    if size in (4, 5) and len(counts) >= 2 and counts[1] >= 2:
        return "rule_of_two"
    return "sabacc"


def is_suited(cards: Iterable[Card]) -> bool:
    """Ruling 2.1.1: every non-Sylop card shares one suit (a Sylop never breaks a suit)."""
    suits = {card.suit for card in cards if not card.is_sylop}
    return len(suits) <= 1


@dataclass(frozen=True, slots=True)
class SpikeScore:
    """What a hand is worth at the reveal; `key` follows the chain of RULES 2.3 (larger is better)."""

    name: str
    total: int
    size: int
    suited: bool
    positive_total: int
    highest_positive: int
    sylops: int

    @property
    def key(self) -> tuple:
        nulrhek = self.name == "nulrhek"
        return (
            -RANKS[self.name],  # 1. the name
            -abs(self.total) if nulrhek else 0,  # 2. Nulrhek: closest to zero...
            self.total > 0 if nulrhek else False,  # ...then positive beats negative
            self.size,  # 3. more cards
            self.suited,  # 4. suited
            self.positive_total,  # 5. the higher positive total
            self.highest_positive,  # 6. the higher highest positive card
            self.sylops,  # 7. more Sylops
        )

    @property
    def is_sabacc(self) -> bool:
        return self.total == 0

    def to_dict(self) -> dict:
        return {"total": self.total, "hand": self.name}


def evaluate(cards: Sequence[Card]) -> SpikeScore:
    positives = [card.value for card in cards if card.value > 0]
    return SpikeScore(
        name=classify(cards),
        total=sum(card.value for card in cards),
        size=len(cards),
        suited=is_suited(cards),
        positive_total=sum(positives),
        highest_positive=max(positives, default=0),
        sylops=sum(1 for card in cards if card.is_sylop),
    )
