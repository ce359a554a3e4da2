"""Coruscant Shift options (RULES 1.4-1.5): one frozen keyword-only dataclass, the four presets, and how a
preset's forced bets follow the overrides."""

from dataclasses import dataclass
from typing import Any

from games.engine.errors import InvalidOptions
from games.engine.variant_options import VariantOptions, option_fields

PRESETS = ("halcyon", "cantina", "better", "casino")

# Allowed values of the choice options; the first value is the default.
CHOICES: dict[str, tuple[str, ...]] = {
    "betting": ("no_limit", "fixed_stay"),
    "min_raise": ("min_bet", "last_increment"),
    "escalation": ("none", "cantina", "double_blinds"),
    "tie_rule": ("split", "draw"),
    "odd_credits": ("carry", "left_of_dealer"),
    "end_rule": ("last_player", "everyone_deals", "never"),
    "roller": ("dealer", "left_of_dealer"),
    "chips": ("simple", "standard"),
}
# Lowest value allowed for the whole-number options.
MINIMUMS = {
    "starting_stack": 1,
    "ante": 0,
    "small_blind": 0,
    "big_blind": 0,
    "min_bet": 1,
    "stay_cost": 1,
    "max_bet": 1,
    "hands": 1,
}
OPTIONAL = {"max_bet", "hands"}


@dataclass(frozen=True, kw_only=True)
class CoruscantShiftOptions(VariantOptions):
    """Every rule setting of a Coruscant Shift game (RULES 1.4-1.5); docs/rules.md describes each one."""

    starting_stack: int = 100
    ante: int = 0
    small_blind: int = 0
    big_blind: int = 0
    min_bet: int = 1
    betting: str = "no_limit"
    stay_cost: int = 1
    min_raise: str = "min_bet"
    max_bet: int | None = None
    escalation: str = "none"
    ante_increments: tuple[int, ...] = (5, 3, 2, 1)
    tie_rule: str = "split"
    odd_credits: str = "carry"
    end_rule: str = "last_player"
    hands: int | None = None
    rebuys: bool = False
    add_ons: bool = False
    item_stakes: bool = False
    roller: str = "dealer"
    chips: str = "simple"

    CHOICES = CHOICES
    MINIMUMS = MINIMUMS
    OPTIONAL = OPTIONAL
    BOOLEANS = ("rebuys", "add_ons", "item_stakes")

    def check_own(self) -> None:
        self.check_whole_numbers("ante_increments", 4, "for 2, 3, 4 and 5+ players remaining")
        if self.small_blind > self.big_blind:
            raise InvalidOptions(
                f"Option 'small_blind' ({self.small_blind}) may not exceed 'big_blind' ({self.big_blind})."
            )
        if self.max_bet is not None and self.max_bet < max(self.min_bet, self.big_blind):
            raise InvalidOptions(
                f"Option 'max_bet' ({self.max_bet}) must be at least the min bet and big blind "
                f"({max(self.min_bet, self.big_blind)}), or null for no cap."
            )
        if self.escalation == "double_blinds" and self.big_blind == 0:
            raise InvalidOptions("Option 'escalation' double_blinds needs blinds: set 'big_blind' above 0.")


def option_names() -> tuple[str, ...]:
    return option_fields(CoruscantShiftOptions)


PRESET_VALUES: dict[str, dict[str, Any]] = {
    # seed 002: ten chips each, one-chip ante, pay one to stay, each player deals once.
    "halcyon": {
        "starting_stack": 10,
        "ante": 1,
        "min_bet": 1,
        "betting": "fixed_stay",
        "stay_cost": 1,
        "tie_rule": "draw",
        "odd_credits": "left_of_dealer",
        "end_rule": "everyone_deals",
        "roller": "left_of_dealer",
    },
    # seed 001: ante 2 escalating by players remaining, min bet 1, split pots.
    "cantina": {
        "starting_stack": 100,
        "ante": 2,
        "min_bet": 1,
        "escalation": "cantina",
        "tie_rule": "split",
        "odd_credits": "left_of_dealer",
        "end_rule": "last_player",
    },
    # seed 000: blinds half and whole min bet, doubling each orbit, odd credits carried over.
    "better": {
        "starting_stack": 450,
        "small_blind": 5,
        "big_blind": 10,
        "min_bet": 10,
        "escalation": "double_blinds",
        "tie_rule": "split",
        "odd_credits": "carry",
        "end_rule": "last_player",
        "chips": "standard",
    },
    # seed 000 casino mode: ante of the min bet, no blinds, players come and go.
    "casino": {
        "starting_stack": 450,
        "ante": 10,
        "min_bet": 10,
        "tie_rule": "split",
        "odd_credits": "carry",
        "end_rule": "never",
        "rebuys": True,
        "add_ons": True,
        "chips": "standard",
    },
}


def build_coruscant_options(preset: str, overrides: dict | None = None) -> CoruscantShiftOptions:
    """The options of `preset` with `overrides` applied and checked.

    In the `better` preset the blinds follow the min bet (small = min bet // 2, big = min bet), and in
    `casino` the ante does (ante = min bet), unless the overrides set them too. When only `big_blind`
    is overridden, the small blind is half of it, rounded down (RULES 1.5, one blind overridden).
    """
    if preset not in PRESETS:
        raise InvalidOptions(f"Unknown preset {preset!r}; the presets are: {', '.join(PRESETS)}.")
    overrides = dict(overrides or {})
    if not isinstance(overrides, dict):
        raise InvalidOptions("Option overrides must be an object of option names and values.")
    values = dict(PRESET_VALUES[preset])
    min_bet = overrides.get("min_bet")
    if isinstance(min_bet, int) and not isinstance(min_bet, bool):
        # Forced bets defined by the min bet follow it unless they are overridden themselves.
        if preset == "better" and not {"small_blind", "big_blind"} & set(overrides):
            values["small_blind"] = min_bet // 2
            values["big_blind"] = min_bet
        if preset == "casino" and "ante" not in overrides:
            values["ante"] = min_bet
    big_blind = overrides.get("big_blind")
    if isinstance(big_blind, int) and not isinstance(big_blind, bool) and "small_blind" not in overrides:
        values["small_blind"] = big_blind // 2
    values.update(overrides)
    return CoruscantShiftOptions.from_dict(values)
