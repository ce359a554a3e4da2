"""Corellian Spike options (RULES 2.5): one frozen keyword-only dataclass and the two presets."""

from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine.errors import InvalidOptions
from games.engine.variant_options import MAXIMUM, VariantOptions, option_fields

CHOICES: dict[str, tuple[str, ...]] = {
    "min_raise": ("min_bet", "last_increment"),
    "market": ("galaxy", "discard_pile"),
    "odd_credits": ("left_of_dealer", "carry"),
}
MINIMUMS = {
    "starting_stack": 1,
    "ante": 1,
    "sabacc_ante": 0,
    "min_bet": 1,
    "max_bet": 1,
    "gain_cost": 0,
    "swap_cost": 0,
    "hands": 1,
}
OPTIONAL = {"max_bet", "hands"}
BOOLEANS = ("gain_from_discard", "spike_dice")
# "never": the game ends when whoever runs the table closes it (a tournament's table), so players may join and
# leave between hands; otherwise the game ends with the last player holding credits (RULES 2.6).
END_RULES = ("last_player", "never")
# Where the market's cards lie, in price order: the newest card is the Pilot.
POSITIONS = ("pilot", "wing", "gunner")


@dataclass(frozen=True, kw_only=True)
class CorellianSpikeOptions(VariantOptions):
    """Every rule setting of a Corellian Spike game (RULES 2.5); docs/rules.md describes each one."""

    starting_stack: int = 100
    ante: int = 2
    sabacc_ante: int = 1
    min_bet: int = 1
    min_raise: str = "min_bet"
    max_bet: int | None = None
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
    rebuys: ClassVar[bool] = False
    add_ons: ClassVar[bool] = False
    item_stakes: ClassVar[bool] = False
    chips: ClassVar[str] = "simple"

    CHOICES = {**CHOICES, "end_rule": END_RULES}
    MINIMUMS = MINIMUMS
    OPTIONAL = OPTIONAL
    # The variant's own end rule is not written: only a table run otherwise.
    OMITTED_AT = {"end_rule": "last_player"}

    def __post_init__(self) -> None:
        self.check_shared()
        prices = self.market_prices
        if (
            not isinstance(prices, tuple)
            or len(prices) != 3
            or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAXIMUM for v in prices)
        ):
            raise InvalidOptions(
                f"Option 'market_prices' must be three whole numbers from 0 to {MAXIMUM:,} "
                f"(the prices of the Pilot, the Wing and the Gunner); got {_plain(prices)!r}."
            )
        for name in BOOLEANS:
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptions(f"Option {name!r} must be true or false; got {getattr(self, name)!r}.")
        if self.max_bet is not None and self.max_bet < self.min_bet:
            raise InvalidOptions(
                f"Option 'max_bet' ({self.max_bet}) must be at least the min bet ({self.min_bet}), or null for no cap."
            )


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def option_names() -> tuple[str, ...]:
    return option_fields(CorellianSpikeOptions)


PRESET_VALUES: dict[str, dict[str, Any]] = {
    # seed 004: the Galaxy Series market of Pilot, Wing and Gunner at 1, 2 and 3, spike dice.
    "galaxy_series": {},
    # seed 001's host options at their plain setting (Ruling 2.5.2): a face-up discard pile, no gain from it.
    "cantina_spike": {"market": "discard_pile", "gain_from_discard": False},
}
