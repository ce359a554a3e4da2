"""Classic options (RULES 3.6): one frozen keyword-only dataclass and the presets `classic` and `universe`."""

from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine.errors import InvalidOptions
from games.engine.variant_options import VariantOptions, option_fields

PRESETS = ("classic", "universe")
CHOICES: dict[str, tuple[str, ...]] = {
    "min_raise": ("min_bet", "last_increment"),
    "shift_rolls": ("turns_and_rounds", "rounds", "off"),
    "hand_ranking": ("magnitude", "signed"),
}
MINIMUMS = {
    "starting_stack": 1,
    "ante": 1,
    "sabacc_ante": 0,
    "min_bet": 1,
    "max_bet": 1,
    "call_round": 1,
    "max_rounds": 1,
    "hands": 1,
}
OPTIONAL = {"max_bet", "max_rounds", "hands"}
MAXIMUM = 1_000_000_000
# "never": the game ends when whoever runs the table closes it (a tournament's table), so players may join and
# leave between hands; otherwise it ends when fewer than two players hold credits (RULES 3.7).
END_RULES = ("last_player", "never")


@dataclass(frozen=True, kw_only=True)
class ClassicOptions(VariantOptions):
    """Every rule setting of a Classic Sabacc game (RULES 3.6); docs/rules.md describes each one."""

    starting_stack: int = 100
    ante: int = 1
    sabacc_ante: int = 1
    min_bet: int = 1
    min_raise: str = "min_bet"
    max_bet: int | None = None
    call_round: int = 4
    max_rounds: int | None = None
    shift_rolls: str = "turns_and_rounds"
    hand_ranking: str = "magnitude"
    declare_totals: bool = True
    hands: int | None = None
    end_rule: str = "last_player"
    # Fixed in this game (RULES 3.7): odd credits of a shared pot go one each from the dealer's left (Ruling
    # 3.3.6); no re-buys in the engine.
    odd_credits: ClassVar[str] = "left_of_dealer"
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
        if not isinstance(self.declare_totals, bool):
            raise InvalidOptions(f"Option 'declare_totals' must be true or false; got {self.declare_totals!r}.")
        if self.max_bet is not None and self.max_bet < self.min_bet:
            raise InvalidOptions(
                f"Option 'max_bet' ({self.max_bet}) must be at least the min bet ({self.min_bet}), or null for no cap."
            )
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
