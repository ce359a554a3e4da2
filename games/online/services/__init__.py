"""Writes of online play, one module per subject: open a table, take and leave seats, start, bots, pause, and
act (`tables`, `seats`, `acting`); what follows each change (`turns`), the scheduled tasks (`scheduled`), and the
end of the game (`finish`); what they share (`common`). Every public name is re-exported here, so
`from games.online import services` and `services.table_act(...)` keep working.

Every write locks the table row, loads the engine state, checks, applies, saves, bumps the table's `version`
and publishes an event after the commit. A refusal raises `ApplicationError` (or `ConflictError`) and writes
nothing. The engine is the only judge of what is legal.
"""

from games.online.services.acting import MAX_KEY_LENGTH, VERBS, table_act
from games.online.services.casual import casual_open
from games.online.services.common import lobby_topic, table_topic
from games.online.services.scheduled import bot_act, next_hand, turn_timeout
from games.online.services.seats import seat_entropy, seat_leave, seat_rebuy, seat_return, seat_take
from games.online.services.tables import (
    table_close,
    table_fill_bots,
    table_open,
    table_open_seated,
    table_pause,
    table_resume,
    table_start,
)
from games.online.services.turns import default_decision

__all__ = [
    "MAX_KEY_LENGTH",
    "VERBS",
    "bot_act",
    "casual_open",
    "default_decision",
    "lobby_topic",
    "next_hand",
    "seat_entropy",
    "seat_leave",
    "seat_rebuy",
    "seat_return",
    "seat_take",
    "table_act",
    "table_close",
    "table_fill_bots",
    "table_open",
    "table_open_seated",
    "table_pause",
    "table_resume",
    "table_start",
    "table_topic",
    "turn_timeout",
]
