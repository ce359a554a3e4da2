"""The old import path of Coruscant Shift's selection search (now `games.engine.coruscant.selection`), for
callers outside the engine; nothing in the engine imports it."""

from games.engine.coruscant.selection import (
    HAND_SIZE,
    NEAR_MISS_WEIGHT,
    best_selection,
    completion_chance,
    first_selection,
    subsets,
)

__all__ = ["HAND_SIZE", "NEAR_MISS_WEIGHT", "best_selection", "completion_chance", "first_selection", "subsets"]
