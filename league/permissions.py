"""Who may do what, as plain predicates: the API's permission checks and the pages' buttons both ask these,
so the two always agree. Each takes the request's user (anonymous included) and returns a bool."""

from typing import Any

from django.conf import settings

from league import selectors
from league.models import League, Player

# Who may create a league: "anyone" signed in, or "staff" (site admins) only.
LEAGUE_CREATORS_CHOICES = ("anyone", "staff")


def league_creators() -> str:
    value = getattr(settings, "LEAGUE_CREATORS", "anyone")
    if value not in LEAGUE_CREATORS_CHOICES:
        raise ValueError(f"LEAGUE_CREATORS must be one of {', '.join(LEAGUE_CREATORS_CHOICES)}, not {value!r}.")
    return value


def is_admin(user: Any) -> bool:
    return selectors.is_admin(user)


def can_create_league(user: Any) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return is_admin(user) or league_creators() == "anyone"


def can_see_league(user: Any, league: League) -> bool:
    return selectors.can_see_league(user, league)


def can_manage_league(user: Any, league: League) -> bool:
    """Organisers of this league and site admins: seasons, members, events, results, corrections."""
    return getattr(user, "is_authenticated", False) and selectors.is_organiser(user, league.pk)


def can_add_guests(user: Any) -> bool:
    from league.models import Role

    return is_admin(user) or Role.ORGANISER in selectors.user_league_roles(user).values()


def can_edit_player(user: Any, player: Player) -> bool:
    """A player edits their own profile; a guest (unclaimed) is renamed by those who answer for it: the organisers
    of its leagues, whoever entered it and site admins (`selectors.owns_guest`)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if player.user_id is not None:
        return is_admin(user) or player.user_id == user.pk
    return selectors.owns_guest(user, player)


def can_see_claim_code(user: Any, player: Player) -> bool:
    """A guest's claim code (which hands the guest to whoever holds it) is for those who answer for the guest."""
    return player.user_id is None and selectors.owns_guest(user, player)


def can_configure_chips(user: Any) -> bool:
    """Chip sets and buy-in policies are site-wide: site admins only."""
    return is_admin(user)


def can_manage_event(user: Any, event: Any) -> bool:
    """Tables, start and finish, results and adjustments of an event: its league's organisers and site admins."""
    return can_manage_league(user, event.season.league)


def can_manage_game(user: Any, game: Any) -> bool:
    """Corrections of a recorded game: its league's organisers and site admins."""
    return can_manage_event(user, game.event)


def can_manage_anything(user: Any) -> bool:
    """Whether the organiser pages have anything to offer: an organiser of some league, a site admin,
    or someone allowed to create a league."""
    return can_add_guests(user) or can_create_league(user)
