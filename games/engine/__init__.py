"""The Sabacc rules engine: pure Python, no Django, no I/O, no global random, no clock.

Public entry points: `Game` (state and operations), `resolve_options` and the preset names,
the error classes, and `games.engine.replay` for the `sabacc-replay/1` format.
"""

from games.engine.betting import LegalActions
from games.engine.cards import Card, parse_card, parse_cards
from games.engine.dice import Dice
from games.engine.errors import (
    EngineError,
    IllegalAction,
    InvalidAmount,
    InvalidCard,
    InvalidOptions,
    InvalidSelection,
    InvalidState,
    NotYourTurn,
    ReplayError,
    WrongPhase,
)
from games.engine.options import PRESETS, VARIANTS, CoruscantShiftOptions, build_options, resolve_options
from games.engine.shuffle import verify_shuffle
from games.engine.state import Game

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
    "NotYourTurn",
    "ReplayError",
    "WrongPhase",
    "build_options",
    "parse_card",
    "parse_cards",
    "resolve_options",
    "verify_shuffle",
]
