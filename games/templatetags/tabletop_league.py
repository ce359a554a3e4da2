"""Template tags of real-cards tables on other pages and in the table's own fragment: the rules to open one with
(the event manage page, which lists the event's tables through `games.pages.event_tables`), the league players a
host may seat, and a table's landing."""

from typing import Any

from django import template

from games.engine.options import variant_presets
from games.tabletop import league_seats
from games.tabletop.models import GROWING, RealTable
from games.tabletop.selectors import landing_of
from games.words import rules_title

register = template.Library()


@register.simple_tag
def real_table_rules(event: Any) -> list[dict]:
    """The rules a table may play, grouped by variant; the event's league (or season) rules first and chosen."""
    season, league = event.season, event.season.league
    chosen = (season.variant or league.variant, season.preset or league.preset)
    groups = []
    for variant, presets in variant_presets().items():
        options = [
            {
                "value": f"{variant}:{preset}",
                "label": rules_title(variant, preset),
                "chosen": (variant, preset) == chosen,
            }
            for preset in presets
        ]
        groups.append({"variant": variant, "options": options})
    return groups


@register.simple_tag
def league_seat_choices(code: str) -> list | None:
    """The league players the host may still seat at this table; None for a casual table (seated by name)."""
    table = RealTable.objects.select_related("event__season").defer(*GROWING).filter(code=code).first()
    if table is None or table.event_id is None:
        return None
    return league_seats.league_players(table)


@register.simple_tag
def table_landing(code: str) -> dict:
    """The table's league side: its event, its booked game, or why the league refused it."""
    table = RealTable.objects.select_related("event__season__league").defer(*GROWING).filter(code=code).first()
    return landing_of(table) if table is not None else {"league": None}
