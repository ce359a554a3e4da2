"""The API's permission checks: each asks a predicate of `league.permissions`, the module the site's
pages ask too, so the API and the pages always agree on who may do what."""

from typing import Any

from rest_framework.exceptions import NotFound, PermissionDenied

from league import permissions
from league.models import League, Player

NOT_FOUND = "Not found."


def require_visible(user: Any, league: League) -> None:
    """A members-only league is invisible to non-members: the same 404 as a league that does not exist."""
    if not permissions.can_see_league(user, league):
        raise NotFound(NOT_FOUND)


def require_organiser(user: Any, league: League) -> None:
    require_visible(user, league)
    if not permissions.can_manage_league(user, league):
        raise PermissionDenied(f"Only the organisers of {league.name} (or a site admin) may change this.")


def require_admin(user: Any) -> None:
    if not permissions.can_configure_chips(user):
        raise PermissionDenied("Only site admins may change chip sets and buy-in policies.")


def require_player_editor(user: Any, player: Player) -> None:
    """A player edits their own profile; an unclaimed guest by whoever entered it or organises a league of theirs."""
    if not permissions.can_edit_player(user, player):
        raise PermissionDenied("You may edit only your own player profile (or a guest you entered).")


def require_some_organiser(user: Any) -> None:
    if not permissions.can_add_guests(user):
        raise PermissionDenied("Only league organisers and site admins may enter guest players.")


def require_league_creator(user: Any) -> None:
    if not permissions.can_create_league(user):
        raise PermissionDenied("On this site only site admins may create leagues; ask one to create yours.")
