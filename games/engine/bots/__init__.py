"""Bots that play a seat from its view alone: `random` (any legal decision) and `sensible` (plays the odds).

Each bot is built with its own `random.Random`; `BOTS` maps a bot kind to its class.
"""

from games.engine.bots.base import Bot, Decision, apply_decision, play_turn
from games.engine.bots.random_legal import RandomBot
from games.engine.bots.sensible import SensibleBot

BOTS: dict[str, type] = {RandomBot.kind: RandomBot, SensibleBot.kind: SensibleBot}

__all__ = ["BOTS", "Bot", "Decision", "RandomBot", "SensibleBot", "apply_decision", "play_turn"]
