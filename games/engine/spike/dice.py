"""The two spike dice (RULES 2.1, Ruling 2.1.2): two faces from 1 to 6; they match when equal."""

import random
from dataclasses import dataclass

from games.engine.draws import randint
from games.engine.errors import EngineError
from games.engine.records import slotted_builder
from games.engine.shuffle import seeded

FACES = range(1, 7)


@dataclass(frozen=True, slots=True)
class SpikeDice:
    first: int
    second: int

    @property
    def match(self) -> bool:
        return self.first == self.second

    def to_list(self) -> list[int]:
        return [self.first, self.second]


_new_dice = slotted_builder(SpikeDice)


def roll(rng: random.Random) -> SpikeDice:
    return _new_dice(randint(rng, 1, 6), randint(rng, 1, 6))


def dice_from_seed(seed: str) -> SpikeDice:
    """The spike dice of a hand from its hand seed (docs/rules.md, fair decks)."""
    return roll(seeded(f"{seed}/spike-dice"))


def parse_spike_dice(data: object) -> SpikeDice:
    """Read `[a, b]`, two whole numbers from 1 to 6."""
    if not isinstance(data, list) or len(data) != 2 or any(type(face) is not int or face not in FACES for face in data):
        raise EngineError(f"the spike dice are two whole numbers from 1 to 6, like [5, 5]; got {data!r}.")
    return SpikeDice(data[0], data[1])


def encode(dice: SpikeDice) -> str:
    return f"{dice.first}{dice.second}"


def decode(text: str) -> SpikeDice:
    return SpikeDice(int(text[0]), int(text[1]))
