"""`{% play_now_form %}`: the one-click "Play now" form (a casual game against bots), on the home page and the
lobby, with the same choices and defaults wherever it shows."""

from django import template

register = template.Library()


@register.inclusion_tag("tables/_play_now.html", takes_context=True)
def play_now_form(context) -> dict:
    from games.online.views import play_now_context

    return {**play_now_context(), "user": context.get("user"), "csrf_token": context.get("csrf_token")}
