"""The seeded order of cards a replay leaves unlisted (REPLAY-classic, "The seeded order").

Every engine agrees on it: each card of the pile, with its copy number among the cards to be
ordered, is keyed by the SHA-256 of `<seed>/<label>/<code>/<copy>`, and the cards sort by that
digest in lowercase hex. Labels are `hand/<h>/deck` and `hand/<h>/reshuffle/<j>`.
"""

import hashlib
from collections import Counter
from collections.abc import Iterable

from games.engine.classic.cards import ClassicCard


def deck_label(hand: int) -> str:
    return f"hand/{hand}/deck"


def pile_label(hand: int, pile: int) -> str:
    return f"hand/{hand}/reshuffle/{pile}"


def seeded_order(cards: Iterable[ClassicCard], seed: int, label: str) -> list[ClassicCard]:
    """`cards` (any order) in the seeded order for `seed` (a whole number) and `label`."""
    copies: Counter = Counter()
    keyed = []
    prefix = f"{int(seed)}/{label}/"
    for card in sorted(cards, key=lambda c: c.index):
        copies[card] += 1
        digest = hashlib.sha256(f"{prefix}{card.code}/{copies[card]}".encode()).hexdigest()
        keyed.append((digest, card.index, card))
    keyed.sort(key=lambda item: (item[0], item[1]))
    return [card for _, _, card in keyed]


def complete_pile(listed: list[ClassicCard], pool: list[ClassicCard], seed: int, label: str) -> list[ClassicCard]:
    """A new pile, top first: the `listed` cards, then the rest of `pool` (one copy less per listing) in the
    seeded order. The caller has checked that every listed card is in `pool`."""
    rest = Counter(pool)
    rest.subtract(listed)
    return list(listed) + seeded_order(rest.elements(), seed, label)
