"""The old import path of Coruscant Shift's hand evaluation (now `games.engine.coruscant.evaluation`), for callers
outside the engine; nothing in the engine imports it."""

from games.engine.coruscant.evaluation import Score, best, score

__all__ = ["Score", "best", "score"]
