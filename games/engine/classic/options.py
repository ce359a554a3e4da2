"""Classic options (RULES 3.6): one frozen keyword-only dataclass and the presets `classic` and `universe`."""

from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine.errors import InvalidOptions
from games.engine.variant_options import PotAnteOptions, option_fields

PRESETS = ("classic", "universe")
CHOICES: dict[str, tuple[str, ...]] = {
    "min_raise": ("min_bet", "last_increment"),
    "shift_rolls": ("turns_and_rounds", "rounds", "off"),
    "hand_ranking": ("magnitude", "signed"),
    "end_rule": PotAnteOptions.END_RULES,
}
MINIMUMS = {**PotAnteOptions.MINIMUMS, "call_round": 1, "max_rounds": 1, "hands": 1}
OPTIONAL = {"max_bet", "max_rounds", "hands"}


@dataclass(frozen=True, kw_only=True)
class ClassicOptions(PotAnteOptions):
    """Every rule setting of a Classic Sabacc game (RULES 3.6); docs/rules.md describes each one (the ante, Sabacc
    ante and betting options first, from `PotAnteOptions`)."""

    call_round: int = 4
    max_rounds: int | None = None
    shift_rolls: str = "turns_and_rounds"
    hand_ranking: str = "magnitude"
    declare_totals: bool = True
    hands: int | None = None
    end_rule: str = "last_player"
    # Fixed in this game (RULES 3.7): odd credits of a shared pot go one each from the dealer's left (Ruling
    # 3.3.6).
    odd_credits: ClassVar[str] = "left_of_dealer"

    CHOICES = CHOICES
    MINIMUMS = MINIMUMS
    OPTIONAL = OPTIONAL
    BOOLEANS = ("declare_totals",)

    def check_own(self) -> None:
        if self.max_rounds is not None and self.max_rounds < self.call_round:
            raise InvalidOptions(
                f"Option 'max_rounds' ({self.max_rounds}) must be at least 'call_round' ({self.call_round}), "
                "or null for no limit."
            )


def option_names() -> tuple[str, ...]:
    return option_fields(ClassicOptions)


PRESET_VALUES: dict[str, dict[str, Any]] = {
    # Seed 003 as adapted for a real table (Ruling 3.6.1 sets the amounts).
    "classic": {},
    # Seed 003's overview: the hand may be called from round 5, dice only after betting, no declared totals.
    "universe": {"call_round": 5, "shift_rolls": "rounds", "declare_totals": False},
}


def build_classic_options(preset: str, overrides: dict | None = None) -> ClassicOptions:
    """The options of `preset` with `overrides` applied; every option of RULES 3.6 may be overridden."""
    if preset not in PRESETS:
        raise InvalidOptions(f"Unknown preset {preset!r}; the classic presets are: {', '.join(PRESETS)}.")
    if overrides is not None and not isinstance(overrides, dict):
        raise InvalidOptions("Option overrides must be an object of option names and values.")
    return ClassicOptions.from_dict({**PRESET_VALUES[preset], **(overrides or {})})
