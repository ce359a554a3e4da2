"""Every write to the league models: keyword-only, atomic, audited, locked in the app's one lock order
(`league.services.locks`); events and tasks after commit.

One module per subject; every public name is re-exported here, so `from league import services`
and `services.league_create(...)` keep working.
"""

from league.services.chips import buy_in_policy_check, buy_in_policy_create, chip_set_create
from league.services.common import ALL_TIME, Refusals, audit, plain, refuse_unknown_fields, season_scope
from league.services.events import (
    EVENT_FIELDS,
    credit_limits_check,
    effective_buy_in_policy,
    effective_chip_set,
    event_create,
    event_update,
    ledger_adjust,
    ledger_book,
)
from league.services.leagues import (
    LEAGUE_FIELDS,
    SEASON_FIELDS,
    league_create,
    league_fields_check,
    league_update,
    membership_add,
    membership_remove,
    membership_update,
    season_create,
    season_fields_check,
    season_update,
)
from league.services.locks import LOCK_ORDER, lock_event, lock_league, lock_season
from league.services.players import (
    guest_namesakes,
    player_claim,
    player_create,
    player_for_user,
    player_update,
    refuse_namesake,
)
from league.services.rules import (
    check_rules,
    check_season_rules,
    league_settings_check,
    resolve_game_rules,
    season_rules,
    season_settings_check,
    standings_rules_check,
)
from league.services.standings import (
    SeatRow,
    event_credits_refresh,
    event_results_rebuild,
    standings_payload,
    standings_recompute,
    standings_schedule,
)
from league.services.versions import bump_data_version, event_data_changed, league_data_changed

__all__ = [
    "ALL_TIME",
    "EVENT_FIELDS",
    "LEAGUE_FIELDS",
    "LOCK_ORDER",
    "SEASON_FIELDS",
    "Refusals",
    "SeatRow",
    "audit",
    "bump_data_version",
    "buy_in_policy_check",
    "buy_in_policy_create",
    "check_rules",
    "check_season_rules",
    "chip_set_create",
    "credit_limits_check",
    "effective_buy_in_policy",
    "effective_chip_set",
    "event_create",
    "event_credits_refresh",
    "event_data_changed",
    "event_results_rebuild",
    "event_update",
    "guest_namesakes",
    "league_create",
    "league_data_changed",
    "league_fields_check",
    "league_settings_check",
    "league_update",
    "ledger_adjust",
    "ledger_book",
    "lock_event",
    "lock_league",
    "lock_season",
    "membership_add",
    "membership_remove",
    "membership_update",
    "plain",
    "player_claim",
    "player_create",
    "player_for_user",
    "player_update",
    "refuse_namesake",
    "refuse_unknown_fields",
    "resolve_game_rules",
    "season_create",
    "season_fields_check",
    "season_rules",
    "season_scope",
    "season_settings_check",
    "season_update",
    "standings_payload",
    "standings_recompute",
    "standings_rules_check",
    "standings_schedule",
]
