"""A table's game, loaded from its snapshot (or rebuilt from its steps), and the snapshot to save with new steps.

The steps are the source of truth; the snapshot (`RealTable.snapshot`, `games.engine.realcards.snapshot`) is the
engine's state before the current hand's deal, saved with the steps it was made of: the step count and the last
step. Loading from it plays only the current hand's steps again. A snapshot that is missing, of another format or
of other steps (a row written without one) is not used: the game is rebuilt from the setup and every step.
"""

import logging

from games.engine.errors import InvalidState
from games.engine.realcards.game import RealCardsGame
from games.engine.realcards.snapshot import load_state, save_state
from games.tabletop.models import RealTable

logger = logging.getLogger(__name__)


def rebuild(table: RealTable, steps: list[dict] | None = None) -> RealCardsGame:
    """The game rebuilt from the setup and every step (`steps`: the table's, or a prefix of them)."""
    game = RealCardsGame(table.setup, master=table.master)
    for step in table.steps if steps is None else steps:
        game.step(step)
    return game


def fits(table: RealTable) -> bool:
    """Whether the row's snapshot was saved with the row's steps (their count and the last of them)."""
    snapshot, steps = table.snapshot, table.steps
    return (
        isinstance(snapshot, dict)
        and snapshot.get("n") == len(steps)
        and snapshot.get("last") == (steps[-1] if steps else None)
    )


def load_game(table: RealTable, steps: list[dict] | None = None) -> RealCardsGame:
    """The table's game (only for a started table) at its steps, or at `steps`, a prefix of them (an undo): from the
    snapshot when it fits, else rebuilt."""
    steps = table.steps if steps is None else steps
    if fits(table) and table.snapshot.get("at", 0) < len(steps):
        try:
            return load_state(table.setup, steps, table.snapshot, master=table.master)
        except InvalidState as exc:
            logger.warning("table %s: its snapshot was not used (%s); rebuilt from its steps", table.pk, exc)
    return rebuild(table, steps)


def snapshot_of(game: RealCardsGame) -> dict:
    """What to save in `RealTable.snapshot` with the game's steps."""
    return {**save_state(game), "last": game.steps[-1] if game.steps else None}
