"""`{{ code|card_of:variant }}`: a card code as the table page draws it (`games.words.card`), for
partials that get only an engine view (Classic's interference fields)."""

from django import template

register = template.Library()


@register.filter
def card_of(code: str, variant: str | None = None) -> dict:
    from games.words import card

    return card(code, variant)
