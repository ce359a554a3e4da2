"""The old import path of the Coruscant Shift plug-in (now `games.engine.coruscant.variant`), for callers outside
the engine; nothing in the engine imports it."""

from games.engine.coruscant.variant import CORUSCANT_SHIFT, CoruscantShift

__all__ = ["CORUSCANT_SHIFT", "CoruscantShift"]
