"""The variant plug-in point: what differs between Sabacc games (deck, hand size, phases, evaluation).

Coruscant Shift is the only variant today; Corellian Spike and Classic Sabacc will register here
beside it with their own options class, deck, phases and evaluation.
"""

from collections.abc import Sequence
from typing import Any

from games.engine.cards import Card
from games.engine.dice import Dice
from games.engine.evaluation import Score


class Variant:
    """Base of the variants; subclasses fill in every attribute and method."""

    name = ""
    hand_size = 0
    # The decision phases of a hand, in order; the automatic steps run between them.
    phases: tuple[str, ...] = ()
    options_class: Any = None
    # The class that plays one hand of this variant (a `games.engine.hand.Hand`-like class).
    hand_class: Any = None

    def deck(self) -> list[Card]:
        raise NotImplementedError

    def coerce_options(self, options: Any) -> Any:
        """Accept this variant's options dataclass, or a dict of option values (full or partial)."""
        if isinstance(options, self.options_class):
            return options
        return self.options_class.from_dict(options)

    def evaluate(self, selection: Sequence[Card], dice: Dice) -> Score:
        raise NotImplementedError


_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    _REGISTRY[variant.name] = variant
    return variant


def get_variant(name: str) -> Variant:
    from games.engine import coruscant_shift  # noqa: F401  (registers itself)
    from games.engine.errors import InvalidOptions

    try:
        return _REGISTRY[name]
    except KeyError:
        raise InvalidOptions(f"Unknown variant {name!r}; the variants are: {', '.join(sorted(_REGISTRY))}.") from None
