"""The old import path of the options (kept for callers outside the engine; nothing in the engine imports it).

The shared part lives in `games.engine.variant_options`, Coruscant Shift's options in
`games.engine.coruscant.options`, and each variant's in its own package.
"""

from typing import Any

from games.engine.coruscant.options import (
    CHOICES,
    MINIMUMS,
    OPTIONAL,
    PRESET_VALUES,
    PRESETS,
    CoruscantShiftOptions,
    option_names,
)
from games.engine.variant_options import (
    MAXIMUM,
    build_options,
    check_choices_and_numbers,
    option_specs,
    resolve_options,
    variant_presets,
)

# The first two variants, as this name listed them before Classic came (`variant.variant_names()` lists them all).
VARIANTS = ("coruscant_shift", "corellian_spike")


def coerce_options(options: Any) -> CoruscantShiftOptions:
    """Accept Coruscant Shift options or a dict (full or partial) and return the dataclass."""
    if isinstance(options, CoruscantShiftOptions):
        return options
    return CoruscantShiftOptions.from_dict(options)


__all__ = [
    "CHOICES",
    "MAXIMUM",
    "MINIMUMS",
    "OPTIONAL",
    "PRESETS",
    "PRESET_VALUES",
    "VARIANTS",
    "CoruscantShiftOptions",
    "build_options",
    "check_choices_and_numbers",
    "coerce_options",
    "option_names",
    "option_specs",
    "resolve_options",
    "variant_presets",
]
