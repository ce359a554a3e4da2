"""A table's finished hands while it runs and after: the public history, the replay and the seed check.

The engine's export lists every hand's deck, which would show folded cards and unshown selections, so
while the game runs only the public history leaves here (`games.history.public_history`: what the table
saw). The `sabacc-replay/2` document is served once the game is over, when the hand seeds are revealed
(RULES 1.7) and every deck follows from its seed anyway. The hand in progress is never included.
"""

import logging
from typing import Any

from django.core.cache import cache

from config.errors import ApplicationError, ConflictError
from games.engine import EngineError, Game
from games.engine.fairness import game_problems
from games.engine.replay import export_replay
from games.history import HistoryError, public_history
from games.online.models import OnlineTable

logger = logging.getLogger(__name__)

REPLAY_LATER = (
    "The replay (sabacc-replay/2) lists every hand's deck, which would show folded hands; it is published when "
    "the game ends and its hand seeds are revealed. Until then the public hand history is available."
)


def _game(table: OnlineTable) -> Game | None:
    if not table.state:
        return None
    return Game.from_json(table.state, history=table.history or None)


def finished_document(table: OnlineTable) -> dict[str, Any] | None:
    """The engine's export of the table's finished hands (the hand in progress dropped), or None before the
    first hand ends. Holds the decks: never served while the game runs."""
    game = _game(table)
    if game is None or game.hands_played == 0:
        return None
    document = export_replay(game)
    if game.in_hand:
        unfinished = document["hands"].pop()
        document["after"] = unfinished["before"]
    return document if document["hands"] else None


def is_over(table: OnlineTable) -> bool:
    game = _game(table)
    return bool(game and game.over)


def public_table_history(table: OnlineTable) -> dict[str, Any]:
    """{"players", "hands"}: every finished hand step by step as the table saw it (cached per finished hand
    count; it holds public information only)."""
    game = _game(table)
    played = game.hands_played if game else 0
    key = f"online-history:{table.pk}:{played}:{int(bool(game and game.over))}"
    try:
        found = cache.get(key)
    except Exception:  # the cache is a saving, never a requirement (Redis down: computed every time)
        logger.warning("online history %s: the cache is unavailable", key, exc_info=True)
        found = None
    if found is not None:
        return found
    document = finished_document(table)
    if document is None:
        history: dict[str, Any] = {"players": list(game.names) if game else [], "hands": []}
    else:
        try:
            history = public_history(document)
        except HistoryError as exc:  # a bug: the engine's own export always replays
            history = {"players": [], "hands": [], "error": str(exc)}
    try:
        cache.set(key, history, 600)
    except Exception:
        logger.warning("online history %s: the cache is unavailable", key, exc_info=True)
    return history


def replay_document(table: OnlineTable, *, upto: int | None = None) -> dict[str, Any]:
    """The game as `sabacc-replay/2`, once it is over; `upto=n` stops after hand n (the document then replays
    to the end of that hand). A user error while the game runs, or for a hand that does not exist."""
    if not is_over(table):
        raise ConflictError(REPLAY_LATER, code="replay_not_yet")
    document = finished_document(table)
    if document is None:
        raise ConflictError("No hand was finished at this table; there is nothing to replay.")
    if upto is not None:
        count = len(document["hands"])
        if not 1 <= upto <= count:
            raise ApplicationError(f"This table played hands 1 to {count}; there is no hand {upto}.")
        if upto < count:
            document = {**document, "hands": document["hands"][:upto], "after": []}
    return document


def seed_report(table: OnlineTable) -> dict[str, Any]:
    """Each finished hand's commitment (public before its deal) and, once the game is over, its revealed server
    seed, the players' entropy and the hand seed, with the engine's verdict (`fairness.game_problems`)."""
    game = _game(table)
    over = bool(game and game.over)
    document = finished_document(table)
    hands: list[dict[str, Any]] = []
    problems: list[str] = []
    if document is not None:
        seeds = {}
        if over:
            try:
                seeds = {row["hand"]: row for row in game.revealed_seeds()}
            except EngineError as exc:
                problems.append(str(exc))
            problems.extend(game_problems(document))
        for number, hand in enumerate(document["hands"], start=1):
            revealed = seeds.get(number, {})
            hand_problems = [p for p in problems if p.startswith(f"Hand {number}:")]
            hands.append(
                {
                    "number": number,
                    "commitment": hand.get("commitment"),
                    "server_seed": revealed.get("server_seed") if over else None,
                    "entropy": revealed.get("entropy", {}) if over else {},
                    "seed": revealed.get("seed") if over else None,
                    "verified": (not hand_problems and "commitment" in hand) if over else None,
                    "problems": hand_problems,
                }
            )
    return {
        "over": over,
        "hands": hands,
        "problems": problems,
        "verified": over and bool(hands) and not problems,
        "next_commitment": None if over or game is None else game.next_commitment(),
    }
