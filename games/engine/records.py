"""Frozen records of everything that happens in a hand, appended to the hand's operation log.

Records of dealing hold cards; they are engine-internal and never leave it except through views.
"""

from collections.abc import Callable
from dataclasses import dataclass, fields

from games.engine.cards import Card


@dataclass(frozen=True, slots=True)
class Record:
    """One operation: a player's decision (`select`, `check`, `call`, `bet`, `raise`, `fold`, `allin`)
    or an automatic step (`ante`, `blind`, `deal`, `roll`, `shift`, `reshuffle`, `return`, `award`, `end`)."""

    kind: str
    seat: int | None = None
    amount: int | None = None
    cards: tuple[Card, ...] = ()
    note: str = ""

    def __repr__(self) -> str:
        # Cards stay out of the repr so a stray log line can never show a hidden hand.
        return f"Record(kind={self.kind!r}, seat={self.seat!r}, amount={self.amount!r})"


_new = object.__new__
_set_kind, _set_seat, _set_amount = Record.kind.__set__, Record.seat.__set__, Record.amount.__set__
_set_cards, _set_note = Record.cards.__set__, Record.note.__set__


def new_record(
    kind: str, seat: int | None = None, amount: int | None = None, cards: tuple = (), note: str = ""
) -> Record:
    """`Record(...)` with the same arguments, cheaper: each slot set through its member descriptor, compiled (the
    dataclass's generated `__init__` runs interpreted, an `object.__setattr__` per field); hands make several a
    decision. Records are frozen, so a plain one (no cards, no note: antes, stands, bets, awards) is made once per
    kind, seat and amount and shared, as `card_record` shares a dealt card's."""
    plain = not cards and not note and (seat is None or type(seat) is int) and (amount is None or type(amount) is int)
    if plain:
        key = (kind, seat, amount)
        record = _PLAIN_RECORDS.get(key)
        if record is not None:
            return record
    record = _new(Record)
    _set_kind(record, kind)
    _set_seat(record, seat)
    _set_amount(record, amount)
    _set_cards(record, cards)
    _set_note(record, note)
    if plain and len(_PLAIN_RECORDS) < _PLAIN_KEPT:
        _PLAIN_RECORDS[key] = record
    return record


# The plain records made so far, by (kind, seat, amount); a bound keeps a long game's odd amounts from growing it.
_PLAIN_RECORDS: dict[tuple, Record] = {}
_PLAIN_KEPT = 20_000


def slotted_builder(cls: type) -> Callable:
    """A function making `cls(*values)` of a frozen, slotted dataclass without a `__post_init__`, every field given
    in order: each slot set through its member descriptor, compiled (the generated `__init__` runs interpreted). The
    variants' scores and dice and the forced-bet levels are made this way; `tests/engine/test_fast_constructors.py`
    holds each to the class."""
    setters = tuple(getattr(cls, field.name).__set__ for field in fields(cls))
    count = len(setters)

    def build(*values):
        if len(values) != count:
            raise TypeError(f"{cls.__name__} takes {count} values; got {len(values)}.")
        made = _new(cls)
        for i in range(count):  # `zip(setters, values)`, without the iterator
            setters[i](made, values[i])
        return made

    return build


_CARD_RECORDS: dict[tuple, Record] = {}


def card_record(kind: str, seat: int, card: Card) -> Record:
    """`Record(kind, seat, cards=(card,))` for a card dealt (`deal`, `shift`); records are frozen, so each
    of the few possible ones is made once and shared."""
    # A 62-card deck's card is the one card of its index (`cards.CARDS`): keyed by the index, the key hashes without
    # calling the card's `__hash__` (a deal makes a record per card).
    key = (kind, seat, card.index) if card.__class__ is Card else (kind, seat, card)
    record = _CARD_RECORDS.get(key)
    if record is None:
        record = _CARD_RECORDS[key] = new_record(kind, seat, cards=(card,))
    return record


PLAYER_VERBS = ("select", "check", "call", "bet", "raise", "fold", "allin")
# One letter per verb in the compact action strings saved with a game.
# One letter per betting verb in the compact actions of the saved state, the same in every variant.
BET_LETTERS = {"check": "k", "call": "c", "bet": "b", "raise": "r", "fold": "f", "allin": "a"}
VERB_LETTERS = {"select": "s", **BET_LETTERS}
LETTER_VERBS = {letter: verb for verb, letter in VERB_LETTERS.items()}
