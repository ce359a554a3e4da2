"""The old import path of the Classic Sabacc bots (now `games.engine.classic.bots`), for callers outside the
engine; nothing in the engine imports it."""

from games.engine.classic.bots import CLASSIC_BOTS, PLAY, ClassicRandomBot, ClassicSensibleBot, random_decision

__all__ = ["CLASSIC_BOTS", "PLAY", "ClassicRandomBot", "ClassicSensibleBot", "random_decision"]
