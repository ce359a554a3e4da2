"""Corellian Spike hands (RULES 2.3): the total, the special-hand hierarchy and the tie-breaker chain.

`classify(cards)` names a hand; `SpikeScore.key` orders two hands by the chain of 2.3 (larger is
better), so equal keys tie and split the pot.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.engine.cards import Card
from games.engine.records import slotted_builder

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
    kinds: dict[int, int] = {}  # Ruling 2.3.2: a kind is an absolute value; how many cards of each
    for value in plain:
        kind = abs(value)
        kinds[kind] = kinds.get(kind, 0) + 1
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


_new_score = slotted_builder(SpikeScore)


def evaluate(cards: Sequence[Card]) -> SpikeScore:
    """The hand's score: its name (`classify`), total, size, suit (`is_suited`), positive total, highest positive card
    and Sylops, read in one pass over the cards."""
    total = positive_total = highest_positive = sylops = 0
    suit = None
    suited = True
    for card in cards:
        value = card.value
        total += value
        if value > 0:
            positive_total += value
            if value > highest_positive:
                highest_positive = value
        card_suit = card.suit  # None for a Sylop (`card.is_sylop`, without the property's call)
        if card_suit is None:
            sylops += 1
        elif suit is None:
            suit = card_suit
        elif card_suit != suit:
            suited = False
    name = "nulrhek" if total != 0 else classify(cards)
    return _new_score(name, total, len(cards), suited, positive_total, highest_positive, sylops)
