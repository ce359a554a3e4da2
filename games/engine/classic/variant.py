"""Classic Sabacc as a variant of the shared engine: its deck, its chance, options, presets and verbs.

`Game` plays it like any other variant (`Game.act(seat, verb, **args)`): the betting, side pots,
views, save/load, fair decks and replays are the shared ones; this module answers what differs.
A Classic hand's "dice" are a `RollSpec` when its deck is given (replays and tests); a seeded hand
rolls from its hand seed as it goes.
"""

import dataclasses
from collections.abc import Sequence
from typing import Any

from games.engine.classic import bots
from games.engine.classic import cards as classic_cards
from games.engine.classic.actions import LETTERS, PLAY_VERBS, SABACC_POT, VERB_ARGS, VERB_OF, VERBS
from games.engine.classic.chance import RollSpec
from games.engine.classic.dice import check_roll
from games.engine.classic.hand import ClassicHand
from games.engine.classic.options import PRESET_VALUES, ClassicOptions
from games.engine.classic.order import complete_pile, deck_label
from games.engine.errors import EngineError, IllegalAction, ReplayError
from games.engine.forced import Levels
from games.engine.variant import Variant, replay_amount

# The keys of a replay hand and of each verb's action (besides player and do).
HAND_KEYS = {"deck", "dice", "reshuffles", "actions", "before", "commitment", "server_seed"}
# A raise is written with its new total, "to" (the engine's `amount`).
REPLAY_KEYS = {**VERB_ARGS, "raise": ("to", "call_hand")}


class Classic(Variant):
    name = "classic"
    hand_size = 2
    phases = ("play", "betting")
    verbs = VERBS
    verb_args = VERB_ARGS
    options_class = ClassicOptions
    hand_class = ClassicHand
    presets = PRESET_VALUES
    random_decision = staticmethod(bots.random_decision)
    sensible_decision = staticmethod(bots.sensible_decision)
    uses_reshuffles = True
    carry_to_last_player = False
    # No blinds: a tournament's level (`Game.set_levels`) sets the hand-pot ante; the Sabacc-pot ante stays.
    has_blinds = False

    def hand_options(self, options: Any, levels: Levels) -> Any:
        return options if options.ante == levels.ante else dataclasses.replace(options, ante=levels.ante)

    def deck(self) -> list:
        return classic_cards.full_deck()

    def parse_card(self, text: object) -> classic_cards.ClassicCard:
        return classic_cards.parse_card(text)

    def encode_cards(self, cards) -> str:
        return classic_cards.encode_cards(cards)

    def decode_cards(self, text: str) -> list:
        return classic_cards.decode_cards(text)

    def check_deck(self, cards: list) -> None:
        classic_cards.check_deck(cards)

    dice_recipe = (
        'rng = random.Random(s + "/dice"), then each roll as it falls due is two faces, each 1 + int(6 * rng.random())'
    )
    pile_recipe = (
        "new pile j (from 1; a Sabacc Shift or a reshuffle) is its cards in canonical order shuffled by "
        'random.Random(s + "/reshuffle/" + str(j)).shuffle'
    )

    def roll(self, seed: str, options: Any) -> None:
        # A seeded hand rolls from its own seed as each roll falls due (`chance.SeededChance`).
        return None

    def given_dice(self, deck_code: str, options: Any) -> RollSpec:
        return RollSpec()

    def encode_dice(self, dice: RollSpec) -> str:
        return dice.encode()

    def decode_dice(self, text: str) -> RollSpec:
        return RollSpec.decode(text)

    def encode_action(self, seat: int, verb: str, args: dict[str, Any]) -> str:
        return encode_action(seat, verb, args)

    def decode_action(self, text: str) -> tuple[int, str, dict[str, Any]]:
        return decode_action(text)

    def export_action(self, names: Sequence[str], seat: int, verb: str, args: dict[str, Any]) -> dict:
        action: dict = {"player": names[seat], "do": verb}
        for key in ("card", "unlock", "lock"):
            if args.get(key) is not None:
                action[key] = classic_cards.parse_card(args[key]).code
        if args.get("amount") is not None:
            action["to" if verb == "raise" else "amount"] = args["amount"]
        if args.get("call_hand") is True:
            action["call_hand"] = True
        return action

    # ----- replays (docs/replay.md, Classic Sabacc) -------------------------------------------------

    def replay_deck(self, number: int, listed: list, seed: Any) -> list:
        extra = classic_cards.over_listed(listed)
        if extra is not None:
            times = "twice" if extra.is_face else "once"
            raise EngineError(f"card {extra.code} is listed more often than the deck holds it ({times}).")
        return complete_pile(listed, classic_cards.full_deck(), _whole(seed), deck_label(number))

    def replay_chance(self, number: int, hand: dict, options: Any, seed: Any) -> RollSpec:
        unknown = sorted(set(hand) - HAND_KEYS)
        if unknown:
            raise ReplayError(
                f"unknown key {unknown[0]!r}; a classic hand has only {', '.join(sorted(HAND_KEYS - {'before'}))}."
            )
        listed = hand.get("dice", [])
        if not isinstance(listed, list):
            raise EngineError("dice must be a list of rolls, each two whole numbers from 1 to 6, like [[2, 5]].")
        rolls = []
        for index, value in enumerate(listed, start=1):
            try:
                rolls.append(check_roll(value))
            except ValueError as exc:
                raise EngineError(f"roll {index}: {exc}.") from None
        if options.shift_rolls == "off" and rolls:
            raise EngineError("shift_rolls is off, so the hand makes no rolls; leave dice out or empty.")
        return RollSpec(rolls=tuple(rolls), order_seed=_whole(seed))

    def replay_dice(self, number: int, hand: dict, options: Any) -> RollSpec:
        return self.replay_chance(number, hand, options, 0)

    def dice_document(self, dice: RollSpec) -> list:
        return [list(roll) for roll in dice.rolls or ()]

    def replay_args(self, verb: str, action: dict) -> dict[str, Any]:
        allowed = {"player", "do", *REPLAY_KEYS.get(verb, ())}
        unknown = sorted(set(action) - allowed)
        if unknown:
            keys = ", ".join(REPLAY_KEYS.get(verb, ())) or "no other keys"
            raise IllegalAction(f"unknown key {unknown[0]!r}; {verb} takes {keys}.")
        args: dict[str, Any] = {}
        for key in ("card", "unlock", "lock"):
            if key in action:
                args[key] = action[key]
        if verb == "trade" and "card" not in action:
            raise IllegalAction('trade needs "card", the card of the hand to put on the discard pile.')
        if verb in ("bet", "raise"):
            args["amount"] = replay_amount(verb, action)
        if "call_hand" in action:
            if action["call_hand"] is not True:
                raise IllegalAction(f"call_hand is true or left out; got {action['call_hand']!r}.")
            args["call_hand"] = True
        return args

    def use_seed(self, hand: Any, seed: str) -> None:
        hand.use_seed(seed)

    def seed_problems(self, hand: Any, listed: dict, seed: str) -> list[str]:
        if [list(roll) for roll in hand.rolls] != listed.get("dice"):
            return ["the rolls listed are not the ones its seed makes."]
        return []

    def replay_leftovers(self, hand: Any) -> str | None:
        chance = hand.chance
        if getattr(chance, "rolls", None) is not None and chance.used < len(chance.rolls):
            left = len(chance.rolls) - chance.used
            return f"dice: {left} roll{'s' if left > 1 else ''} left unused; the hand made {chance.used}."
        return None

    def hand_record(self, hand: Any) -> dict:
        # Every roll of the hand, for exports (a seeded hand's rolls follow from its seed, but how many were
        # made follows only from the play).
        return {"k": "".join(f"{a}{b}" for a, b in hand.rolls)}

    def export_hand(self, document: dict, record: dict, hand: Any) -> None:
        if hand is not None:
            rolls = [list(roll) for roll in hand.rolls]
            document["reshuffles"] = [classic_cards.codes(pile) for pile in hand.reshuffled]
        else:
            text = record.get("k", "")
            rolls = [[int(text[i]), int(text[i + 1])] for i in range(0, len(text), 2)]
        document["dice"] = rolls

    def result_extra(self, game: Any) -> dict:
        hand = game.hand
        if hand is not None and not hand.is_complete:
            return {"sabacc_pot": hand.sabacc_pot}
        return {"sabacc_pot": game.pools.get(SABACC_POT, 0)}


