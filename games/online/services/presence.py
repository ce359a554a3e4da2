"""Whether anybody is at a table: a table whose every seated person is away pauses itself, so that its bots do not
play it out for nobody (nor keep the worker busy): a casual game at once (`acting.turn_timeout`), a league table at
its next hand break (`breaks.next_hand`). A person coming back (`seats.seat_return`) or the runner's Resume starts
it again. A tournament's table plays on: its clock acts for the away players, as its organisers expect."""

import logging
from typing import Any

from games.online.models import OnlineTable, TableStatus
from games.online.services.base import announce
from games.online.services.clock import stop

logger = logging.getLogger(__name__)

NOBODY = "nobody"  # `OnlineTable.paused_for`: the table paused itself, every person away


def nobody_is_there(seats: Any) -> bool:
    """Every person seated (not a bot, not gone) is away; a table of bots alone is not "nobody there" here."""
    people = [seat for seat in seats if not seat.is_bot and not seat.left]
    return bool(people) and all(seat.away for seat in people)


def pause_when_nobody_is_there(table: OnlineTable, seats: Any, *, at_hand_break: bool) -> bool:
    """Pause the (locked) table when nobody is there: a casual game whenever it is asked, a league table only at
    a hand break (its hand is played out by the clock first). Returns whether it paused."""
    if table.status != TableStatus.RUNNING or table.tournament_table is not None:
        return False
    if not (table.is_casual or at_hand_break) or not nobody_is_there(seats):
        return False
    table.status = TableStatus.PAUSED
    table.paused_for = NOBODY
    stop(table)
    table.version += 1
    table.save(update_fields=["status", "paused_for", "deadline", "version", "updated_at"])
    logger.info("Online table %s paused itself: every person at it is away (nobody is there to play)", table.pk)
    announce(table, "paused")
    return True
