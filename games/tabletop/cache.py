"""The game of a real-cards table, kept per (table, version) in this process for the readers.

Every page, fragment, stream message and API answer of a table shows the game at the table's steps; after a step,
each phone's stream and the actor's answer ask for the same version at once. The service that saved the version
hands its game over once committed (`keep`: before its announcement), so readers in the writer's process load
nothing; elsewhere the first reader loads it (`state.load_game`: from the snapshot, one hand's steps) and the others
of that version wait for it, then share it. A new version (a step, an undo, the start, the end: each bumps
`version`) is a new key, so nothing stale is ever shown. The services, which change the game, load their own copy
under the table's lock.

Readers only read the shared game (`present.table_view`: `due`, the spectator view, the deck's picture, the
explanations); `tests/tabletop/test_play_cache.py` checks a cached game shows what a fresh rebuild shows.
"""

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from games.engine.realcards.game import RealCardsGame
from games.tabletop.models import GROWING, RealTable
from games.tabletop.state import load_game

MAX_TABLES = 256  # tables kept (the newest version of each); the least recently read goes first

# table id -> (its key, its game, what is made of that version for every viewer alike: `per_version`)
_games: "OrderedDict[int, tuple[tuple, RealCardsGame, dict]]" = OrderedDict()
_building: dict[tuple, threading.Lock] = {}
_lock = threading.Lock()


def _key(table: RealTable) -> tuple:
    # Every committed change of the steps bumps the version, and only committed games are kept (`keep` runs after
    # the commit): the version alone says which game it is, so a reader need not load the growing fields. The
    # table's code and seed tell a table from an earlier one with the same id (SQLite reuses the id of a row rolled
    # back or deleted: a test's tables, one after another in a process, did).
    return (table.pk, table.code, table.version, table.master)


def shown_game(table: RealTable) -> RealCardsGame:
    """The table's game at its version, to read (never to change): from this process's cache, or rebuilt once."""
    key = _key(table)
    with _lock:
        kept = _games.get(table.pk)
        if kept is not None and kept[0] == key:
            _games.move_to_end(table.pk)
            return kept[1]
        building = _building.setdefault(key, threading.Lock())
    with building:
        with _lock:
            kept = _games.get(table.pk)
            if kept is not None and kept[0] == key:
                return kept[1]
        missing = table.get_deferred_fields() & {"setup", *GROWING}
        if missing:  # a reader that left them out (the streams): one query for all of them
            table.refresh_from_db(fields=sorted(missing))
        game = load_game(table)
        with _lock:
            kept = _games.get(table.pk)
            if kept is None or kept[0][1] <= key[1]:  # a late reader of an older version keeps the newer one
                _games[table.pk] = (key, game, {})
                _games.move_to_end(table.pk)
            while len(_games) > MAX_TABLES:
                _games.popitem(last=False)
            _building.pop(key, None)
    return game


def keep(table: RealTable, game: RealCardsGame) -> None:
    """The game a service saved for the table's version (called after the commit): the readers' from now on."""
    key = _key(table)
    with _lock:
        kept = _games.get(table.pk)
        if kept is None or kept[0][1] <= key[1]:
            _games[table.pk] = (key, game, {})
            _games.move_to_end(table.pk)
        while len(_games) > MAX_TABLES:
            _games.popitem(last=False)


def per_version(table: RealTable, name: str, make: Callable[[], Any]) -> Any:
    """`make()`, a value the same for every viewer of the table's version (the log in words, its HTML): made once
    per version in this process while its game is kept here (made each time otherwise)."""
    key = _key(table)
    with _lock:
        kept = _games.get(table.pk)
        if kept is not None and kept[0] == key and name in kept[2]:
            return kept[2][name]
    value = make()
    with _lock:
        kept = _games.get(table.pk)
        if kept is not None and kept[0] == key:
            kept[2][name] = value
    return value


def forget() -> None:
    """Empty the cache (tests)."""
    with _lock:
        _games.clear()
        _building.clear()
