"""A league event's real-cards table: who may open one (the league's organisers), its rules and starting credits
(the league's, and the event's buy-in), and its seats (the league's players only: no guests).

Checks only: the writes are `services.py`'s, which call these under the table's lock."""

from typing import Any

from config.errors import ApplicationError, ConflictError
from config.inputs import Actor, signed_in
from games.tabletop.models import RealSeat, RealTable
from games.tabletop.permissions import NotAllowed
from league.models import Event, EventKind, EventStatus, Membership, Player
from league.permissions import can_manage_league
from league.selectors import user_player_id
from league.services import effective_buy_in_policy, resolve_game_rules

MAX_NAME = 40


def check_can_open(actor: Actor, event: Event) -> None:
    """Only an organiser of the event's league opens its real-cards tables (the pages and the API alike)."""
    league = event.season.league
    if not signed_in(actor):
        raise NotAllowed(f"Sign in as an organiser of {league} to open a real-cards table at {event}.")
    if not can_manage_league(actor, league):
        raise NotAllowed(f"Only organisers of {league} open real-cards tables at its events.")
    if event.kind != EventKind.GAME:
        raise ConflictError(
            f"{event} is a tournament: its physical tables are opened from the tournament's control room; a league "
            "real-cards table belongs to a single-game event."
        )
    if event.status == EventStatus.FINISHED:
        raise ConflictError(f"{event} is finished; open a table at an event that is planned or running.")


def league_rules(
    event: Event, *, variant: str | None, preset: str | None, options: dict | None
) -> tuple[str, str, dict, int]:
    """(variant, preset, option overrides, starting credits) of a league table: the league's (or season's) rules
    unless given, checked by the engine as online tables' are; the starting credits are the event's buy-in (the
    rules' starting stack when the event has none), as an online league table's."""
    season, league = event.season, event.season.league
    variant = variant or season.variant or league.variant
    preset = preset or season.preset or league.preset
    if options is None:
        options = {**league.option_overrides, **season.option_overrides}
    if not isinstance(options, dict):
        raise ApplicationError(
            'options is an object of option overrides, like {"ante": 2}.', extra={"field": "options"}
        )
    resolved = resolve_game_rules(variant=variant, preset=preset, overrides=options)
    policy = effective_buy_in_policy(event)
    starting = policy.buy_in if policy and policy.buy_in else int(resolved["starting_stack"])
    return variant, preset, options, starting


def _member(league_id: int, player_id: int | None) -> bool:
    return player_id is not None and Membership.objects.filter(league_id=league_id, player_id=player_id).exists()


def _seat_name(table: RealTable, player: Player) -> str:
    """The player's name (cut to a seat's length); a second player of the same name gets their number added."""
    name = " ".join(player.display_name.split())[:MAX_NAME] or f"Player {player.pk}"
    taken = set(table.seats.values_list("name", flat=True))
    if name in taken:
        suffix = f" #{player.pk}"
        name = name[: MAX_NAME - len(suffix)] + suffix
    return name


def _not_seated(table: RealTable, player: Player) -> None:
    seat = RealSeat.objects.filter(table=table, player=player).first()
    if seat is not None:
        raise ConflictError(f"{player.display_name} is already seated here, at seat {seat.number + 1}.")


def joining_player(table: RealTable, actor: Actor) -> dict:
    """The seat fields of a signed-in league member joining by the code or the QR: their league player."""
    league = table.event.season.league
    if not signed_in(actor):
        raise NotAllowed(
            f"This table plays a game of {league}: its seats are the league's players, so guests cannot sit here. "
            "Sign in with your account (or ask the host to seat you)."
        )
    player_id = user_player_id(actor)
    if not _member(league.pk, player_id):
        raise NotAllowed(
            f"This table plays a game of {league}: only its members sit here. Join {league} first, or ask an "
            "organiser to add you."
        )
    player = Player.objects.get(pk=player_id)
    _not_seated(table, player)
    return {"name": _seat_name(table, player), "player": player, "user": actor}


def added_player(table: RealTable, player_id: Any) -> dict:
    """The seat fields of a league member the host seats (someone with no phone), picked from the league's
    players."""
    league = table.event.season.league
    if isinstance(player_id, bool) or not isinstance(player_id, int):
        raise ApplicationError(
            f"Pick the player to seat from the players of {league} (a player id).", extra={"field": "player"}
        )
    player = Player.objects.filter(pk=player_id, memberships__league=league).first()
    if player is None:
        raise ApplicationError(
            f"Player {player_id} is not a member of {league}: only its members are seated here.",
            extra={"field": "player"},
        )
    _not_seated(table, player)
    user = player.user_id if player.user_id and not table.seats.filter(user_id=player.user_id).exists() else None
    return {"name": _seat_name(table, player), "player": player, "user_id": user}


def league_players(table: RealTable) -> list[Player]:
    """The league's players the host may still seat (those not seated yet), by name."""
    seated = table.seats.exclude(player=None).values_list("player_id", flat=True)
    return list(
        Player.objects.filter(memberships__league_id=table.event.season.league_id)
        .exclude(pk__in=seated)
        .order_by("display_name", "pk")
    )
