"""Corellian Spike as a plug-in of the shared engine (docs/engine.md): deck, dice, options, hand, replays."""

import dataclasses
from collections.abc import Sequence
from typing import Any

from games.engine.cards import decode_cards, encode_cards, parse_card
from games.engine.errors import IllegalAction, ReplayError
from games.engine.forced import Levels
from games.engine.records import BET_LETTERS
from games.engine.spike import bots
from games.engine.spike import dice as spike_dice
from games.engine.spike.dice import SpikeDice, parse_spike_dice
from games.engine.spike.hand import SpikeHand
from games.engine.spike.options import PRESET_VALUES, CorellianSpikeOptions
from games.engine.variant import Variant, replay_amount

# One letter per verb in the compact actions of the saved state, and one per source of a card.
LETTERS = {"stand": "S", "draw": "D", "trade": "T", "buy": "B", "spike": "P", **BET_LETTERS}
VERBS_BY_LETTER = {letter: verb for verb, letter in LETTERS.items()}
SOURCES = {"deck": "d", "pilot": "p", "wing": "w", "gunner": "g", "discard": "x"}
SOURCES_BY_LETTER = {letter: source for source, letter in SOURCES.items()}


class CorellianSpike(Variant):
    name = "corellian_spike"
    hand_size = 2
    phases = ("cards_1", "betting_1", "cards_2", "betting_2", "spike", "cards_3", "betting_3")
    verbs = ("stand", "draw", "trade", "buy", "spike", "check", "call", "bet", "raise", "fold", "allin")
    verb_args = {
        "trade": ("card", "source"),
        "buy": ("source",),
        "spike": ("card",),
        "bet": ("amount",),
        "raise": ("amount",),
    }
    options_class = CorellianSpikeOptions
    hand_class = SpikeHand
    presets = PRESET_VALUES
    sensible_decision = staticmethod(bots.decide)
    uses_reshuffles = False
    replay_needs_dealer = True
    replay_min_stack = True
    # Ruling 2.6.1: the carry-over and the Sabacc pot stay where they are when the game ends.
    carry_to_last_player = False
    # No blinds: a tournament's level (`Game.set_levels`) sets the hand-pot ante; the Sabacc-pot ante stays.
    has_blinds = False

    def hand_options(self, options: Any, levels: Levels) -> Any:
        return options if options.ante == levels.ante else dataclasses.replace(options, ante=levels.ante)

    dice_recipe = 'with spike_dice on: rng = random.Random(s + "/spike-dice"), then rng.randint(1, 6) twice'
    pile_recipe = "none: the draw pile never runs out (Ruling 2.1.3), so nothing is reshuffled"

    def fair_recipe(self, options: Any) -> dict[str, Any]:
        recipe = super().fair_recipe(options)
        if options is not None and not options.spike_dice:
            recipe["dice"] = "none: this table plays without spike dice"
        return recipe

    def roll(self, seed: str, options: Any) -> SpikeDice | None:
        return spike_dice.dice_from_seed(seed) if options.spike_dice else None

    def given_dice(self, deck_code: str, options: Any) -> None:
        # A given deck without dice has none: a hand reaching round 3 then says it needs them.
        return None

    def encode_dice(self, dice: SpikeDice) -> str:
        return spike_dice.encode(dice)

    def decode_dice(self, text: str) -> SpikeDice:
        return spike_dice.decode(text)

    def encode_action(self, seat: int, verb: str, args: dict[str, Any]) -> str:
        text = f"{seat}{LETTERS[verb]}"
        if verb in ("trade", "buy"):
            text += SOURCES[args["source"]]
        if verb in ("trade", "spike"):
            text += encode_cards([parse_card(args["card"])])
        if verb in ("bet", "raise"):
            text += str(args["amount"])
        return text

    def decode_action(self, text: str) -> tuple[int, str, dict[str, Any]]:
        seat, verb, rest = int(text[0]), VERBS_BY_LETTER[text[1]], text[2:]
        args: dict[str, Any] = {}
        if verb in ("trade", "buy"):
            args["source"], rest = SOURCES_BY_LETTER[rest[0]], rest[1:]
        if verb in ("trade", "spike"):
            args["card"] = decode_cards(rest)[0].code
        if verb in ("bet", "raise"):
            args["amount"] = int(rest)
        return seat, verb, args

    def replay_dice(self, number: int, hand: dict, options: Any) -> SpikeDice | None:
        if "dice" not in hand or hand["dice"] is None:
            return None
        if not options.spike_dice:
            raise ReplayError('"dice" are given but the spike dice are off (option spike_dice); leave them out.')
        return parse_spike_dice(hand["dice"])

    def dice_document(self, dice: SpikeDice) -> list[int]:
        return dice.to_list()

    def replay_args(self, verb: str, action: dict) -> dict[str, Any]:
        args: dict[str, Any] = {}
        if verb in ("trade", "spike"):
            if "card" not in action:
                raise IllegalAction(f'{verb} needs "card", a card code of the player\'s hand.')
            args["card"] = action["card"]
        if verb in ("trade", "buy"):
            if "from" not in action:
                raise IllegalAction(f'{verb} needs "from": deck, pilot, wing, gunner or discard.')
            args["source"] = action["from"]
        if verb in ("bet", "raise"):
            args["amount"] = replay_amount(verb, action)
        return args

    def export_action(self, names: Sequence[str], seat: int, verb: str, args: dict[str, Any]) -> dict:
        action: dict = {"player": names[seat], "do": verb}
        if "card" in args:
            action["card"] = args["card"]
        if "source" in args:
            action["from"] = args["source"]
        if verb == "bet":
            action["amount"] = args["amount"]
        elif verb == "raise":
            action["to"] = args["amount"]
        return action

    def result_extra(self, game: Any) -> dict:
        hand = game.hand
        if game.in_hand:
            return {"sabacc_pot": hand.sabacc_pot()}
        return {"sabacc_pot": game.pools.get("sabacc_pot", 0)}


CORELLIAN_SPIKE = CorellianSpike()
