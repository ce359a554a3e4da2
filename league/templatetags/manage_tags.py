"""Template helpers of the organiser pages and of the organiser controls on the public pages."""

from typing import Any

from django import template
from django.urls import NoReverseMatch, reverse
from django.utils.http import urlencode

from league import permissions

register = template.Library()


@register.filter
def claim_link(player: Any) -> str:
    """The address a guest opens to claim their player (the code filled in), when the site has a claim page."""
    try:
        path = reverse("player-claim", kwargs={"pk": player.pk})
    except NoReverseMatch:
        return ""
    return f"{path}?{urlencode({'code': player.claim_code})}"


@register.simple_tag(takes_context=True)
def can_manage_anything(context: dict) -> bool:
    request = context.get("request")
    return bool(request and permissions.can_manage_anything(request.user))


@register.simple_tag(takes_context=True)
def can_create_league(context: dict) -> bool:
    request = context.get("request")
    return bool(request and permissions.can_create_league(request.user))
