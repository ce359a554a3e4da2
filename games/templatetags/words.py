"""`{% load words %}`: the game's codes in words on every page (`games.words`), e.g. `{{ code|card_name:variant }}`
("-3 triangle", "Sylop", "The Idiot"), `{{ game.variant|variant_title }}`, `{{ game.preset|preset_title }}`,
`{{ phase|phase_title:variant }}`, `{{ suit|suit_name }}`."""

from django import template

from games import words

register = template.Library()


@register.filter
def card_name(code: object, variant: str | None = None) -> str:
    return words.card_name(code, variant)


@register.filter
def cards_words(codes: object, variant: str | None = None) -> str:
    return words.cards_words(codes, variant)


@register.filter
def variant_title(variant: object) -> str:
    return words.variant_title(variant)


@register.filter
def preset_title(preset: object) -> str:
    return words.preset_title(preset)


@register.simple_tag
def rules_title(variant: object, preset: object) -> str:
    return words.rules_title(variant, preset)


@register.filter
def phase_title(phase: object, variant: object) -> str:
    return words.phase_title(variant, phase)


@register.filter
def hand_title(name: object) -> str:
    return words.hand_title(name)


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
