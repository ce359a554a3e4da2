"""Cards of the 62-card Coruscant Shift deck: values, suits, codes and a compact encoding.

A card code is sign, value and suit letter (`+7c`, `-8s`, `+2t`); a Sylop is `0`.
Input is case-insensitive and the `+` may be left out; output is always canonical.
The two Sylops are indistinguishable, so cards compare by value and suit.
"""

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import attrgetter

from games.engine.errors import InvalidCard

SUITS = ("c", "s", "t")
SUIT_NAMES = {"c": "circle", "s": "square", "t": "triangle"}
SUIT_LETTERS = {name: letter for letter, name in SUIT_NAMES.items()}
SYLOP_INDEX = 60
# One character per card kind (61 kinds: 60 numbered cards and the Sylop); 62 characters available.
_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CODE = re.compile(r"^([+-]?)(\d{1,2})([cst])$")


@dataclass(frozen=True, slots=True)
class CardKind:
    """A card of any deck: `value` and `suit` (None for a card of no suit), with its `code` and `index` (the card
    kind's number: the compact encoding and canonical order) worked out once when the card is made by the deck's
    `_code_and_index`. Cards hash by their index."""

    value: int
    suit: str | None
    code: str = field(init=False, compare=False, repr=False)
    index: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        code, index = self._code_and_index()
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "index", index)

    def _code_and_index(self) -> tuple[str, int]:
        raise NotImplementedError

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        # The dataclass's own comparison (same class, equal `value` and `suit`), written here so that it runs
        # compiled: a Classic play turn compares cards when it takes one from a hand.
        if self is other:
            return True
        if other.__class__ is self.__class__:
            return self.value == other.value and self.suit == other.suit
        return NotImplemented

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r})"


class Card(CardKind):
    """One card: `value` in -10..10 and `suit` a letter of SUITS, or None for a Sylop (value 0).

    `code` and `index` are worked out once when the card is made; the engine itself only uses the 61
    interned cards of `CARDS` (both Sylops are `SYLOP`), so comparing and hashing them stays cheap.
    """

    __slots__ = ()

    def _code_and_index(self) -> tuple[str, int]:
        if self.suit is None:
            return "0", SYLOP_INDEX
        # Small integer 0..60 naming the card kind (both Sylops share 60).
        offset = self.value + 10 if self.value < 0 else self.value + 9
        return f"{self.value:+d}{self.suit}", SUITS.index(self.suit) * 20 + offset

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if other.__class__ is Card:
            return self.value == other.value and self.suit == other.suit
        return NotImplemented

    __hash__ = CardKind.__hash__

    @property
    def is_sylop(self) -> bool:
        return self.suit is None

    def in_suit(self, suit: str) -> bool:
        """A Sylop counts as a card of every suit (RULES 1.1)."""
        return self.suit is None or self.suit == suit


def _make_card(index: int) -> Card:
    if index == SYLOP_INDEX:
        return Card(0, None)
    suit, offset = divmod(index, 20)
    return Card(offset - 10 if offset < 10 else offset - 9, SUITS[suit])


# The 61 card kinds, built once: CARDS[i] is the card whose index is i.
CARDS: tuple[Card, ...] = tuple(_make_card(i) for i in range(SYLOP_INDEX + 1))
SYLOP = CARDS[SYLOP_INDEX]
# The 62 cards in canonical order: circle, square, triangle from -10 to +10, then two Sylops.
FULL_DECK: tuple[Card, ...] = (*CARDS, SYLOP)
_BY_CODE = {card.code: card for card in CARDS}


def card_from_index(index: int) -> Card:
    if isinstance(index, int) and 0 <= index <= SYLOP_INDEX:
        return CARDS[index]
    raise InvalidCard(f"Card number {index} does not exist: card numbers run from 0 to {SYLOP_INDEX}.")


def parse_card(text: object) -> Card:
    """Read one card code such as `+7c`, `7C`, `-8s` or `0`."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise InvalidCard(f"Unknown card {text!r}: write cards like +7c, -8s, 2t or 0 (a Sylop).")
    card = _BY_CODE.get(text)  # the canonical spelling, as the engine writes it
    if card is not None:
        return card
    raw = text.strip().lower()
    if raw in {"0", "+0", "-0"}:
        return SYLOP
    match = _CODE.match(raw)
    if match:
        sign, digits, suit = match.groups()
        value = int(digits)
        if 1 <= value <= 10:
            return _BY_CODE[f"{'-' if sign == '-' else '+'}{value}{suit}"]
    raise InvalidCard(
        f"Unknown card {text!r}: a card is a value from -10 to +10 (not 0) and a suit c, s or t, "
        "like +7c or -8s, or 0 for a Sylop."
    )


def parse_cards(items: Iterable[object]) -> list[Card]:
    return [parse_card(item) for item in items]


def codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def full_deck() -> list[Card]:
    """The 62 cards in canonical order: circle, square, triangle from -10 to +10, then two Sylops."""
    return list(FULL_DECK)


DECK_COUNTS = Counter(FULL_DECK)


_INDEX = attrgetter("index")


def card_codec(alphabet: str, kinds: Iterable, what: str) -> tuple[Callable, Callable]:
    """A deck's compact encoding, one character per card kind (`alphabet[card.index]`): (encode, decode) for
    saved games (they hold hidden cards). `what` names the deck's card in the error for a character of none."""
    by_char = {alphabet[card.index]: card for card in kinds}
    # A card's index as a byte, translated to its ASCII character; a byte of no card becomes 0xFF, which the ASCII
    # decoding refuses (as `alphabet[card.index]` would raise).
    table = alphabet.encode("ascii") + b"\xff" * (256 - len(alphabet))

    def encode(cards: Iterable) -> str:
        # `"".join(alphabet[card.index] for card in cards)` in C: piles of 70 cards are encoded at a hand's end.
        return bytes(map(_INDEX, cards)).translate(table).decode("ascii")

    def decode(text: str) -> list:
        try:
            return [by_char[ch] for ch in text]
        except KeyError as exc:
            # Name only the bad character: the text may be a hidden deck or hand.
            raise InvalidCard(f"Encoded cards contain {exc.args[0]!r}, which is not {what}.") from None

    return encode, decode


encode_cards, decode_cards = card_codec(_ALPHABET, CARDS, "a card")


def check_deck(cards: list[Card], reference: list[Card] | None = None) -> None:
    """Refuse a deck that is not exactly the reference deck (the 62 cards by default), naming the first
    card that is extra or missing."""
    counts = Counter(cards)
    expected = DECK_COUNTS if reference is None else Counter(reference)
    for card, count in counts.items():
        if count > expected[card]:
            allowed = "twice" if card.is_sylop else "once"
            raise InvalidCard(f"Card {card.code} is listed {count} times; the deck holds it {allowed}.")
    for card, count in expected.items():
        if counts[card] < count:
            raise InvalidCard(
                f"Card {card.code} is missing from the deck; a deck holds all {sum(expected.values())} cards."
            )


def take(held: list[Card], wanted: list[Card]) -> list[Card] | None:
    """Cards left in `held` after removing `wanted` (as a multiset), or None if `held` lacks one."""
    left = list(held)
    for card in wanted:
        if card not in left:
            return None
        left.remove(card)
    return left
