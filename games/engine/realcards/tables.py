"""How a variant plays at a real table, and the variant as a real-cards game runs it.

Each variant package registers one *table* object (`register_table`, from `games/engine/variants.py`): the
few things only the variant knows about a table that keeps its own cards. It is duck-typed (the core never
imports a variant package):

- `deal_words`: what the dealer does to start a hand ("deal five cards each ...");
- `dice_words`: what rolling means in this variant, or None when it never rolls; `roller(hand)` (optional):
  who rolls, when not the dealer;
- `parse_dice(data)` / `dice_document(dice)` / `site_dice(seed, options, count)`: an entered roll, as
  documents write it, and the site's fair roll number `count` (from 0) of a hand from its hand seed (`TableBase`
  answers the first and the last from the variant's `read_dice` and `dice_from_seed`);
- `real_options(options)`: the options a real-cards hand runs with (e.g. no announced totals: the site
  cannot know them);
- `after_start(hand, game)`: anything the hand needs once dealt (Classic: where its rolls come from);
- `dice_due(hand)`: whether a hand that does not read dice objects waits for a roll (Classic), and `resume(hand,
  roll)` (optional): give it the roll so it goes on in place, instead of a new run of the hand;
- `held(hand, seat)`: the cards a seat shows at the reveal;
- `step_args`: verb -> the names an `act` step may carry besides seat and verb (none: no others);
- `translate(hand, seat, verb, args)`: a table's step (counts and sources, no card names) as the hand's
  `act` arguments (naming the unknown cards the step moves);
- `choices(hand, seat, legal)`: the legal choices of the seat in words a table can enter;
- `naming` (`"all"`, `"after_folds"` or absent), `has_sabacc_pot` and `settle(hand, named)`: whether and how
  the winners a table names are paid instead of shown cards (`winners.py`).
"""

from typing import Any

from games.engine.errors import EngineError, InvalidSelection
from games.engine.realcards.unknown import UNKNOWN_DICE, unknown_deck
from games.engine.variant import Variant

_TABLES: dict[str, Any] = {}


class TableBase:
    """What most variants' tables answer alike: the hand runs with the game's options, needs nothing once dealt,
    and reads its dice as objects (a variant's table overrides what differs)."""

    # The variant's reader of an entered roll (raising EngineError or ValueError with the reason) and its one fair
    # roll of a hand from the hand seed, each a `staticmethod`.
    read_dice: Any = None
    dice_from_seed: Any = None

    def parse_dice(self, data: object) -> Any:
        """An entered roll, read by the variant; a roll it refuses is the table's `InvalidSelection`."""
        try:
            return self.read_dice(data)
        except (EngineError, ValueError) as exc:
            raise InvalidSelection(str(exc)) from None

    def site_dice(self, seed: str, options: Any, count: int) -> Any:
        return self.dice_from_seed(seed)

    def real_options(self, options: Any) -> Any:
        return options

    def after_start(self, hand: Any, game: Any) -> None:
        return None

    def dice_due(self, hand: Any) -> bool:
        return False


def register_table(name: str, table: Any) -> None:
    """Register how the variant `name` is played with real cards."""
    _TABLES[name] = table


def table_for(name: str) -> Any:
    return _TABLES[name]


def table_variant(base: Variant, game: Any) -> Variant:
    """`base` as a real-cards game runs it: the same class (so every hand, betting and pot rule is the variant's
    own), with a deck of unknown cards (those shown already in place), dice from the table's entries, and
    nothing encoded for a saved state (the real-cards game keeps its steps instead). One per real-cards game: its
    copies of the engine's game share it, and a copy of the whole real-cards game gets its own."""
    cls = type(base)
    real = _REAL_CLASSES.get(cls)
    if real is None:
        real = _REAL_CLASSES[cls] = type(f"RealCards{cls.__name__}", (cls,), dict(_OVERRIDES))
    variant = real.__new__(real)
    variant.__dict__.update(getattr(base, "__dict__", {}))
    variant._base = base
    variant._game = game
    deck = base.deck()
    variant._card_class = type(deck[0])
    variant._size = len(deck)
    return variant


def _deck(self) -> list:
    game = self._game
    deck = list(unknown_deck(self._card_class, self._size))
    for slot, card in game.board().items():
        deck[slot] = card
    return deck


def _roll(self, seed: str, options: Any) -> Any:
    rolled = self._base.roll(seed, options)
    if rolled is None:
        return None
    entered = self._game.entered_dice()
    return entered[0] if entered else UNKNOWN_DICE


def _hand_options(self, options: Any, levels: Any) -> Any:
    return self._game.table.real_options(self._base.hand_options(options, levels))


def _nothing(self, *args: Any) -> str:
    return ""


_OVERRIDES = {
    "deck": _deck,
    "roll": _roll,
    "hand_options": _hand_options,
    "encode_action": _nothing,
    "encode_cards": _nothing,
    "encode_dice": _nothing,
}
_REAL_CLASSES: dict[type, type] = {}