def _whole(seed: Any) -> int:
    """The document's seed as the whole number the seeded order uses (a text seed is read as a number)."""
    try:
        return int(seed)
    except (TypeError, ValueError):
        raise EngineError(f"seed must be a whole number for a classic replay; got {seed!r}.") from None


def encode_action(seat: int, verb: str, args: dict[str, Any]) -> str:
    """A decision as the saved state keeps it: seat, verb letter, then for a play turn three card characters
    (traded, unlocked, locked; `-` for none) and for a bet its amount; `!` marks a call of the hand."""
    if verb in PLAY_VERBS:
        chars = [
            "-" if args.get(key) is None else classic_cards.encode_cards([classic_cards.parse_card(args[key])])
            for key in ("card", "unlock", "lock")
        ]
        return f"{seat}{LETTERS[verb]}{''.join(chars)}"
    amount = args.get("amount")
    text = f"{seat}{LETTERS[verb]}{'' if amount is None else amount}"
    return text + ("!" if args.get("call_hand") is True else "")


def decode_action(text: str) -> tuple[int, str, dict[str, Any]]:
    seat, verb, rest = int(text[0]), VERB_OF[text[1]], text[2:]
    if verb in PLAY_VERBS:
        args = {}
        for key, char in zip(("card", "unlock", "lock"), rest, strict=True):
            if char != "-":
                args[key] = classic_cards.decode_cards(char)[0]
        return seat, verb, args
    args: dict[str, Any] = {}
    if rest.endswith("!"):
        args["call_hand"] = True
        rest = rest[:-1]
    if rest:
        args["amount"] = int(rest)
    return seat, verb, args


CLASSIC = Classic()
