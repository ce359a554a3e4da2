"""What the games app gives the league app through `league.hooks` (league never imports games), and where
a higher app (tournaments) listens to games without games importing it."""

from collections.abc import Callable
from typing import Any

from league import hooks

# Listeners registered by higher apps (tournaments' AppConfig.ready), called by games with plain values.
_listeners: dict[str, Callable[..., Any]] = {}


def listen(**functions: Callable[..., Any]) -> None:
    """Register listeners by name (`online_players_out`, `online_table_finished`)."""
    _listeners.update(functions)


def online_players_out(*, event_id: int, table_id: int, hand: int, busts: list[dict[str, Any]]) -> None:
    """Players of an online table ran out of credits at the end of `hand`: each bust is `player_id`,
    `knocked_out_by` (the player id of the winner of the pot they lost, or None) and `stack` (what they
    held when the hand started, for the order of places). Called after the commit; nothing listens
    unless a tournament app is installed."""
    function = _listeners.get("online_players_out")
    if function is not None:
        function(event_id=event_id, table_id=table_id, hand=hand, busts=busts)


def online_move_wanted(*, event_id: int, player_id: int, to_table: int) -> str | None:
    """Whether a balancing move waiting for a hand break is still wanted: None when it is, else why not (the
    player is out, or the tournament seats them elsewhere now). Without a listener every move is wanted."""
    function = _listeners.get("online_move_wanted")
    return function(event_id=event_id, player_id=player_id, to_table=to_table) if function is not None else None


def online_rebuys_open(*, event_id: int, player_ids: list[int]) -> bool:
    """Whether any of these players, out of chips at one of the event's tournament tables, may still re-buy
    (the tournament's re-buy period and rules): the table then waits for them instead of ending. Without a
    listener, no."""
    function = _listeners.get("online_rebuys_open")
    return bool(function(event_id=event_id, player_ids=player_ids)) if function is not None else False


def online_rebuy_offer(*, event_id: int, player_id: int, stack: int = 0) -> dict[str, Any] | None:
    """What a player at a tournament's online table, `stack` chips in front of them, may re-buy now (`{"amount"}`:
    out of chips, or at or below the tournament's re-buy threshold), or None."""
    function = _listeners.get("online_rebuy_offer")
    return function(event_id=event_id, player_id=player_id, stack=stack) if function is not None else None


def online_tournament_rebuy(*, actor: Any, event_id: int, player_id: int) -> None:
    """A player's re-buy at a tournament's online table, booked by the tournament (its rules, its ledger line);
    the chips join their stack at the table's next hand break."""
    function = _listeners.get("online_tournament_rebuy")
    if function is None:
        from config.errors import ConflictError

        raise ConflictError("This table's re-buys are the tournament's, and no tournament takes them here.")
    function(actor=actor, event_id=event_id, player_id=player_id)


def online_table_finished(*, event_id: int, table_id: int, tournament_table: int) -> None:
    """A tournament's online table finished (its game is in the league, with its replay). Called after the
    commit; a tournament whose tables play whole games (Halcyon) records the table's result."""
    function = _listeners.get("online_table_finished")
    if function is not None:
        function(event_id=event_id, table_id=table_id, tournament_table=tournament_table)


def resolve_rules(*, variant: str, preset: str, overrides: dict[str, Any]) -> dict[str, Any]:
    from games.engine import EngineError, resolve_options

    try:
        return resolve_options(variant, preset, overrides)
    except EngineError as exc:
        raise hooks.RulesRefused(str(exc)) from exc


def rule_choices() -> dict[str, tuple[str, ...]]:
    from games.engine.options import variant_presets

    return variant_presets()


def finished_seat_rows(*, event_id: int) -> list[dict[str, Any]]:
    from django.db.models import F

    from games.models import GameStatus, Seat

    return list(
        Seat.objects.filter(game__event_id=event_id, game__status=GameStatus.FINISHED)
        .order_by("game__round", "game_id", "number")
        .values("player_id", "place", "buy_in", "rebuys", "knockouts", "biggest_pot", round=F("game__round"))
    )


def player_tables(*, player_id: int) -> list[dict[str, Any]]:
    from games.online.models import OnlineSeat, TableStatus

    rows = (
        OnlineSeat.objects.filter(player_id=player_id)
        .order_by("-table__created_at", "-table_id")
        .values(
            "left",
            "table_id",
            "table__name",
            "table__status",
            "table__game_id",
            "table__event__name",
            "table__event__season__league__name",
        )[:200]
    )
    return [
        {
            "id": row["table_id"],
            "name": row["table__name"],
            "league": row["table__event__season__league__name"],
            "event": row["table__event__name"],
            "status": row["table__status"],
            "seated": not row["left"] and row["table__status"] != TableStatus.FINISHED,
            "game": row["table__game_id"],
        }
        for row in rows
    ]


def register() -> None:
    from games.demo import bot_replay
    from games.online.services import table_open
    from games.services import result_record, table_create

    hooks.register(
        resolve_rules=resolve_rules,
        rule_choices=rule_choices,
        finished_seat_rows=finished_seat_rows,
        result_record=result_record,
        table_create=table_create,
        bot_replay=bot_replay,
        online_table_open=table_open,
        player_tables=player_tables,
    )
