"""Writes of online play, one module per subject (docs/architecture.md, "games/online"): the table's lifecycle
(`tables`), a player's seat (`seats`), a casual game (`casual`), decisions of players, bots and the clock
(`acting`), the turn clock and what is due next (`clock`), what follows every change (`turns`), hand breaks and
levels (`breaks`), moves between a tournament's tables and chips on their way (`moves`), the end of a game
(`finish`), and the base they share: lock, load, save, announce (`base`). Every public name is re-exported here:
`from games.online import services` and `services.table_act(...)` are how other apps call online play.

Every write locks the table row, loads the engine state, checks, applies, saves, bumps the table's `version`
and publishes an event after the commit. A refusal raises `ApplicationError` (or `ConflictError`) and writes
nothing. The engine is the only judge of what is legal.
"""

from games.online.services.acting import MAX_KEY_LENGTH, VERBS, bot_act, table_act, turn_timeout
from games.online.services.base import lobby_topic, table_topic
from games.online.services.breaks import level_changed, next_hand
from games.online.services.casual import casual_open
from games.online.services.clock import default_decision
from games.online.services.moves import arrivals, change_cancel, rebuy_queue, seat_move, tables_settle
from games.online.services.seats import seat_entropy, seat_leave, seat_rebuy, seat_return, seat_take
from games.online.services.tables import (
    table_close,
    table_end,
    table_fill_bots,
    table_open,
    table_open_seated,
    table_pause,
    table_resume,
    table_start,
)

__all__ = [
    "MAX_KEY_LENGTH",
    "VERBS",
    "arrivals",
    "bot_act",
    "casual_open",
    "change_cancel",
    "default_decision",
    "level_changed",
    "lobby_topic",
    "next_hand",
    "rebuy_queue",
    "seat_entropy",
    "seat_leave",
    "seat_move",
    "seat_rebuy",
    "seat_return",
    "seat_take",
    "table_act",
    "table_close",
    "table_end",
    "table_fill_bots",
    "table_open",
    "table_open_seated",
    "table_pause",
    "table_resume",
    "table_start",
    "table_topic",
    "tables_settle",
    "turn_timeout",
]
