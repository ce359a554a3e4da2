"""`{% load words %}`: the game's codes in words on every page (`games.words`), e.g. `{{ code|card_name:variant }}`
("-3 triangle", "Sylop", "The Idiot"), `{{ game.variant|variant_title }}`, `{{ game.preset|preset_title }}`,
`{{ phase|phase_title:variant }}`, `{{ suit|suit_name }}`, `{{ price|price_words }}` ("costs 2 credits", "free")."""

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format

from games import words
from games.engine.replay import FORMATS_IN_WORDS

register = template.Library()


# `games.words`' own functions serve as filters as they are (value first, then the filter's argument).
for _name in ("card_name", "cards_words", "variant_title", "preset_title", "hand_title", "price_words"):
    register.filter(_name, getattr(words, _name))


@register.simple_tag
def rules_title(variant: object, preset: object) -> str:
    return words.rules_title(variant, preset)


@register.filter
def phase_title(phase: object, variant: object) -> str:
    return words.phase_title(variant, phase)


@register.filter
def suit_name(letter: object) -> str:
    """ "circle" for `c` (Coruscant Shift's and Corellian Spike's suits); a name is kept as it is."""
    return words.SUIT_NAMES.get(str(letter or ""), str(letter or ""))


@register.filter
def option_label(name: object) -> str:
    """An option as a player calls it: "Starting credits" for `starting_stack`."""
    from games import rules_pages

    text = str(name or "")
    return rules_pages.OPTION_LABELS.get(text, text.replace("_", " ").capitalize())


@register.filter
def option_words(value: object, name: object) -> str:
    """An option's value in plain words: "the blinds double each time the button passes the first dealer"."""
    from games import rules_pages

    if isinstance(value, list):
        value = tuple(value)
    return rules_pages.option_text(str(name or ""), value)


SITE_WHEN = "j M Y H:i"  # the site's date and time, as every page shows it ("27 Nov 2026 23:37")


@register.filter
def site_when(value: object) -> str:
    """A moment in the site's date format, in the site's time zone: a datetime or an ISO text (an API row's)."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if not isinstance(value, datetime):
        return ""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return date_format(value, SITE_WHEN)


@register.simple_tag
def replay_formats() -> str:
    """The replay formats the engine reads, in words ("sabacc-replay/2 or sabacc-replay/1")."""
    return FORMATS_IN_WORDS
