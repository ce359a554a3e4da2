"""The Sabacc rules engine: pure Python, no Django, no I/O, no global random, no clock.

Public entry points: `Game` (state and operations), `resolve_options` and the preset names,
the error classes, `games.engine.replay` for the `sabacc-replay/1` and `/2` formats, `verify_shuffle`
and `verify_game` for fair decks, and `public_log` for hand histories.
"""

import games.engine.variants  # noqa: F401  (registers every variant first)  # isort: skip
from games.engine.betting import LegalActions
from games.engine.cards import Card, parse_card, parse_cards
from games.engine.coruscant.dice import Dice
from games.engine.coruscant.options import PRESETS, CoruscantShiftOptions
from games.engine.errors import (
    EngineError,
    IllegalAction,
    InvalidAmount,
    InvalidCard,
    InvalidOptions,
    InvalidSelection,
    InvalidState,
    MissingReshuffle,
    NotYourTurn,
    ReplayError,
    WrongPhase,
)
from games.engine.options import VARIANTS
from games.engine.shuffle import mix_entropy, verify_shuffle
from games.engine.state import Game
from games.engine.variant_options import build_options, resolve_options

# Built on the replay module (which plays through `Game`), so imported after it.
from games.engine.fairness import game_problems, verify_game  # isort: skip
from games.engine.public_log import public_log  # isort: skip

__all__ = [
    "PRESETS",
    "VARIANTS",
    "Card",
    "CoruscantShiftOptions",
    "Dice",
    "EngineError",
    "Game",
    "IllegalAction",
    "InvalidAmount",
    "InvalidCard",
    "InvalidOptions",
    "InvalidSelection",
    "InvalidState",
    "LegalActions",
    "MissingReshuffle",
    "NotYourTurn",
    "ReplayError",
    "WrongPhase",
    "build_options",
    "game_problems",
    "mix_entropy",
    "parse_card",
    "parse_cards",
    "public_log",
    "resolve_options",
    "verify_game",
    "verify_shuffle",
]
