"""Coruscant Shift (RULES section 1): the 62-card deck, five-card hands, select/bet/improve/bet phases."""

from collections.abc import Sequence
from typing import Any

from games.engine.cards import Card, codes, decode_cards, encode_cards
from games.engine.coruscant import bots
from games.engine.coruscant import dice as shift_dice
from games.engine.coruscant.dice import Dice
from games.engine.coruscant.evaluation import Score, score
from games.engine.coruscant.hand import Hand
from games.engine.coruscant.options import PRESET_VALUES, CoruscantShiftOptions, build_coruscant_options
from games.engine.errors import IllegalAction, ReplayError
from games.engine.records import LETTER_VERBS, VERB_LETTERS
from games.engine.variant import Variant, replay_amount


class CoruscantShift(Variant):
    name = "coruscant_shift"
    hand_size = 5
    phases = ("select", "betting_1", "improve", "betting_2")
    verbs = ("select", "check", "call", "bet", "raise", "fold", "allin")
    verb_args = {"select": ("cards",), "bet": ("amount",), "raise": ("amount",)}
    options_class = CoruscantShiftOptions
    hand_class = Hand
    presets = PRESET_VALUES
    sensible_decision = staticmethod(bots.decide)
    dice_recipe = (
        f'rng = random.Random(s + "/dice"), then rng.choice({shift_dice.GOLD_FACES!r}) for the gold die (the target) '
        f"and rng.choice({shift_dice.SILVER_FACES!r}) for the silver die (the target suit)"
    )

    def roll(self, seed: str, options: Any) -> Dice:
        return shift_dice.dice_from_seed(seed)

    def encode_dice(self, dice: Dice) -> str:
        return shift_dice.encode_dice(dice)

    def decode_dice(self, text: str) -> Dice:
        return shift_dice.decode_dice(text)

    def build_options(self, preset: str, overrides: dict | None = None) -> CoruscantShiftOptions:
        # The presets' forced bets follow the min bet and the big blind (RULES 1.5).
        return build_coruscant_options(preset, overrides)

    def evaluate(self, selection: Sequence[Card], dice: Dice) -> Score:
        return score(selection, dice.number, dice.suit_letter)

    def encode_action(self, seat: int, verb: str, args: dict[str, Any]) -> str:
        if verb == "select":
            return f"{seat}{VERB_LETTERS['select']}{encode_cards(args['cards'])}"
        amount = args.get("amount")
        arg = "" if amount is None or verb not in ("bet", "raise") else str(amount)
        return f"{seat}{VERB_LETTERS[verb]}{arg}"

    def decode_action(self, text: str) -> tuple[int, str, dict[str, Any]]:
        seat, verb, arg = int(text[0]), LETTER_VERBS[text[1]], text[2:]
        if verb == "select":
            return seat, verb, {"cards": decode_cards(arg)}
        if verb in ("bet", "raise"):
            return seat, verb, {"amount": int(arg)}
        return seat, verb, {}

    def replay_dice(self, number: int, hand: dict, options: Any) -> Dice:
        if "dice" not in hand:
            raise ReplayError('dice are missing; give them like {"number": -5, "suit": "circle"}.')
        return shift_dice.parse_dice(hand["dice"])

    def dice_document(self, dice: Dice) -> dict:
        return dice.to_dict()

    def replay_args(self, verb: str, action: dict) -> dict[str, Any]:
        if verb == "select":
            cards = action.get("cards")
            if not isinstance(cards, list):
                raise IllegalAction('select needs "cards", a list of card codes (possibly empty).')
            return {"cards": cards}
        if verb in ("bet", "raise"):
            return {"amount": replay_amount(verb, action)}
        return {}

    def export_action(self, names: Sequence[str], seat: int, verb: str, args: dict[str, Any]) -> dict:
        action: dict = {"player": names[seat], "do": verb}
        if verb == "select":
            action["cards"] = codes(args["cards"])
        elif verb == "bet":
            action["amount"] = args["amount"]
        elif verb == "raise":
            action["to"] = args["amount"]
        return action


CORUSCANT_SHIFT = CoruscantShift()
