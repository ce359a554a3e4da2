"""Template helpers of the organiser pages and of the organiser controls on the public pages."""

from typing import Any

from django import template
from django.urls import NoReverseMatch, reverse

from league import permissions

register = template.Library()


@register.filter
def claim_link(player: Any) -> str:
    """The address a guest opens to claim their player, the code filled in (the accounts' claim page)."""
    try:
        return reverse("player-claim", kwargs={"code": player.claim_code})
    except NoReverseMatch:  # a code the claim page's address cannot hold: the code alone is shown
        return ""


@register.simple_tag(takes_context=True)
def can_manage_anything(context: dict) -> bool:
    request = context.get("request")
    return bool(request and permissions.can_manage_anything(request.user))


@register.simple_tag(takes_context=True)
def organiser_link(context: dict) -> str:
    """The header's organiser link: "organiser" for a league's organisers and site admins (the organiser pages),
    "start" for someone the league-creation setting (LEAGUE_CREATORS) lets start a league, else ""."""
    request = context.get("request")
    if request is None:
        return ""
    if permissions.can_add_guests(request.user):  # an organiser of some league, or a site admin
        return "organiser"
    return "start" if permissions.can_create_league(request.user) else ""
