"""What a Classic hand's seats may do and how it is written down: the verbs, their arguments and one letter
each for the saved state, the legal actions of a seat (`ClassicLegal`), and the frozen records made once.
"""

from dataclasses import dataclass, fields

import cython

from games.engine.betting import LegalActions
from games.engine.classic.cards import KINDS, ClassicCard, encode_cards, full_deck
from games.engine.records import BET_LETTERS, Record, card_record, new_record

SABACC_POT = "sabacc"  # the name of the Sabacc pot among the game's pools
PLAY_VERBS = ("draw", "trade", "stand")
BET_VERBS = ("check", "call", "bet", "raise", "fold", "allin")
VERBS = PLAY_VERBS + BET_VERBS
# The keyword arguments of each verb in `Game.act` (a raise's `amount` is the new round total).
VERB_ARGS = {
    "draw": ("unlock", "lock"),
    "trade": ("card", "unlock", "lock"),
    "stand": ("unlock", "lock"),
    "check": ("call_hand",),
    "call": ("call_hand",),
    "bet": ("amount", "call_hand"),
    "raise": ("amount", "call_hand"),
    "fold": ("call_hand",),
    "allin": ("call_hand",),
}
# One letter per verb in the compact actions of the saved state.
LETTERS = {"draw": "d", "trade": "t", "stand": "n", **BET_LETTERS}
VERB_OF = {letter: verb for verb, letter in LETTERS.items()}
# Records whose cards only their own seat may see (the rest of the log is public).
PRIVATE_KINDS = frozenset({"deal", "draw", "trade", "shift"})
# `lock=TAKEN` on a draw or trade locks the card the play takes (Ruling 3.2.9) without naming it: a player
# cannot name a card they have not seen, and the engine's answer to a named one would tell the pile's top.
TAKEN = "taken"


def names_taken(lock: object) -> bool:
    """Whether a play's `lock` is `TAKEN` (any case, spaces around ignored)."""
    return isinstance(lock, str) and lock.strip().lower() == TAKEN


@dataclass(frozen=True)
class ClassicLegal(LegalActions):
    """`LegalActions` with a play turn's choices and the call of the hand.

    On a play turn: `can_draw`/`can_trade`/`can_stand`, the cards that may be traded or locked (after the
    optional unlock, `lockable` before the play) and unlocked. On a betting turn: `can_call_hand`.
    """

    can_draw: bool = False
    can_trade: bool = False
    can_stand: bool = False
    tradeable: tuple[str, ...] = ()
    lockable: tuple[str, ...] = ()
    unlockable: tuple[str, ...] = ()
    can_call_hand: bool = False

    def _play_verbs(self) -> list[str]:
        values = self.__dict__  # every field is there (`LegalActions._verb_list`)
        verbs = []
        if values["can_draw"]:
            verbs.append("draw")
        if values["can_trade"]:
            verbs.append("trade")
        if values["can_stand"]:
            verbs.append("stand")
        return verbs

    def _verb_list(self) -> list[str]:
        return self._play_verbs() + LegalActions._verb_list(self)

    def to_dict(self) -> dict:
        values = self.__dict__  # as in `_play_verbs`
        if (
            values["can_stand"]
            and not (
                values["can_fold"]
                or values["can_check"]
                or values["can_call"]
                or values["can_all_in"]
                or values["can_bet"]
                or values["can_raise"]
            )
            and not values["can_select"]
        ):
            # A play turn (no betting verb): `LegalActions.to_dict` would add nothing but the seat and the phase.
            data = {"seat": values["seat"], "phase": values["phase"], "verbs": self._play_verbs()}
        else:
            data = LegalActions.to_dict(self)
        if values["can_stand"]:
            data["tradeable"] = list(values["tradeable"])
            data["lockable"] = list(values["lockable"])
            data["unlockable"] = list(values["unlockable"])
        if values["can_call_hand"]:
            data["can_call_hand"] = True
        return data


# Every field of a `ClassicLegal` at its default: `legal_from(ClassicLegal, {**CLASSIC_LEGAL_DEFAULTS, ...})`.
CLASSIC_LEGAL_DEFAULTS = {f.name: f.default for f in fields(ClassicLegal)}

# Records are frozen, so the few possible records of a roll ("3-5") and of a round's opening are made once.
_DICE_RECORDS = {(a, b): new_record("dice", note=f"{a}-{b}") for a in range(1, 7) for b in range(1, 7)}
_ROUND_RECORDS: dict[tuple[int, str], Record] = {}
# Each card's one character in the compact actions.
_CHARS = {card.index: encode_cards([card]) for card in full_deck()}
# The records of a card dealt or shifted to a seat are frozen, so each is made once: kept at `seat * 68 + card index`
# in a list per kind (a deal and every Shift make a record per card; no key tuple, no hashing).
_DEAL_RECORDS: list[Record | None] = []
_SHIFT_RECORDS: list[Record | None] = []


@cython.locals(at=cython.Py_ssize_t)
def _card_record(kind: str, seat: int, card: ClassicCard) -> Record:
    """`card_record(kind, seat, card)` for `deal` and `shift`, made once per seat and card kind."""
    table = _SHIFT_RECORDS if kind == "shift" else _DEAL_RECORDS
    at = seat * len(KINDS) + card.index
    if at >= len(table):
        table.extend([None] * (at + 1 - len(table)))
    record = table[at]
    if record is None:
        record = table[at] = card_record(kind, seat, card)
    return record


_SEAT_RECORDS: dict[tuple[str, int, int | None], Record] = {}


def _seat_record(kind: str, seat: int, amount: int | None) -> Record:
    """`new_record(kind, seat, amount)`, made once for the few that repeat (antes, stands)."""
    key = (kind, seat, amount)
    record = _SEAT_RECORDS.get(key)
    if record is None:
        if len(_SEAT_RECORDS) >= 4096:
            _SEAT_RECORDS.clear()
        record = _SEAT_RECORDS[key] = new_record(kind, seat, amount)
    return record


def _round_record(number: int, note: str) -> Record:
    record = _ROUND_RECORDS.get((number, note))
    if record is None:
        record = _ROUND_RECORDS[(number, note)] = new_record("round", amount=number, note=note)
    return record


def _canonical(cards: list[ClassicCard]) -> list[ClassicCard]:
    return sorted(cards, key=lambda c: c.index)
