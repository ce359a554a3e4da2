"""Classic Sabacc at a table with real cards (docs/engine.md, "Real cards"): what the site asks for.

Players keep their cards; the table enters each play turn as its verb with `unlock` and `lock` as yes or no
(which card is the player's business: only how many cards lie in the interference field matters to the
Shift), every roll when it falls due (or the site rolls it), each hand still in at the reveal (hand and field
together) and each Sudden Demise card. The engine does not announce two-card totals: at a real table the
players declare their own.
"""

import dataclasses
from typing import Any

from games.engine.classic import actions
from games.engine.classic.actions import TAKEN
from games.engine.classic.dice import check_roll
from games.engine.errors import InvalidSelection
from games.engine.realcards.tables import TableBase
from games.engine.realcards.unknown import UNKNOWN_INDEX
from games.engine.twister import Twister

# A play turn writes its cards into the hand's compact actions by their index (`plays._char`); an unknown card
# has none of the 68 kinds, so it is written "?" (a real-cards game keeps its steps, not those actions).
actions._CHARS.update({UNKNOWN_INDEX + slot: "?" for slot in range(80)})


class TableChance:
    """A real-cards hand's chance: the rolls entered so far (None when the next is not rolled yet: the hand
    waits), and new piles in any order (nobody knows their cards)."""

    listed = True

    def __init__(self, rolls: list) -> None:
        self.rolls = list(rolls)
        self.used = 0

    def next_roll(self) -> Any:
        if self.used >= len(self.rolls):
            return None
        self.used += 1
        return self.rolls[self.used - 1]

    def new_pile(self, pool: list, number: int, what: str) -> list:
        return list(pool)


class ClassicTable(TableBase):
    # Pots need the cards (bombing out, penalties); only a lone player after folds may decline to show.
    naming = "after_folds"
    has_sabacc_pot = True
    step_args = {
        "draw": ("unlock", "lock"),
        "trade": ("unlock", "lock"),
        "stand": ("unlock", "lock"),
        "check": ("call_hand",),
        "call": ("call_hand",),
        "bet": ("amount", "call_hand"),
        "raise": ("amount", "call_hand"),
        "fold": (),
        "allin": ("call_hand",),
    }
    deal_words = "deal two cards each, face down, one at a time from the dealer's left"
    dice_words = "roll the two dice (a pair sets off a Sabacc Shift)"
    read_dice = staticmethod(check_roll)

    def dice_document(self, dice: Any) -> list[int]:
        return list(dice)

    def site_dice(self, seed: str, options: Any, count: int) -> Any:
        # The hand's rolls from its seed in order (docs/rules.md, Classic fair decks): roll `count` is the next.
        draw = Twister(f"{seed}/dice").random
        roll = None
        for _ in range(count + 1):
            roll = (1 + int(6 * draw()), 1 + int(6 * draw()))
        return roll

    def real_options(self, options: Any) -> Any:
        return dataclasses.replace(options, declare_totals=False) if options.declare_totals else options

    def after_start(self, hand: Any, game: Any) -> None:
        hand.chance = TableChance(game.entered_dice())

    def dice_due(self, hand: Any) -> bool:
        return bool(hand.stalled)

    def resume(self, hand: Any, roll: Any) -> None:
        """The roll the paused hand waits for: it goes on from where it stopped (the hand's own `_advance`)."""
        hand.chance.rolls.append(roll)
        hand.stalled = False
        hand._advance()

    def held(self, hand: Any, seat: int) -> list:
        return list(hand._hand.get(seat, ())) + list(hand._field.get(seat, ()))

    def translate(self, hand: Any, seat: int, verb: str, args: dict) -> dict:
        if verb in ("draw", "trade", "stand"):
            for key in ("unlock", "lock"):
                if args.get(key) not in (None, True, False):
                    raise InvalidSelection(f"{key} is true or false at a real table (which card is yours to say).")
            hand_cards, field = list(hand._hand.get(seat, ())), list(hand._field.get(seat, ()))
            out: dict = {}
            if args.get("unlock"):
                out["unlock"] = field[0] if field else None
                hand_cards.append(field[0]) if field else None
            if verb == "trade":
                out["card"] = hand_cards[0] if hand_cards else None
                hand_cards = hand_cards[1:]
            if args.get("lock"):
                out["lock"] = TAKEN if verb != "stand" else (hand_cards[0] if hand_cards else None)
            return out
        out = {k: args[k] for k in ("amount", "call_hand") if k in args}
        return out

    def choices(self, hand: Any, seat: int, legal: Any) -> dict:
        data = legal.to_dict()
        for key in ("tradeable", "lockable", "unlockable"):
            if key in data:
                data[f"{key}_count"] = len(data.pop(key))
        return data

    def settle(self, hand: Any, named: dict) -> None:
        """A lone player after folds who does not show: the pots are paid; the Sabacc pot stays where it is."""
        hand._pay_sabacc_pot([])
        hand._end()
