"""The sensible bot: plays each variant by its own advice (the variant's `sensible_decision`), from its seat's
view only. Coruscant Shift's play is in `games.engine.coruscant.bots`, Corellian Spike's in
`games.engine.spike.bots`, Classic's in `games.engine.classic.bots`.
"""

import random

from games.engine.bots.base import Decision
from games.engine.variant import default_variant, get_variant


class SensibleBot:
    """Plays its variant's sensible way; `bluff` is the chance of opening with a weak hand."""

    kind = "sensible"

    def __init__(self, rng: random.Random, *, bluff: float = 0.06) -> None:
        self.rng = rng
        self.bluff = bluff

    def decide(self, view: dict) -> Decision:
        legal = view["legal"]
        if not legal["verbs"]:
            raise ValueError(f"Seat {legal['seat']} has no decision to make in phase {legal['phase']}.")
        name = view.get("variant")
        variant = default_variant() if name is None else get_variant(name)
        return variant.sensible_decision(view, self.rng, self.bluff)
