"""The two Coruscant Shift dice: the gold die gives the target, the silver die the target suit."""

import random
from dataclasses import dataclass

from games.engine.cards import SUIT_LETTERS, SUIT_NAMES
from games.engine.draws import choice
from games.engine.errors import EngineError
from games.engine.records import slotted_builder
from games.engine.shuffle import seeded

GOLD_FACES = (0, 0, 5, -5, 10, -10)
SILVER_FACES = ("circle", "triangle", "square")


@dataclass(frozen=True, slots=True)
class Dice:
    """A roll: `number` is the target, `suit` the target suit's name (circle, square, triangle)."""

    number: int
    suit: str

    @property
    def suit_letter(self) -> str:
        return SUIT_LETTERS[self.suit]

    def to_dict(self) -> dict:
        return {"number": self.number, "suit": self.suit}


_new_dice = slotted_builder(Dice)


def roll(rng: random.Random) -> Dice:
    return _new_dice(choice(rng, GOLD_FACES), choice(rng, SILVER_FACES))


def parse_dice(data: object) -> Dice:
    """Read `{"number": -5, "suit": "circle"}` (the suit may also be a letter c, s or t)."""
    if not isinstance(data, dict):
        raise EngineError('Dice must be an object like {"number": -5, "suit": "circle"}.')
    number = data.get("number")
    suit = data.get("suit")
    # Type first: a list or dict would not even hash, and 5.0 is no face (it could not be saved back).
    if type(number) is not int or number not in GOLD_FACES:
        raise EngineError(f"Dice number {number!r} is not a face of the gold die; faces are 0, 5, -5, 10, -10.")
    name = suit.strip().lower() if isinstance(suit, str) else None
    name = SUIT_NAMES.get(name, name)
    if name not in SILVER_FACES:
        raise EngineError(f"Dice suit {suit!r} is not a face of the silver die; faces are circle, triangle, square.")
    return Dice(number=number, suit=name)


def encode_dice(dice: Dice) -> str:
    return f"{dice.number}{dice.suit_letter}"


def decode_dice(text: str) -> Dice:
    return Dice(number=int(text[:-1]), suit=SUIT_NAMES[text[-1]])


def dice_from_seed(seed: str) -> Dice:
    """The dice of a hand from its hand seed (fair decks: `random.Random(s + "/dice")`)."""
    return roll(seeded(f"{seed}/dice"))
