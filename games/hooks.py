"""Where a higher app (tournaments) listens to the games app without games importing it.

The tournaments app provides one `TournamentListener` when it starts (`TournamentsConfig.ready`); games calls
the functions below with plain values. Without a listener (no tournaments app), each does the plain thing.
"""

from typing import Any, Protocol

from django.db.models import QuerySet

from config.inputs import Actor


class TournamentListener(Protocol):
    """What a tournament app answers about its online and real-cards tables (see each function below)."""

    def players_out(self, *, event_id: int, table_id: int, hand: int, busts: list[dict[str, Any]]) -> None: ...

    def move_wanted(self, *, event_id: int, player_id: int, to_table: int) -> str | None: ...

    def rebuys_open(self, *, event_id: int, player_ids: list[int]) -> bool: ...

    def rebuy_offer(self, *, event_id: int, player_id: int, stack: int = 0) -> dict[str, Any] | None: ...

    def rebuy(self, *, actor: Actor, event_id: int, player_id: int) -> None: ...

    def table_finished(self, *, event_id: int, table_id: int, tournament_table: int) -> None: ...

    def place_rows(self, *, event_id: int) -> list[dict[str, Any]] | None: ...

    def level_now(self, *, event_id: int) -> dict[str, int] | None: ...

    def realcards_players_out(
        self, *, event_id: int, table_id: int, hand: int, busts: list[dict[str, Any]]
    ) -> None: ...

    def realcards_table_finished(self, *, event_id: int, table_id: int, tournament_table: int) -> None: ...

    def field(self, *, event_ids: list[int]) -> QuerySet: ...

    def finish_refusal(self, *, event_id: int) -> str | None: ...

    def status_refusal(self, *, event_id: int, status: str) -> str | None: ...

    def seated_tables(self, *, event_id: int) -> list[dict[str, int]]: ...


_listener: TournamentListener | None = None


def listen(listener: TournamentListener | None) -> None:
    """Set the tournament app's listener (None: no one listens)."""
    global _listener
    _listener = listener


def online_players_out(*, event_id: int, table_id: int, hand: int, busts: list[dict[str, Any]]) -> None:
    """Players of an online table ran out of credits at the end of `hand`: each bust is `player_id`,
    `knocked_out_by` (the player id of the winner of the pot they lost, or None) and `stack` (what they
    held when the hand started, for the order of places). Called after the commit; nothing listens
    unless a tournament app is installed."""
    if _listener is not None:
        _listener.players_out(event_id=event_id, table_id=table_id, hand=hand, busts=busts)


def online_move_wanted(*, event_id: int, player_id: int, to_table: int) -> str | None:
    """Whether a balancing move waiting for a hand break is still wanted: None when it is, else why not (the
    player is out, or the tournament seats them elsewhere now). Without a listener every move is wanted."""
    if _listener is None:
        return None
    return _listener.move_wanted(event_id=event_id, player_id=player_id, to_table=to_table)


def online_rebuys_open(*, event_id: int, player_ids: list[int]) -> bool:
    """Whether any of these players, out of chips at one of the event's tournament tables, may still re-buy
    (the tournament's re-buy period and rules): the table then waits for them instead of ending. Without a
    listener, no."""
    return bool(_listener.rebuys_open(event_id=event_id, player_ids=player_ids)) if _listener is not None else False


def online_rebuy_offer(*, event_id: int, player_id: int, stack: int = 0) -> dict[str, Any] | None:
    """What a player at a tournament's online table, `stack` chips in front of them, may re-buy now (`{"amount"}`:
    out of chips, or at or below the tournament's re-buy threshold), or None."""
    if _listener is None:
        return None
    return _listener.rebuy_offer(event_id=event_id, player_id=player_id, stack=stack)


def online_tournament_rebuy(*, actor: Actor, event_id: int, player_id: int) -> None:
    """A player's re-buy at a tournament's online table, booked by the tournament (its rules, its ledger line);
    the chips join their stack at the table's next hand break."""
    if _listener is None:
        from config.errors import ConflictError

        raise ConflictError("This table's re-buys are the tournament's, and no tournament takes them here.")
    _listener.rebuy(actor=actor, event_id=event_id, player_id=player_id)


def online_table_finished(*, event_id: int, table_id: int, tournament_table: int) -> None:
    """A tournament's online table finished (its game is in the league, with its replay). Called after the
    commit; a tournament whose tables play whole games (Halcyon) records the table's result."""
    if _listener is not None:
        _listener.table_finished(event_id=event_id, table_id=table_id, tournament_table=tournament_table)


def tournament_place_rows(*, event_id: int) -> list[dict[str, Any]] | None:
    """A completed tournament's final places as the seat rows league derives the event's results from, or None
    when the event is no completed tournament (its results then come from its games). Without a listener, None."""
    return _listener.place_rows(event_id=event_id) if _listener is not None else None


def tournament_level_now(*, event_id: int) -> dict[str, int] | None:
    """The forced bets a tournament's table plays its next hand at: `{"ante", "small_blind", "big_blind"}` from the
    clock's level in force (during a break, the level after it), or None when the clock sets none (no clock yet,
    a Halcyon table playing its preset's, no tournament). Asked by a real-cards table before each deal."""
    return _listener.level_now(event_id=event_id) if _listener is not None else None


def realcards_players_out(*, event_id: int, table_id: int, hand: int, busts: list[dict[str, Any]]) -> None:
    """Players of a tournament's real-cards table ran out of credits at the end of `hand` (each bust as in
    `online_players_out`). Called after the commit."""
    if _listener is not None:
        _listener.realcards_players_out(event_id=event_id, table_id=table_id, hand=hand, busts=busts)


def realcards_table_finished(*, event_id: int, table_id: int, tournament_table: int) -> None:
    """A tournament's real-cards table finished (its game is over). Called after the commit; a tournament whose
    tables play whole games (Halcyon) records the table's result."""
    if _listener is not None:
        _listener.realcards_table_finished(event_id=event_id, table_id=table_id, tournament_table=tournament_table)


def tournament_field(*, event_ids: list[int]) -> QuerySet | None:
    """(event id, player id) of the players in these events' tournaments' fields (registered or out, not
    waiting), as a query league counts with the events' results; None without a listener."""
    return _listener.field(event_ids=event_ids) if _listener is not None else None


def tournament_finish_refusal(*, event_id: int) -> str | None:
    """Why the event may not be finished by hand (it is run as a tournament that is not complete: the
    tournament finishes it), or None. Without a listener, None."""
    return _listener.finish_refusal(event_id=event_id) if _listener is not None else None


def tournament_status_refusal(*, event_id: int, status: str) -> str | None:
    """Why the event's status may not be set to `status` by hand (its tournament starts and ends it: Start and
    Reopen are the tournament's, Finish its Complete's), or None. Without a listener, None."""
    return _listener.status_refusal(event_id=event_id, status=status) if _listener is not None else None


def tournament_seated_tables(*, event_id: int) -> list[dict[str, int]]:
    """The tables the event's tournament seats players at now, in number order: `{"number", "seated"}` (how many
    are seated there). One query; empty when nobody is seated, the event is no tournament, or without a listener."""
    return _listener.seated_tables(event_id=event_id) if _listener is not None else []
