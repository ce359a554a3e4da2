"""Every write to a tournament, one module per subject; every public name is re-exported here, so
`from tournaments import services` and `services.tournament_register(...)` keep working. The reads a service
uses (the clock, the prize pool, the payout table, the revealed seed) live in `tournaments.selectors`, re-exported
here too."""

from tournaments.selectors import entry_count, payout_table, prize_pool, revealed_seed, tournament_clock
from tournaments.services.clock import (
    clock_tick_due,
    tournament_clock_move,
    tournament_clock_pause,
    tournament_clock_start,
    tournament_clock_tick,
)
from tournaments.services.common import MAX_STACK, clock_topic
from tournaments.services.eliminations import tournament_eliminate, tournament_eliminate_undo
from tournaments.services.halcyon import (
    tournament_halcyon_online_open,
    tournament_halcyon_online_record,
    tournament_halcyon_online_result,
    tournament_halcyon_table,
    tournament_halcyon_table_entered,
)
from tournaments.services.online import (
    tournament_online_busts,
    tournament_online_move_cancel,
    tournament_online_moves,
    tournament_online_table_open,
)
from tournaments.services.realcards import (
    tournament_realcards_busts,
    tournament_realcards_open,
    tournament_realcards_result,
)
from tournaments.services.rebuys import tournament_rebuy
from tournaments.services.registration import (
    check_structure,
    tournament_call_off,
    tournament_create,
    tournament_register,
    tournament_unregister,
)
from tournaments.services.results import (
    deal_preview,
    tournament_complete,
    tournament_deal,
    tournament_payouts_set,
)
from tournaments.services.seats import tournament_balance, tournament_draw, tournament_publish_seed
from tournaments.services.structure import structure_preset, tournament_structure_set

__all__ = [
    "MAX_STACK",
    "check_structure",
    "clock_tick_due",
    "clock_topic",
    "deal_preview",
    "entry_count",
    "payout_table",
    "prize_pool",
    "revealed_seed",
    "structure_preset",
    "tournament_balance",
    "tournament_call_off",
    "tournament_clock",
    "tournament_clock_move",
    "tournament_clock_pause",
    "tournament_clock_start",
    "tournament_clock_tick",
    "tournament_complete",
    "tournament_create",
    "tournament_deal",
    "tournament_draw",
    "tournament_eliminate",
    "tournament_eliminate_undo",
    "tournament_halcyon_online_open",
    "tournament_halcyon_online_record",
    "tournament_halcyon_online_result",
    "tournament_halcyon_table",
    "tournament_halcyon_table_entered",
    "tournament_online_busts",
    "tournament_online_move_cancel",
    "tournament_online_moves",
    "tournament_online_table_open",
    "tournament_payouts_set",
    "tournament_publish_seed",
    "tournament_realcards_busts",
    "tournament_realcards_open",
    "tournament_realcards_result",
    "tournament_rebuy",
    "tournament_register",
    "tournament_structure_set",
    "tournament_unregister",
]
