"""The old import path of Coruscant Shift's hand evaluation (now `games.engine.coruscant.evaluation`, and `best`
in `games.engine.ties`), for callers outside the engine; nothing in the engine imports it."""

from games.engine.coruscant.evaluation import Score, score
from games.engine.ties import best

__all__ = ["Score", "best", "score"]
