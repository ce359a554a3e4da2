"""The old import path of the sensible bot's Corellian Spike play (now `games.engine.spike.bots`), for callers
outside the engine; nothing in the engine imports it."""

from games.engine.spike.bots import (
    COMMITMENT,
    CREDIT_WORTH,
    SABACC_WORTH,
    WIN_CHANCE,
    bet,
    card_turn,
    decide,
    spike,
    strength,
    worth,
)

__all__ = [
    "COMMITMENT",
    "CREDIT_WORTH",
    "SABACC_WORTH",
    "WIN_CHANCE",
    "bet",
    "card_turn",
    "decide",
    "spike",
    "strength",
    "worth",
]
