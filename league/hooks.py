"""Where the league app needs something of a higher app (games), without importing it.

Apps depend one way: `config` <- `league` <- `games`. When league must ask about games
(the engine's rules, the seats of an event's finished games) or the demo must record
a game, the games app registers plain functions here when it starts
(`GamesConfig.ready`), and league calls them with plain values.
"""

from collections.abc import Callable
from typing import Any

_registry: dict[str, Callable[..., Any]] = {}


class RulesRefused(Exception):
    """The rules engine refused a set of game rules; the message says why."""


def register(**functions: Callable[..., Any]) -> None:
    """Register the named functions (called by a higher app's AppConfig.ready)."""
    _registry.update(functions)


def get(name: str) -> Callable[..., Any]:
    try:
        return _registry[name]
    except KeyError:
        raise LookupError(f"No {name!r} hook is registered: is the games app in INSTALLED_APPS?") from None


def resolve_rules(*, variant: str, preset: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """The engine's full option set for these rules; raises RulesRefused with the engine's reason."""
    return get("resolve_rules")(variant=variant, preset=preset, overrides=overrides)


def rule_choices() -> dict[str, tuple[str, ...]]:
    """{variant: (preset, ...)} the engine plays."""
    return get("rule_choices")()


def finished_seat_rows(*, event_id: int) -> list[dict[str, Any]]:
    """The seats of an event's finished games as plain rows (player_id, round, place, buy_in, rebuys,
    knockouts, biggest_pot), ordered by round, game and seat number."""
    return get("finished_seat_rows")(event_id=event_id)


def player_tables(*, player_id: int) -> list[dict[str, Any]]:
    """The online tables a player sits at or sat at, newest first, as plain rows (id, name, league, event,
    status, seated: still at the table and the game not over, game: the league game's id once started)."""
    return get("player_tables")(player_id=player_id)


def event_place_rows(*, event_id: int) -> list[dict[str, Any]] | None:
    """A tournament's final places as seat rows (see `finished_seat_rows`), or None when the event is no
    tournament with places: then the event's results come from its games. Registered by tournaments."""
    function = _registry.get("event_place_rows")
    return function(event_id=event_id) if function is not None else None


def demo_extend(out: Any) -> None:
    """Let a higher app add to the demo (tournaments: a tournament night in progress); idempotent."""
    function = _registry.get("demo_extend")
    if function is not None:
        function(out=out)
