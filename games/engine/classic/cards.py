"""The 76-card Classic deck (RULES 3.1): four suits of fifteen cards and sixteen face cards.

A suit card's code is sign, value and suit letter (`+1s`, `+12c`, `+15t`); a face card's code is its
value alone (`-17`, `0` for the Idiot). Input is case-insensitive, spaces around a code are ignored and
the `+` may be left out; output is always canonical. The two copies of a face card are one card kind.
"""

import re
from collections import Counter
from collections.abc import Iterable
from operator import attrgetter

import cython

from games.engine.cards import CardKind, card_codec
from games.engine.errors import InvalidCard

SUITS = ("s", "f", "c", "t")
SUIT_NAMES = {"s": "Sabers", "f": "Flasks", "c": "Coins", "t": "Staves"}
RANK_NAMES = {12: "Commander", 13: "Mistress", 14: "Master", 15: "Ace"}
# The eight face cards in canonical order (RULES 3.1), each held twice.
FACE_VALUES = (0, -2, -8, -11, -13, -14, -15, -17)
FACE_NAMES = {
    -17: "The Star",
    -15: "The Evil One",
    -14: "Moderation",
    -13: "Demise",
    -11: "Balance",
    -8: "Endurance",
    -2: "Queen of Air and Darkness",
    0: "Idiot",
}
# One character per card kind (60 suit cards and 8 face cards) for the compact encoding of saved games.
_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&*"
_SUIT_CODE = re.compile(r"^\+?([1-9]|1[0-5])([sfct])$")
_FACE_CODE = re.compile(r"^([+-]?)(0|[1-9]\d?)$")
UNKNOWN_HELP = (
    "a card is a suit card +1..+15 with a suit letter s, f, c or t (like +7s or +12c), "
    "or a face card written as its value: 0, -2, -8, -11, -13, -14, -15 or -17"
)


class ClassicCard(CardKind):
    """One card: `value` (a suit card 1..15, a face card its negative value or 0) and `suit` (None for a face card).

    `index` (0..67) orders cards canonically: Sabers, Flasks, Coins, Staves from 1 to 15, then the faces.
    """

    __slots__ = ()

    def _code_and_index(self) -> tuple[str, int]:
        if self.suit is None:
            return str(self.value), 60 + FACE_VALUES.index(self.value)
        return f"+{self.value}{self.suit}", SUITS.index(self.suit) * 15 + self.value - 1

    @property
    def is_face(self) -> bool:
        return self.suit is None

    @property
    def name(self) -> str:
        if self.suit is None:
            return FACE_NAMES[self.value]
        return f"{RANK_NAMES.get(self.value, self.value)} of {SUIT_NAMES[self.suit]}"


def _make(index: int) -> ClassicCard:
    if index >= 60:
        return ClassicCard(FACE_VALUES[index - 60], None)
    suit, offset = divmod(index, 15)
    return ClassicCard(offset + 1, SUITS[suit])


# The 68 card kinds: KINDS[i] is the card whose index is i.
KINDS: tuple[ClassicCard, ...] = tuple(_make(i) for i in range(68))
IDIOT = KINDS[60]
# The 76 cards in canonical order: the 60 suit cards, then each face card twice.
DECK: tuple[ClassicCard, ...] = (*KINDS[:60], *(card for card in KINDS[60:] for _ in range(2)))
DECK_COUNTS = Counter(DECK)
_BY_CODE = {card.code: card for card in KINDS}


def full_deck() -> list[ClassicCard]:
    """The 76 cards in canonical order (the order of a new deck)."""
    return list(DECK)


def parse_card(text: object) -> ClassicCard:
    """Read one card code (`+7s`, `7S`, ` 15t `, `-17`, `0`, `+0`); raise `InvalidCard` for anything else."""
    if isinstance(text, ClassicCard):
        return text
    if not isinstance(text, str):
        raise InvalidCard(f"Unknown card {text!r}: {UNKNOWN_HELP}.")
    card = _BY_CODE.get(text)
    if card is not None:
        return card
    raw = text.strip().lower()
    match = _SUIT_CODE.match(raw)
    if match:
        return _BY_CODE[f"+{match.group(1)}{match.group(2)}"]
    match = _FACE_CODE.match(raw)
    if match:
        sign, digits = match.groups()
        value = 0 if digits == "0" else (-int(digits) if sign == "-" else int(digits))
        if value in FACE_VALUES:
            return _BY_CODE[str(value)]
    raise InvalidCard(f"Unknown card {text!r}: {UNKNOWN_HELP}.")


def parse_cards(items: Iterable[object]) -> list[ClassicCard]:
    return [parse_card(item) for item in items]


def codes(cards: Iterable[ClassicCard]) -> list[str]:
    return [card.code for card in cards]


_INDEX = attrgetter("index")


def canonical(cards: Iterable[ClassicCard]) -> list[ClassicCard]:
    """`cards` in canonical order (results list a player's cards so)."""
    return sorted(cards, key=_INDEX)


@cython.locals(i=cython.Py_ssize_t, k=cython.Py_ssize_t, kinds=cython.Py_ssize_t)
def canonical_pile(pool: list[ClassicCard]) -> list[ClassicCard]:
    """`canonical(pool)` for a whole pile (a Shift's or a reshuffle's, up to 76 cards): counted by kind in a C
    array rather than sorted (compiled); equal cards are one kind, so the list is the same."""
    counts = cython.declare(cython.int[68])
    kinds = len(KINDS)
    for i in range(kinds):
        counts[i] = 0
    for card in pool:
        i = card.index
        counts[i] += 1
    ordered = []
    for i in range(kinds):
        k = counts[i]
        while k > 0:
            ordered.append(KINDS[i])
            k -= 1
    return ordered


encode_cards, decode_cards = card_codec(_ALPHABET, KINDS, "a Classic card")


def over_listed(cards: Iterable[ClassicCard], reference: Counter | None = None) -> ClassicCard | None:
    """The first card listed more often than `reference` (default: the deck) holds it, or None."""
    held = DECK_COUNTS if reference is None else reference
    seen: Counter = Counter()
    for card in cards:
        seen[card] += 1
        if seen[card] > held[card]:
            return card
    return None


def check_deck(cards: list[ClassicCard]) -> None:
    """Refuse a deck that is not exactly the 76 cards, naming the first card extra or missing."""
    extra = over_listed(cards)
    if extra is not None:
        times = "twice" if extra.is_face else "once"
        raise InvalidCard(f"Card {extra.code} is listed {Counter(cards)[extra]} times; the deck holds it {times}.")
    counts = Counter(cards)
    for card, count in DECK_COUNTS.items():
        if counts[card] < count:
            raise InvalidCard(f"Card {card.code} is missing from the deck; a deck holds all 76 cards.")
