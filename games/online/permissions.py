"""Who may do what at an online table: plain predicates asked by the pages and the API alike."""

import secrets
from typing import Any

from django.db.models import Q

import league.services  # noqa: F401 (loaded before league.selectors, which imports it back: the services first)
from config.errors import ApplicationError
from games.online.models import MIN_SEATS
from league import permissions, selectors
from league.models import League

NOBODY_SEATED = (
    "Nobody is seated at this game: a casual game is played by people, and its bots do not play it out for nobody. "
    "Take a seat to start it, or close it."
)
TOO_FEW_SEATS = f"A game needs at least {MIN_SEATS} seats taken; take seats or fill them with bots."


class NotAllowed(ApplicationError):
    """The user may not do this here (403); the message says who may."""

    status_code = 403
    code = "permission_denied"


# What a table nobody may see answers, whether it is missing, of a league they cannot see, or a casual game asked for
# without its invite token: the same words, so a guessed number tells nothing.
NO_SUCH_TABLE = "No such table (or it belongs to a league you cannot see, or is a casual game not yours)."


class NoSuchTable(ApplicationError):
    """A table the user may not see (404), worded as one that does not exist (`NO_SUCH_TABLE`)."""

    status_code = 404
    code = "not_found"

    def __init__(self, message: str = NO_SUCH_TABLE) -> None:
        super().__init__(message)


def invite_matches(table: Any, given: Any) -> bool:
    """Whether `given` is the casual game's invite token (its share link's key), compared in constant time."""
    token = getattr(table, "invite", "")
    return bool(token) and isinstance(given, str) and secrets.compare_digest(given.encode(), token.encode())


def can_open_table(user: Any, league: League) -> bool:
    """Organisers of the league (and site admins) open tables; members too where the league allows it
    (`League.members_may_open_tables`)."""
    if permissions.can_manage_league(user, league):
        return True
    if not league.members_may_open_tables or not getattr(user, "is_authenticated", False):
        return False
    return selectors.user_player_id(user) is not None and league.pk in selectors.user_league_roles(user)


def check_can_open(user: Any, league: League) -> None:
    if not can_open_table(user, league):
        if league.members_may_open_tables:
            raise NotAllowed(f"Only members and organisers of {league} can open tables; join the league first.")
        raise NotAllowed(
            f"Only organisers of {league} can open tables (its organisers have not let members open them)."
        )


def can_run_table(user: Any, table: Any) -> bool:
    """Start, fill with bots, pause, resume, end and close: the league's organisers and site admins; a casual game's
    host; and at a league table a member opened (`League.members_may_open_tables`), that member, its host, while
    they are a member (not other members). Page and API ask this one function."""
    if table.event_id is None:
        return getattr(user, "is_authenticated", False) and (user.pk == table.created_by_id or user.is_staff)
    league = table.event.season.league
    if permissions.can_manage_league(user, league):
        return True
    return is_host(user, table) and league.pk in selectors.user_league_roles(user)


def is_host(user: Any, table: Any) -> bool:
    """Whether `user` opened `table` (a tournament's tables are its organisers' alone)."""
    return (
        getattr(user, "is_authenticated", False)
        and table.created_by_id is not None
        and user.pk == table.created_by_id
        and table.tournament_table is None
    )


def has_person(seats: Any) -> bool:
    """Whether a person (not a bot) sits in one of `seats`: a casual game is started only with one, since its bots
    do not play it out for nobody (a league's table may be all bots: the organisers run those)."""
    return any(seat.kind == "player" and not seat.left for seat in seats)


def start_refusal(table: Any, seats: Any) -> str | None:
    """Why the game of this open table cannot start with these seats now (None: it can), the same words on the
    page (a disabled "Start the game" and its reason) and in the service's 409: a casual game needs a person seated
    (its start fills the other seats with bots), a league's table two seats taken, people's or bots'."""
    seated = [seat for seat in seats if not seat.left]
    if table.event_id is None:
        return None if has_person(seated) else NOBODY_SEATED
    return TOO_FEW_SEATS if len(seated) < MIN_SEATS else None


def can_watch_table(user: Any, table: Any, invite: str | None = None) -> bool:
    """A league's table: whoever sees the league. A casual game: its host, its players and site admins; before it
    starts, anyone signed in who gives its invite token (`invite`, from its share link: to join it)."""
    if table.event_id is None:
        if not getattr(user, "is_authenticated", False):
            return False
        if is_participant(user, table) or user.is_staff:
            return True
        return table.status == "open" and invite_matches(table, invite)
    return permissions.can_see_league(user, table.event.season.league)


def is_participant(user: Any, table: Any) -> bool:
    """The host of a casual game or anyone who sat at it."""
    if not getattr(user, "is_authenticated", False):
        return False
    return user.pk == table.created_by_id or any(seat.user_id == user.pk for seat in table.seats.all())


def seat_filter(user: Any) -> Q:
    """The seats that are `user`'s: their league player's, or their account's at a casual game."""
    if not getattr(user, "is_authenticated", False):
        return Q(pk__in=[])
    player_id = selectors.user_player_id(user)
    return Q(user_id=user.pk) | (Q(player_id=player_id) if player_id is not None else Q(pk__in=[]))


def is_own_seat(user: Any, seat: Any) -> bool:
    """`seat_filter` for a seat already read."""
    if not getattr(user, "is_authenticated", False):
        return False
    player_id = selectors.user_player_id(user)
    return seat.user_id == user.pk or (player_id is not None and seat.player_id == player_id)


def can_sit(user: Any, table: Any) -> bool:
    """Members of the league (players and organisers) with a player profile may take a seat."""
    return sit_refusal(user, table) is None


def sit_refusal(user: Any, table: Any) -> str | None:
    """Why `user` may not take a seat at `table` (None when they may): what they lack and how to get it."""
    if table.event_id is None:  # a casual game: anyone signed in, no league player needed
        return None if getattr(user, "is_authenticated", False) else "Sign in (or sign up) to join this game."
    if not getattr(user, "is_authenticated", False):
        return f"Sign in to take a seat; members of {table.event.season.league} play here."
    if selectors.user_player_id(user) is None:
        return (
            f"Your account is not a player of {table.event.season.league} yet (no player profile): ask one of its "
            "organisers to add you as a member, or for a claim code to claim the player they keep for you."
        )
    if table.event.season.league_id not in selectors.user_league_roles(user):
        return (
            f"Only members of {table.event.season.league} can sit at this table: ask its organisers to add you "
            "as a member."
        )
    return None
