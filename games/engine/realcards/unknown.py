"""Cards and dice that nobody has seen yet: what a real-cards hand is dealt instead of a deck.

At a table playing with a printed deck the site never knows a card until someone shows it. The shared hand
classes run on *unknown cards* instead: each is one place in the hand's deck (its `slot`), equal only to
itself, so the hand can deal, move and count it. Reading its value, suit or code is a question the rules ask
only at the reveal (or a tie-break draw): it raises `NeedCard`, which the real-cards game turns into "enter
this card". Once entered, the next run of the hand deals the real card in that slot instead. Dice work the
same way (`UnknownDice`, `NeedDice`).

`NeedCard` and `NeedDice` derive from BaseException on purpose: they are a signal to the real-cards game,
never an error a hand may catch on its way.
"""

from typing import Any

UNKNOWN_INDEX = 1_000_000


class NeedCard(BaseException):
    """A hand read the value of an unknown card: the card in `slot` must be shown (entered) first."""

    def __init__(self, slot: int) -> None:
        super().__init__(slot)
        self.slot = slot


class NeedDice(BaseException):
    """A hand read dice that were not rolled yet: the roll is due."""


class UnknownCard:
    """The card in place `slot` of the hand's deck (before the shuffle), not seen yet.

    Mixed into a subclass of the variant's own card class (`unknown_deck`), so the hands accept it wherever they
    accept a card; its face fields are never set. It hashes by its slot and equals only itself (two unknown
    cards are never "the same card", and an unknown card never matches a known one), so the shared hands'
    multiset checks keep it apart. Its `code` reads "?" (legal-action lists name it so) and its `index` is
    `UNKNOWN_INDEX + slot`; every other question about its face raises `NeedCard`. One instance per slot and
    card class is shared by every game, so records the engine caches by card stay few.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __hash__(self) -> int:
        return hash(("unknown", self.slot))

    def __copy__(self) -> "UnknownCard":
        return self

    def __deepcopy__(self, memo: dict) -> "UnknownCard":
        return self

    def __repr__(self) -> str:
        return f"UnknownCard({self.slot})"

    def __str__(self) -> str:
        return "?"

    def __getattr__(self, name: str) -> Any:
        # Reached for the face fields the card never had set (value, suit, index ...): a question about a face
        # nobody has shown yet.
        if name.startswith("__"):
            raise AttributeError(name)
        slot = object.__getattribute__(self, "slot")
        if name == "code":
            return "?"
        if name == "index":
            # Hands key cached log records by a card's index: an unknown card gets its own, far from every real
            # card's, so no record of a real card is ever shared with it. No evaluation reads the index.
            return UNKNOWN_INDEX + slot
        raise NeedCard(slot)

    def __lt__(self, other: object) -> bool:
        raise NeedCard(self.slot)

    __gt__ = __le__ = __ge__ = __lt__


_CLASSES: dict[type, type] = {}
_DECKS: dict[type, list] = {}


def unknown_class(card_class: type) -> type:
    """The unknown-card class for a variant's card class (made once)."""
    cls = _CLASSES.get(card_class)
    if cls is None:
        cls = type(f"Unknown{card_class.__name__}", (UnknownCard, card_class), {"__slots__": ("slot",)})
        _CLASSES[card_class] = cls
    return cls


def unknown_deck(card_class: type, size: int) -> list:
    """`size` unknown cards of `card_class`, slots 0 to size - 1 (the shared instances)."""
    cls = unknown_class(card_class)
    cards = _DECKS.setdefault(card_class, [])
    while len(cards) < size:
        card = object.__new__(cls)
        object.__setattr__(card, "slot", len(cards))
        cards.append(card)
    return cards[:size]


def is_unknown(card: object) -> bool:
    return isinstance(card, UnknownCard)


class UnknownDice:
    """Dice not rolled yet: reading any face raises `NeedDice` (the dealer's roll, or the site's, is due)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise NeedDice()

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return 0

    def __deepcopy__(self, memo: dict) -> "UnknownDice":
        return self


UNKNOWN_DICE = UnknownDice()
