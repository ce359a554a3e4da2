"""Who may write what: site admins everything, a league's organisers within their league only."""

from typing import Any

from rest_framework.exceptions import NotFound, PermissionDenied

from league import selectors
from league.models import League, Player


def require_visible(user: Any, league: League) -> None:
    """A members-only league is invisible to non-members: 404, not 403."""
    if not selectors.can_see_league(user, league):
        raise NotFound("No such league.")


def require_organiser(user: Any, league: League) -> None:
    require_visible(user, league)
    if not selectors.is_organiser(user, league.pk):
        raise PermissionDenied(f"Only the organisers of {league.name} (or a site admin) may change this.")


def require_admin(user: Any) -> None:
    if not selectors.is_admin(user):
        raise PermissionDenied("Only site admins may change chip sets and buy-in policies.")


def require_player_editor(user: Any, player: Player) -> None:
    """A player edits their own profile; an unclaimed guest by whoever entered it or organises a league of theirs."""
    if selectors.is_admin(user):
        return
    if player.user_id is not None and player.user_id == user.pk:
        return
    if player.user_id is None and player.created_by_id == user.pk:
        return
    if player.user_id is None:
        roles = selectors.user_league_roles(user)
        leagues = player.memberships.values_list("league_id", flat=True)
        if any(roles.get(league_id) == "organiser" for league_id in leagues):
            return
    raise PermissionDenied("You may edit only your own player profile (or a guest you entered).")


def require_some_organiser(user: Any) -> None:
    from league.models import Role

    if selectors.is_admin(user) or Role.ORGANISER in selectors.user_league_roles(user).values():
        return
    raise PermissionDenied("Only league organisers and site admins may enter guest players.")
