"""Coruscant Shift (RULES section 1): the 62-card deck, five-card hands, select/bet/improve/bet phases."""

from collections.abc import Sequence

from games.engine.cards import Card, full_deck
from games.engine.dice import Dice
from games.engine.evaluation import Score, score
from games.engine.hand import Hand
from games.engine.options import CoruscantShiftOptions
from games.engine.variant import Variant, register


class CoruscantShift(Variant):
    name = "coruscant_shift"
    hand_size = 5
    phases = ("select", "betting_1", "improve", "betting_2")
    options_class = CoruscantShiftOptions
    hand_class = Hand

    def deck(self) -> list[Card]:
        return full_deck()

    def evaluate(self, selection: Sequence[Card], dice: Dice) -> Score:
        return score(selection, dice.number, dice.suit_letter)


CORUSCANT_SHIFT = register(CoruscantShift())
