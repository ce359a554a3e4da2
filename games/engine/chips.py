"""Chip sets (RULES 1.6): stacks are kept in credits; chips are only a way to show them."""

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, slots=True)
class Chip:
    name: str
    value: int


# The default set (seed 000), largest first.
STANDARD = (
    Chip("beskar ingot", 1000),
    Chip("doodad", 500),
    Chip("gem", 200),
    Chip("gold", 100),
    Chip("silver", 50),
    Chip("bronze", 5),
)
# Simple chips: every chip is one credit (the Halcyon way).
SIMPLE = (Chip("chip", 1),)
CHIP_SETS = {"standard": STANDARD, "simple": SIMPLE}
# The default starting stake of the standard set: 10 bronze, 4 silver, 2 gold.
DEFAULT_STAKE = {"bronze": 10, "silver": 4, "gold": 2}


def value_of(counts: dict[str, int], chips: tuple[Chip, ...] = STANDARD) -> int:
    """Credits held in `counts` (chip name -> number of chips)."""
    values = {chip.name: chip.value for chip in chips}
    return sum(values[name] * number for name, number in counts.items())


def breakdown(credits: int, chips: tuple[Chip, ...] = STANDARD) -> dict:
    """Fewest chips for `credits`, largest denominations first; credits no chip can show stay `loose`."""
    counts, left = _breakdown(credits, chips)
    return {"chips": dict(counts), "loose": left}


class _Shown(dict):
    """One chip set's breakdowns by stack size (credits -> (chip counts, loose credits)), remembered: views show
    one for every seat on every decision, and stacks take few distinct sizes. The counts are a dict (name ->
    number) that callers copy, never change."""

    def __init__(self, chips: tuple[Chip, ...]) -> None:
        super().__init__()
        self.chips = chips

    def remember(self, credits: int) -> tuple[dict[str, int], int]:
        if len(self) >= 4096:
            self.clear()
        counts, left = _breakdown(credits, self.chips)
        shown = self[credits] = (dict(counts), left)
        return shown


_SHOWN = {name: _Shown(chips) for name, chips in CHIP_SETS.items()}


def chips_shown(chip_set: str) -> _Shown:
    """The remembered breakdowns of `chip_set` (`breakdown_in` for many stacks at once)."""
    return _SHOWN[chip_set]


def breakdown_in(credits: int, chip_set: str) -> dict:
    """`breakdown(credits, CHIP_SETS[chip_set])`, remembered per stack size: views show it for every seat."""
    shown = _SHOWN[chip_set]
    counts, left = shown.get(credits) or shown.remember(credits)
    return {"chips": counts.copy(), "loose": left}


@lru_cache(maxsize=4096)
def _breakdown(credits: int, chips: tuple[Chip, ...]) -> tuple[tuple[tuple[str, int], ...], int]:
    counts: dict[str, int] = {}
    left = credits
    for chip in sorted(chips, key=lambda c: c.value, reverse=True):
        number, left = divmod(left, chip.value)
        if number:
            counts[chip.name] = number
    return tuple(counts.items()), left
