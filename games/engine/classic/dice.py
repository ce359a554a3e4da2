"""Two six-sided dice (RULES 3.1): a roll whose faces match is a pair and sets off a Sabacc Shift."""

import random

from games.engine.twister import Twister

Roll = tuple[int, int]


def is_pair(roll: Roll) -> bool:
    return roll[0] == roll[1]


def roll_dice(rng: random.Random | Twister) -> Roll:
    """Two faces from `rng` (each `1 + int(6 * rng.random())`: uniform, and cheaper than `randint`): a hand's seeded
    `Twister`, or a `random.Random` (the same draws from the same seed text)."""
    draw = rng.random
    return (1 + int(6 * draw()), 1 + int(6 * draw()))


def check_roll(value: object) -> Roll:
    """A roll as a replay writes it (`[3, 5]`); raise ValueError with the reason otherwise."""
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or any(type(face) is not int or not 1 <= face <= 6 for face in value)
    ):
        raise ValueError(f"a roll is two whole numbers from 1 to 6, like [3, 5]; got {value!r}")
    return (value[0], value[1])
