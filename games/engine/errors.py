"""Engine errors: every message says what is wrong and what is allowed, so a player can read it."""


class EngineError(Exception):
    """Base of every error the engine raises on purpose; `str(exc)` is a message a user can read."""


class InvalidOptions(EngineError):
    """An option name or value that the variant does not allow."""


class InvalidCard(EngineError, ValueError):
    """A card code that is not one of the 62 cards."""


class IllegalAction(EngineError):
    """An operation that the rules forbid in the current state; the state is left unchanged."""


class NotYourTurn(IllegalAction):
    """The seat is not one the engine is waiting for."""


class WrongPhase(IllegalAction):
    """The operation does not exist in the current phase of the hand or game."""


class InvalidSelection(IllegalAction):
    """Cards chosen for a selection that the player does not hold, or holds fewer times."""


class InvalidAmount(IllegalAction):
    """A bet, raise or re-buy amount outside the allowed bounds."""


class MissingReshuffle(EngineError):
    """A hand with listed reshuffles needs one more than listed, or a listed pile is not the discard pile.

    Raised part-way through the operation that needed the reshuffle, so the game cannot go on: only
    replays list reshuffles, and they stop at the first error."""


class InvalidState(EngineError):
    """A saved game that cannot be loaded back."""


class ReplayError(EngineError):
    """An invalid replay document or an illegal action inside one; the message is one line."""


class MissingDice(EngineError):
    """A hand dealt from a given deck needs dice that were not given (a replay listing none); raised part-way
    through the operation that needed them, so the game cannot go on: only replays leave dice out."""
