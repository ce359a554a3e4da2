"""Corellian Spike at a table with real cards (docs/engine.md, "Real cards"): what the site asks for.

Players keep their cards; the table enters each card turn by its verb and source (`{"verb": "trade",
"source": "pilot"}`: the price is the engine's), the spike dice when round 3 opens (or the site rolls them),
and at the reveal each hand still in. A player left alone after folds shows their hand too: the engine pays
them the Sabacc pot only when it totals zero (Ruling 2.4.3).
"""

from typing import Any

from games.engine.realcards.tables import TableBase
from games.engine.spike.dice import dice_from_seed, parse_spike_dice
from games.engine.ties import split


class SpikeTable(TableBase):
    naming = "all"  # the table may name every pot's winners instead of showing
    has_sabacc_pot = True
    step_args = {"trade": ("source",), "buy": ("source",), "bet": ("amount",), "raise": ("amount",)}
    deal_words = "deal two cards each, one at a time from the dealer's left, then turn up the next card"
    dice_words = "roll the two spike dice"
    read_dice = staticmethod(parse_spike_dice)
    dice_from_seed = staticmethod(dice_from_seed)

    def dice_document(self, dice: Any) -> list[int]:
        return dice.to_list()

    def held(self, hand: Any, seat: int) -> list:
        return list(hand._cards.get(seat, ()))

    def translate(self, hand: Any, seat: int, verb: str, args: dict) -> dict:
        held = hand._cards.get(seat) or [None]
        if verb == "trade":
            return {"card": held[0], "source": args.get("source")}
        if verb == "buy":
            return {"source": args.get("source")}
        if verb == "spike":
            return {"card": held[0]}
        if verb in ("bet", "raise"):
            return {"amount": args.get("amount")}
        return {}

    def choices(self, hand: Any, seat: int, legal: Any) -> dict:
        data = legal.to_dict()
        data.pop("cards", None)  # the seat's own cards: unknown to the site
        return data

    def settle(self, hand: Any, named: dict) -> None:
        """Pay each pot to the winners the table named (split as a tie is), then the Sabacc pot to the named main
        pot winners holding a Sabacc (none: it stays); after a fold-out the pots are paid already."""
        if not hand.awards:
            for index, pot in enumerate(hand.pots()):
                winners = hand._from_left(named[index])
                paid, odd = split(pot.amount, winners, hand.odd_credits)
                hand.carry_out += odd
                hand._pay(pot, winners, paid)
        hand._pay_sabacc_pot(hand._from_left(named.get("sabacc", [])))
        hand._end()
