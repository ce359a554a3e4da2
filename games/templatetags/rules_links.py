"""Links into the rules pages and cards drawn in their prose.

`{% rules_url variant phase %}`: the rules page of a variant, at the part about `phase` when it has one
(`/rules/coruscant_shift/#phase-betting_1`). `{% cards "+7c -8s" variant %}`: cards as the table draws them.
"""

from django import template
from django.urls import reverse

from games.history import PHASE_NAMES

register = template.Library()

# The hand history shows phases by name ("hand over"); the rules pages anchor them by the engine's key.
_PHASE_KEYS = {name: key for key, name in PHASE_NAMES.items()}


@register.simple_tag
def rules_url(variant: str | None, phase: str | None = None, preset: str | None = None) -> str:
    from games import rules_pages

    if not variant or variant not in rules_pages.PHASE_TITLES:
        return reverse("rules-index")
    if preset and preset in rules_pages.preset_names(variant):
        url = reverse("rules-preset", args=[variant, preset])
    else:
        url = reverse("rules-variant", args=[variant])
    if phase not in rules_pages.PHASE_TITLES[variant]:
        phase = _PHASE_KEYS.get(phase, phase)
    return url + rules_pages.phase_anchor(variant, phase)


@register.inclusion_tag("rules/_cards.html")
def cards(codes: str, variant: str) -> dict:
    from games import rules_pages

    return {"cards": rules_pages.cards(codes, variant)}


@register.filter
def signed(number: int) -> str:
    """+3, -2 and 0 (never +0), as card values are written."""
    return f"{number:+d}" if number else "0"


@register.filter
def phase_label(phase: str, variant: str) -> str:
    """ "Round 2: betting" for `betting_2` of Corellian Spike (Coruscant Shift's labels stay in the template)."""
    from games import rules_pages

    return rules_pages.phase_label(variant, str(phase))
