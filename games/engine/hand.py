"""The old import path of Coruscant Shift's hand (now `games.engine.coruscant.hand`), for callers outside the
engine; nothing in the engine imports it."""

from games.engine.coruscant.hand import BETTING_PHASES, SELECT_PHASES, Hand

__all__ = ["BETTING_PHASES", "SELECT_PHASES", "Hand"]
