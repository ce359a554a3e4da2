"""Corellian Spike options (RULES 2.5): one frozen keyword-only dataclass and the two presets."""

from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine.variant_options import PotAnteOptions, option_fields

CHOICES: dict[str, tuple[str, ...]] = {
    "min_raise": ("min_bet", "last_increment"),
    "market": ("galaxy", "discard_pile"),
    "odd_credits": ("left_of_dealer", "carry"),
    "end_rule": PotAnteOptions.END_RULES,
}
MINIMUMS = {**PotAnteOptions.MINIMUMS, "gain_cost": 0, "swap_cost": 0, "hands": 1}
OPTIONAL = {"max_bet", "hands"}
# Where the market's cards lie, in price order: the newest card is the Pilot.
POSITIONS = ("pilot", "wing", "gunner")


@dataclass(frozen=True, kw_only=True)
class CorellianSpikeOptions(PotAnteOptions):
    """Every rule setting of a Corellian Spike game (RULES 2.5); docs/rules.md describes each one (the ante, Sabacc
    ante and betting options first, from `PotAnteOptions`)."""

    ante: int = 2
    market: str = "galaxy"
    market_prices: tuple[int, int, int] = (1, 2, 3)
    gain_from_discard: bool = True
    gain_cost: int = 0
    swap_cost: int = 0
    spike_dice: bool = True
    odd_credits: str = "left_of_dealer"
    hands: int | None = None
    end_rule: str = "last_player"

    # Fixed by the variant (RULES 2.5, 2.6): read by the shared `Game`, not options a table can set.
    betting: ClassVar[str] = "no_limit"
    stay_cost: ClassVar[int] = 1
    escalation: ClassVar[str] = "none"
    small_blind: ClassVar[int] = 0
    big_blind: ClassVar[int] = 0
    tie_rule: ClassVar[str] = "split"

    CHOICES = CHOICES
    MINIMUMS = MINIMUMS
    OPTIONAL = OPTIONAL
    BOOLEANS = ("gain_from_discard", "spike_dice")

    def check_own(self) -> None:
        self.check_whole_numbers("market_prices", 3, "the prices of the Pilot, the Wing and the Gunner")


def option_names() -> tuple[str, ...]:
    return option_fields(CorellianSpikeOptions)


PRESET_VALUES: dict[str, dict[str, Any]] = {
    # seed 004: the Galaxy Series market of Pilot, Wing and Gunner at 1, 2 and 3, spike dice.
    "galaxy_series": {},
    # seed 001's host options at their plain setting (Ruling 2.5.2): a face-up discard pile, no gain from it.
    "cantina_spike": {"market": "discard_pile", "gain_from_discard": False},
}
