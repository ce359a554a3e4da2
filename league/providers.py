"""What league must ask of the games app, which it never imports: the rules its forms and checks offer and
validate, a player's online tables for their own page, who takes part in an event not finished yet, and
whether an event may be finished by hand.

Apps depend one way (`config` <- `league` <- `games` <- `tournaments`, see docs/architecture.md). Results are
not asked for: games and tournaments hand league the rows it needs (`event_results_rebuild(seats=...)`). What
league must still ask it asks of one typed object, `GamesProvider`, that the games app provides when it starts
(`GamesConfig.ready`).
"""

from typing import Any, NamedTuple, Protocol

from django.db.models import QuerySet


class RulesRefused(Exception):
    """The rules engine refused a set of game rules; the message says why."""


class StatusRefusal(NamedTuple):
    """Why an event's status may not be set by hand: the message (what to do instead), the API's error code and
    what the error's `extra` carries (the tables in play, say)."""

    message: str
    code: str
    extra: dict[str, Any]


class GamesProvider(Protocol):
    """The games app's answers to league, in plain values."""

    def resolve_rules(self, *, variant: str, preset: str, overrides: dict[str, Any]) -> dict[str, Any]:
        """The engine's full option set for these rules; raises `RulesRefused` with the engine's reason."""
        ...

    def rule_choices(self) -> dict[str, tuple[str, ...]]:
        """{variant: (preset, ...)} the engine plays."""
        ...

    def option_specs(self) -> list[dict[str, Any]]:
        """Every option of every variant: name, kind, choices, the variants that have it."""
        ...

    def player_tables(self, *, player_id: int) -> list[dict[str, Any]]:
        """The online tables a player sits at or sat at, newest first, as plain rows (id, name, league, event,
        status, seated: still at the table and the game not over, game: the league game's id once started)."""
        ...

    def event_tables(self, *, event_id: int) -> list[dict[str, Any]]:
        """The event's online and real-cards tables (its own and its tournament's) as plain rows: kind, name,
        status, url, tournament_table, game; what the event page lists beside the tables results are entered at."""
        ...

    def events_tables(self, *, event_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
        """`event_tables` of several events, by event id, in a fixed number of queries (a list of events)."""
        ...

    def taking_part(self, *, event_ids: list[int]) -> list[QuerySet]:
        """Who takes part in these events beyond their results: queries of `(event id, player id)` pairs (seated at
        an online or real-cards table, in a tournament's field), which league counts in its own query."""
        ...

    def finish_refusal(self, *, event_id: int) -> str | None:
        """Why an organiser may not finish this event by hand (a tournament not complete, tables still in play),
        or None."""
        ...

    def status_refusal(self, *, event_id: int, status: str) -> StatusRefusal | None:
        """Why an organiser may not set this event's status by hand (run as a tournament, it follows it; finished
        while a table's game is not over), or None."""
        ...


_games: GamesProvider | None = None


def provide_games(provider: GamesProvider) -> None:
    """Set the games app's provider (called once by `GamesConfig.ready`)."""
    global _games
    _games = provider


def games() -> GamesProvider:
    """The games app's provider; a clear error when the games app is not installed."""
    if _games is None:
        raise LookupError("No games provider: is the games app in INSTALLED_APPS?")
    return _games
