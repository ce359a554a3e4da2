"""What the scheduled tasks do (`games.online.tasks` calls these with ids; each is safe to run twice or
late): the turn clock running out, a bot's decision, and the next hand after the pause between hands, which
first takes a tournament's hand break and its pending level."""

import logging
import random
import secrets

from django.db import transaction

from games.engine import EngineError, Game
from games.engine.bots import BOTS
from games.online.models import ActionSource, OnlineTable, SeatKind, TableStatus
from games.online.services.acting import _apply
from games.online.services.common import _load, _lock_if_any
from games.online.services.turns import _changed, _engine_seats, _turn_key, default_decision

logger = logging.getLogger(__name__)


@transaction.atomic
def turn_timeout(*, table_id: int, turn_version: int) -> int:
    """The turn clock ran out: act for every player still awaited at `turn_version`, once.

    Returns how many seats were acted for (0 when the decision was already made or the table paused)."""
    table = _lock_if_any(table_id)
    if table is None or table.status != TableStatus.RUNNING or table.turn_version != turn_version:
        return 0
    game = _load(table)
    seats = _engine_seats(table)
    acted = 0
    for engine_seat in game.waiting_for():
        if table.turn_version != turn_version or engine_seat not in game.waiting_for():
            break
        seat = seats[engine_seat]
        if seat.is_bot:
            continue
        seat.timeouts += 1
        seat.away = seat.away or seat.timeouts >= 2
        seat.save(update_fields=["timeouts", "away"])
        _apply(
            table,
            game,
            seat,
            default_decision(game, engine_seat),
            source=ActionSource.TIMEOUT,
            key=f"timeout:{turn_version}:{seat.number}",
        )
        acted += 1
    return acted


@transaction.atomic
def bot_act(*, table_id: int, seat_number: int, turn_version: int) -> bool:
    """A bot's decision, from its seat's view only; nothing when it is no longer the bot's decision."""
    table = _lock_if_any(table_id)
    if table is None or table.status != TableStatus.RUNNING or table.turn_version != turn_version:
        return False
    seat = next((s for s in table.seats.all() if s.number == seat_number and s.kind == SeatKind.BOT), None)
    if seat is None:
        return False
    game = _load(table)
    # Under the lock, the engine says whether the bot is still awaited: a repeat of this task, or one for a
    # decision the bot made already, finds it is not (the action's unique key backs this up).
    if seat.engine_seat not in game.waiting_for():
        return False
    key = f"bot:{turn_version}:{seat_number}"
    bot = BOTS[seat.bot_kind](random.Random(secrets.randbits(64)))
    decision = bot.decide(game.view_for(seat.engine_seat))
    _apply(table, game, seat, decision, source=ActionSource.BOT, key=key)
    return True


@transaction.atomic
def next_hand(*, table_id: int, version: int) -> bool:
    """Deal the next hand after the pause; nothing if the table changed since (paused, or dealt already)."""
    table = _lock_if_any(table_id)
    if table is None or table.status != TableStatus.RUNNING or table.version != version:
        return False
    game = _load(table)
    if not game.between_hands:
        return False
    before = _turn_key(game)
    # A tournament's seat changes waiting for this hand break (moves, re-buys' chips), once, under the lock.
    from games.online.tournament import hand_break

    if hand_break(table, game) and not game.can_start_hand():
        _changed(table, game, before, what="seat_change")
        return False
    if not game.can_start_hand():
        return False
    _apply_pending_levels(table, game)
    game.start_hand()
    _changed(table, game, before, fresh_turn=True)
    return True


def _apply_pending_levels(table: OnlineTable, game: Game) -> None:
    """A tournament's level announced since the last hand (games.online.tournament): the engine takes it
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
