"""Reads of real-cards tables: a table's version (its streams' poll), a user's tables for "My games", and a league
table's landing."""

from typing import Any

from django.db import connection
from django.db.models import Prefetch, Q
from django.urls import reverse

from games.my_rows import event_fields, result_fields
from games.tabletop.models import RealSeat, RealTable, RealTableStatus
from games.words import rules_title

MY_TABLES_LIMIT = 100


def table_version(pk: int) -> int | None:
    """The table's version alone (None: no such table), in one plain statement: every phone's stream asks it four
    times a second, and the ORM built the same query anew each time, several times the cost of running it."""
    name = connection.ops.quote_name(RealTable._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {name} WHERE id = %s", [pk])  # noqa: S608 (the model's own table name)
        row = cursor.fetchone()
    return row[0] if row is not None else None


def my_real_tables(user: Any) -> list[dict[str, Any]]:
    """The user's real-cards tables, newest first: those they host and those they sit at (by their account or as
    their league player), casual and league, open, playing and finished."""
    if not getattr(user, "is_authenticated", False):
        return []
    tables = (
        RealTable.objects.filter(Q(host=user) | Q(seats__user=user) | Q(seats__player__user=user))
        .distinct()
        .select_related("event__season__league")
        .prefetch_related(Prefetch("seats", queryset=RealSeat.objects.select_related("player").order_by("number")))
        .defer("setup", "steps", "changes", "master")
        .order_by("-created_at", "-id")[:MY_TABLES_LIMIT]
    )
    rows = []
    for table in tables:
        seats = list(table.seats.all())
        mine = next(
            (s for s in seats if s.user_id == user.pk or (s.player is not None and s.player.user_id == user.pk)), None
        )
        result = result_fields(table.outcome, mine.name if mine else None)
        rows.append(
            {
                "code": table.code,
                **event_fields(table),
                "rules": rules_title(table.variant, table.preset),
                "status": table.status,
                "status_words": table.get_status_display(),
                "host": table.host_id == user.pk,
                "players": [seat.name for seat in seats],
                "you": mine.name if mine else None,
                **result,
                "links": {
                    "table": reverse("tabletop-table", args=[table.code]),
                    "history": reverse("tabletop-history", args=[table.code])
                    if table.status != RealTableStatus.OPEN
                    else None,
                    "league_game": reverse("game-detail", args=[table.game_id]) if table.game_id else None,
                },
            }
        )
    return rows


def landing_of(table: RealTable) -> dict[str, Any]:
    """A table's league side as its page shows it: the event, the booked game or why it was not booked."""
    if table.event_id is None:
        return {"league": None}
    event = table.event
    return {
        "league": event.season.league,
        "event": event,
        "game_id": table.game_id,
        "refused": (table.outcome or {}).get("landing") if table.game_id is None else None,
        "tournament": table.tournament_table is not None,
    }
