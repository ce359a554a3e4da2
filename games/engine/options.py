"""Options: one frozen keyword-only dataclass per variant, named presets, and validated overrides."""

from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from games.engine.errors import InvalidOptions

PRESETS = ("halcyon", "cantina", "better", "casino")
# Every variant the engine plays (the registry in `variant.py` is the source; a test keeps them equal).
VARIANTS = ("coruscant_shift", "corellian_spike")

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
# Highest value of any whole-number option: a billion credits (or hands) is past any real table.
MAXIMUM = 1_000_000_000


def check_choices_and_numbers(
    options: object,
    choices: dict[str, tuple[str, ...]],
    minimums: dict[str, int],
    optional: frozenset[str] | set[str],
    maximum: int,
) -> None:
    """The checks every variant's options share: each choice among its allowed values, each number whole and
    within its bounds (null only where optional). Raises `InvalidOptions` naming the option and what is allowed."""
    for name, allowed in choices.items():
        value = getattr(options, name)
        if not isinstance(value, str) or value not in allowed:
            raise InvalidOptions(f"Option {name!r} must be one of {', '.join(allowed)}; got {value!r}.")
    for name, minimum in minimums.items():
        value = getattr(options, name)
        if value is None and name in optional:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
            extra = " or null" if name in optional else ""
            raise InvalidOptions(
                f"Option {name!r} must be a whole number of at least {minimum} and at most {maximum:,}{extra}; "
                f"got {value!r}."
            )


@dataclass(frozen=True, kw_only=True)
class CoruscantShiftOptions:
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

    def __post_init__(self) -> None:
        check_choices_and_numbers(self, CHOICES, MINIMUMS, OPTIONAL, MAXIMUM)
        inc = self.ante_increments
        if (
            not isinstance(inc, tuple)
            or len(inc) != 4
            or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAXIMUM for v in inc)
        ):
            raise InvalidOptions(
                f"Option 'ante_increments' must be four whole numbers from 0 to {MAXIMUM:,} "
                f"(for 2, 3, 4 and 5+ players remaining); got {inc!r}."
            )
        for name in ("rebuys", "add_ons", "item_stakes"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptions(f"Option {name!r} must be true or false; got {getattr(self, name)!r}.")
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

    def to_dict(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in option_names()}
        data["ante_increments"] = list(self.ante_increments)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CoruscantShiftOptions":
        """Build options from a complete or partial dict; unknown names are refused."""
        if not isinstance(data, dict):
            raise InvalidOptions(f"Options must be an object of option names and values; got {type(data).__name__}.")
        names = option_names()
        for key in data:
            if key not in names:
                raise InvalidOptions(f"Unknown option {key!r}; the options are: {', '.join(names)}.")
        values = dict(data)
        if "ante_increments" in values and isinstance(values["ante_increments"], list):
            values["ante_increments"] = tuple(values["ante_increments"])
        return cls(**values)


@cache
def option_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(CoruscantShiftOptions))


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


def resolve_options(variant: str, preset: str, overrides: dict | None = None) -> dict[str, Any]:
    """The full option set of `preset` with `overrides` applied, as a JSON-able dict.

    In the `better` preset the blinds follow the min bet (small = min bet // 2, big = min bet), and in
    `casino` the ante does (ante = min bet), unless the overrides set them too. When only `big_blind`
    is overridden, the small blind is half of it, rounded down (RULES 1.5, one blind overridden).
    """
    return build_options(variant, preset, overrides).to_dict()


def build_options(variant: str, preset: str, overrides: dict | None = None) -> Any:
    """The options dataclass of `variant` (any registered one) for `preset` with `overrides`."""
    if variant != "coruscant_shift":
        from games.engine.variant import get_variant, variant_names

        if variant not in variant_names():
            raise InvalidOptions(f"Unknown variant {variant!r}; the variants are: {', '.join(variant_names())}.")
        return get_variant(variant).build_options(preset, overrides)
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


def variant_presets() -> dict[str, tuple[str, ...]]:
    """Every registered variant and its presets, Coruscant Shift first (for choice lists)."""
    from games.engine.variant import get_variant, variant_names

    return {name: tuple(get_variant(name).presets) for name in variant_names()}


def option_specs() -> list[dict[str, Any]]:
    """Every option of every variant, once, for forms: its name, kind (`choice`, `bool`, `ints`, `int`), the
    choices (all variants' together), each variant's own choices (`by_variant`, from its options module), whether
    it may be null, and the variants that have it (Coruscant Shift's first)."""
    from games.engine.classic import options as classic_options
    from games.engine.spike import options as spike_options
    from games.engine.variant import get_variant, variant_names

    own = {
        "coruscant_shift": CHOICES,
        "corellian_spike": {**spike_options.CHOICES, "end_rule": spike_options.END_RULES},
        "classic": {**classic_options.CHOICES, "end_rule": classic_options.END_RULES},
    }
    optional = OPTIONAL | spike_options.OPTIONAL | classic_options.OPTIONAL
    specs: dict[str, dict[str, Any]] = {}
    for variant in variant_names():
        choices = own.get(variant, {})
        for field in fields(get_variant(variant).options_class):
            spec = specs.get(field.name)
            if spec is not None and field.name in choices:
                spec["by_variant"][variant] = choices[field.name]
                spec["choices"] += tuple(c for c in choices[field.name] if c not in spec["choices"])
            if spec is None:
                default = field.default
                if field.name in choices:
                    kind = "choice"
                elif isinstance(default, bool):
                    kind = "bool"
                elif isinstance(default, tuple):
                    kind = "ints"
                else:
                    kind = "int"
                spec = specs[field.name] = {
                    "name": field.name,
                    "kind": kind,
                    "choices": choices.get(field.name, ()),
                    "by_variant": {variant: choices[field.name]} if field.name in choices else {},
                    "optional": field.name in optional,
                    "variants": [],
                }
            spec["variants"].append(variant)
    return list(specs.values())


def coerce_options(options: Any) -> CoruscantShiftOptions:
    """Accept an options dataclass or a dict (full or partial) and return the dataclass."""
    if isinstance(options, CoruscantShiftOptions):
        return options
    return CoruscantShiftOptions.from_dict(options)
