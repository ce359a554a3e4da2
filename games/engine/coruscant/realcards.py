"""Coruscant Shift at a table with real cards (docs/engine.md, "Real cards"): what the site asks for.

Players keep their cards; the table enters only how many cards each player keeps in the select and improve
phases (the shift deals the rest), the dice when they are rolled, and at the reveal the selections shown.
"""

from typing import Any

from games.engine.coruscant.dice import dice_from_seed, parse_dice
from games.engine.errors import InvalidSelection
from games.engine.realcards.tables import TableBase
from games.engine.ties import split

BET_VERBS = ("check", "call", "bet", "raise", "fold", "allin")


class CoruscantTable(TableBase):
    naming = "all"  # the table may name every pot's winners instead of showing
    has_sabacc_pot = False
    step_args = {"select": ("count",), "bet": ("amount",), "raise": ("amount",)}
    deal_words = "deal five cards each, one at a time, clockwise from the dealer's left"
    dice_words = "roll the gold and silver dice (the target number and the target suit)"
    read_dice = staticmethod(parse_dice)
    dice_from_seed = staticmethod(dice_from_seed)

    def roller(self, hand: Any) -> int:
        """Who rolls: the dealer, or the player on the dealer's left (option `roller`, the Halcyon habit)."""
        return hand.seats[0] if hand.options.roller == "left_of_dealer" else hand.dealer

    def dice_document(self, dice: Any) -> dict:
        return dice.to_dict()

    def held(self, hand: Any, seat: int) -> list:
        return list(hand._selection.get(seat, ()))

    def translate(self, hand: Any, seat: int, verb: str, args: dict) -> dict:
        if verb == "select":
            count = args.get("count")
            held = hand._cards.get(seat, [])
            if type(count) is not int or not 0 <= count <= len(held):
                most = len(held)
                raise InvalidSelection(f"count is how many cards the player keeps, 0 to {most}; got {count!r}.")
            return {"cards": list(held[:count])}
        if verb in ("bet", "raise"):
            return {"amount": args.get("amount")}
        return {}

    def choices(self, hand: Any, seat: int, legal: Any) -> dict:
        if legal.can_select:
            held = len(hand._cards.get(seat, ()))
            words = "how many cards they keep" if hand.phase == "select" else "how many new cards they add"
            return {"verbs": ["select"], "count": [0, held], "says": f"enter {words} (0 to {held})"}
        data = legal.to_dict()
        data.pop("selectable", None)
        return data

    def settle(self, hand: Any, named: dict) -> None:
        """Pay each pot to the winners the table named, split as a tie is (the hand's own payment and end)."""
        for index, pot in enumerate(hand.pots()):
            winners = hand._from_left(named[index])
            paid, odd = split(pot.amount, winners, hand.odd_credits)
            hand.carry_out += odd
            hand._pay(pot, winners, paid, None)
        hand._end()
