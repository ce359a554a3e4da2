"""What every variant's options share: the checks, `to_dict`/`from_dict` from the dataclass's fields, and the
lookups across variants (`build_options`, `resolve_options`, `variant_presets`, `option_specs`).

A variant's options are one frozen, keyword-only dataclass deriving from `VariantOptions`, whose class
attributes say its choices, minimums, nullable options and the options left out of `to_dict()` at their default.
"""

from dataclasses import dataclass, fields
from functools import cache
from typing import Any, ClassVar

from games.engine.errors import InvalidOptions
from games.engine.variant import get_variant, variant_names

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


@cache
def option_fields(cls: type) -> tuple[str, ...]:
    """The option names of an options dataclass, in field order (its `ClassVar` constants are not options)."""
    return tuple(f.name for f in fields(cls))


@cache
def _tuple_options(cls: type) -> tuple[str, ...]:
    """The options whose value is a tuple of numbers (documents write them as lists)."""
    return tuple(f.name for f in fields(cls) if isinstance(f.default, tuple))


class VariantOptions:
    """The base of a variant's options dataclass: the shared checks and the one `to_dict`/`from_dict`."""

    # Allowed values of each choice option (the variant's own; `option_specs` shows them per variant).
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {}
    # Lowest value allowed for each whole-number option.
    MINIMUMS: ClassVar[dict[str, int]] = {}
    # The whole-number options that may be null.
    OPTIONAL: ClassVar[frozenset[str] | set[str]] = frozenset()
    # Options left out of `to_dict()` at this value (saved games and replays written before them read the same).
    OMITTED_AT: ClassVar[dict[str, object]] = {}
    # The options that are true or false.
    BOOLEANS: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        self.check_shared()
        self.check_own()

    def check_own(self) -> None:
        """The variant's own checks, after the shared ones (none by default)."""

    def check_shared(self) -> None:
        """Every choice among its values, every number within its bounds (`check_choices_and_numbers`) and every
        true-or-false option a bool."""
        check_choices_and_numbers(self, self.CHOICES, self.MINIMUMS, self.OPTIONAL, MAXIMUM)
        for name in self.BOOLEANS:
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptions(f"Option {name!r} must be true or false; got {getattr(self, name)!r}.")

    def check_whole_numbers(self, name: str, count: int, meaning: str) -> None:
        """Option `name` is a tuple of `count` whole numbers from 0 to `MAXIMUM`; `meaning` says what they are."""
        value = getattr(self, name)
        if (
            not isinstance(value, tuple)
            or len(value) != count
            or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAXIMUM for v in value)
        ):
            shown = list(value) if isinstance(value, tuple) else value  # as the document wrote it
            raise InvalidOptions(
                f"Option {name!r} must be {_COUNT_WORDS[count]} whole numbers from 0 to {MAXIMUM:,} ({meaning}); "
                f"got {shown!r}."
            )

    def to_dict(self) -> dict[str, Any]:
        """Every option by name, JSON-able (tuples as lists), less those at their `OMITTED_AT` value."""
        cls = type(self)
        data = {name: getattr(self, name) for name in option_fields(cls)}
        for name in _tuple_options(cls):
            data[name] = list(data[name])
        for name, value in self.OMITTED_AT.items():
            if data[name] == value:
                del data[name]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Any:
        """Build options from a complete or partial dict; unknown names are refused."""
        if not isinstance(data, dict):
            raise InvalidOptions(f"Options must be an object of option names and values; got {type(data).__name__}.")
        names = option_fields(cls)
        for key in data:
            if key not in names:
                raise InvalidOptions(f"Unknown option {key!r}; the options are: {', '.join(names)}.")
        values = dict(data)
        for name in _tuple_options(cls):
            if isinstance(values.get(name), list):
                values[name] = tuple(values[name])
        return cls(**values)


_COUNT_WORDS = {3: "three", 4: "four"}


@dataclass(frozen=True, kw_only=True)
class PotAnteOptions(VariantOptions):
    """The options of a variant without blinds, whose hands start with an ante to the hand pot and one to a
    Sabacc pot, and whose game a table may leave open (`end_rule` "never"); the variant adds its own."""

    starting_stack: int = 100
    ante: int = 1
    sabacc_ante: int = 1
    min_bet: int = 1
    min_raise: str = "min_bet"
    max_bet: int | None = None

    # "never": the game ends when whoever runs the table closes it (a tournament's table), so players may join
    # and leave between hands; otherwise it ends when fewer than two players hold credits.
    END_RULES: ClassVar[tuple[str, ...]] = ("last_player", "never")
    # The variant's own end rule is not written: only a table run otherwise.
    OMITTED_AT: ClassVar[dict[str, object]] = {"end_rule": "last_player"}
    # Fixed: no re-buys, add-ons or item stakes in these variants' engine, and plain chips.
    rebuys: ClassVar[bool] = False
    add_ons: ClassVar[bool] = False
    item_stakes: ClassVar[bool] = False
    chips: ClassVar[str] = "simple"
    MINIMUMS: ClassVar[dict[str, int]] = {"starting_stack": 1, "ante": 1, "sabacc_ante": 0, "min_bet": 1, "max_bet": 1}

    def check_shared(self) -> None:
        super().check_shared()
        if self.max_bet is not None and self.max_bet < self.min_bet:
            raise InvalidOptions(
                f"Option 'max_bet' ({self.max_bet}) must be at least the min bet ({self.min_bet}), or null for no cap."
            )


def resolve_options(variant: str, preset: str, overrides: dict | None = None) -> dict[str, Any]:
    """The full option set of `preset` with `overrides` applied, as a JSON-able dict (the variant's
    `build_options` says how presets and overrides combine, e.g. forced bets that follow the min bet)."""
    return build_options(variant, preset, overrides).to_dict()


# A preset's options without overrides, built once: they are frozen, so every game of the preset can share them.
_PRESET_OPTIONS: dict[tuple[str, str], Any] = {}


def build_options(variant: str, preset: str, overrides: dict | None = None) -> Any:
    """The options dataclass of `variant` (any registered one) for `preset` with `overrides`."""
    if overrides or (overrides is not None and not isinstance(overrides, dict)):
        return get_variant(variant).build_options(preset, overrides)
    key = (variant, preset)
    options = _PRESET_OPTIONS.get(key)
    if options is None:
        options = _PRESET_OPTIONS[key] = get_variant(variant).build_options(preset, overrides)
    return options


def variant_presets() -> dict[str, tuple[str, ...]]:
    """Every registered variant and its presets, in the order they are registered (for choice lists)."""
    return {name: tuple(get_variant(name).presets) for name in variant_names()}


def option_specs() -> list[dict[str, Any]]:
    """Every option of every variant, once, for forms: its name, kind (`choice`, `bool`, `ints`, `int`), the
    choices (all variants' together), each variant's own choices (`by_variant`), whether it may be null, and
    the variants that have it (in the order they are registered)."""
    classes = {name: get_variant(name).options_class for name in variant_names()}
    optional = set().union(*(cls.OPTIONAL for cls in classes.values()))
    specs: dict[str, dict[str, Any]] = {}
    for variant, options_class in classes.items():
        choices = options_class.CHOICES
        for field in fields(options_class):
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
