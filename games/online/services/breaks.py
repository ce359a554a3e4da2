"""Hand breaks and levels: the next hand dealt after the pause between hands (`next_hand`, the task's service),
which first takes a tournament's seat changes waiting for the break (`moves.hand_break`) and the level announced
since the last hand; and a tournament's new level reaching its event's tables (`level_changed`, called by the
tournament's clock).

A new level takes effect at a table's next hand. A table not yet started takes the level's blinds and ante into
its options (its first hand uses them). A running or paused game records the level as pending
(`OnlineTable.pending_levels`); `next_hand` applies it through the engine's `Game.set_levels` just before it deals,
under the table's lock, and clears it, so it is applied once. Announcing the same level again changes nothing.
"""

import logging
from typing import Any

from django.db import transaction

from config.events import publish
from games.engine import EngineError, Game
from games.engine.variant import get_variant
from games.online.models import OnlineTable, TableStatus
from games.online.services.base import load_game, lobby_topic, lock_table_if_any, table_topic
from games.online.services.clock import turn_key
from games.online.services.finish import end_at_break
from games.online.services.moves import hand_break, hand_ended
from games.online.services.presence import pause_when_nobody_is_there
from games.online.services.turns import changed

logger = logging.getLogger(__name__)


@transaction.atomic
def next_hand(*, table_id: int, version: int) -> bool:
    """Deal the next hand after the pause; nothing if the table changed since (paused, or dealt already)."""
    table = lock_table_if_any(table_id)
    if table is None or table.status != TableStatus.RUNNING or table.version != version:
        return False
    game = load_game(table)
    if not game.between_hands:
        return False
    if table.ending:  # its runner ended the game: it ends here, booked as it stands
        end_at_break(table, game)
        return False
    if pause_when_nobody_is_there(table, table.seats.all(), at_hand_break=True):
        return False
    before = turn_key(game)
    # A tournament's seat changes waiting for this hand break (moves, re-buys' chips), once, under the lock.
    if hand_break(table, game) and not game.can_start_hand():
        changed(table, game, before, what="seat_change")
        return False
    if not game.can_start_hand():
        return False
    _apply_pending_levels(table, game)
    game.start_hand()
    changed(table, game, before, fresh_turn=True, hand_ended=hand_ended)
    return True


def _apply_pending_levels(table: OnlineTable, game: Game) -> None:
    """A tournament's level announced since the last hand (`level_changed`, below): the engine takes it
    between hands, and it is cleared in the same transaction, so it is applied once."""
    pending = table.pending_levels
    if not pending:
        return
    amounts = {key: pending[key] for key in ("ante", "small_blind", "big_blind")}
    if not game.variant.has_blinds:
        # Corellian Spike, Classic: the level's ante is the hand-pot ante (a level without one keeps the ante in
        # force); blinds are not posted (docs/rules.md, "Tournament levels").
        amounts = {"ante": amounts["ante"] or game.levels.ante, "small_blind": 0, "big_blind": 0}
    try:
        game.set_levels(**amounts)
    except EngineError as exc:  # a structure validated by the tournament never gets here; keep playing
        logger.warning("Online table %s: level %s refused by the engine: %s", table.pk, pending, exc)
    table.pending_levels = None


@transaction.atomic
def level_changed(
    *, event_id: int, small_blind: int, big_blind: int, ante: int, level: int | None = None
) -> dict[str, Any]:
    """Apply a level to the event's open tables and make it pending at running ones; returns the table ids
    of each (a table that already has this level, applied or pending, is in neither)."""
    applied, told = [], []
    amounts = {"ante": ante, "small_blind": small_blind, "big_blind": big_blind}
    tables = OnlineTable.objects.select_for_update(no_key=True, of=("self",)).filter(
        event_id=event_id, status__in=(TableStatus.OPEN, TableStatus.RUNNING, TableStatus.PAUSED)
    )
    for table in tables.order_by("pk"):
        if table.status == TableStatus.OPEN:
            options = _level_options(table.variant, amounts)
            if all(table.options.get(key) == value for key, value in options.items()):
                continue
            table.options = {**table.options, **options}
            table.save(update_fields=["options", "updated_at"])
            applied.append(table.pk)
        else:
            pending = {"level": level, **amounts}
            if table.pending_levels == pending:
                continue
            # The version is left alone: the next-hand task already scheduled stays current.
            table.pending_levels = pending
            table.save(update_fields=["pending_levels", "updated_at"])
            told.append(table.pk)
        publish(table_topic(table.pk), {"table": table.pk, "version": table.version, "what": "level"})
    if applied or told:
        publish(lobby_topic(), {"event": event_id, "what": "level"})
    return {"applied": applied, "told": told}


def _level_options(variant: str, amounts: dict[str, int]) -> dict[str, int]:
    """A level as a table not yet started takes it into its options: a variant without blinds (Corellian Spike,
    Classic) takes only the ante, as its hand-pot ante, and keeps its own when the level has none."""
    if get_variant(variant).has_blinds:
        return amounts
    return {"ante": amounts["ante"]} if amounts["ante"] else {}
