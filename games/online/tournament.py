"""What a tournament's clock asks of an event's online tables (called by tournaments, never the reverse).

A new level takes effect at a table's next hand. A table not yet started takes the level's blinds and ante
into its options (its first hand uses them). A running or paused game records the level as pending
(`OnlineTable.pending_levels`); `services.next_hand` applies it through the engine's `Game.set_levels` just
before it deals, under the table's lock, and clears it, so it is applied once. Announcing the same level
again changes nothing.
"""

from typing import Any

from django.db import transaction

from config.events import publish
from games.engine import Game
from games.online.models import OnlineSeat, OnlineTable, TableStatus
from games.online.services import lobby_topic, table_topic


@transaction.atomic
def level_changed(
    *, event_id: int, small_blind: int, big_blind: int, ante: int, level: int | None = None
) -> dict[str, Any]:
    """Apply a level to the event's open tables and make it pending at running ones; returns the table ids
    of each (a table that already has this level, applied or pending, is in neither)."""
    applied, told = [], []
    amounts = {"ante": ante, "small_blind": small_blind, "big_blind": big_blind}
    tables = OnlineTable.objects.select_for_update(no_key=True, of=("self",)).filter(
        event_id=event_id, status__in=(TableStatus.OPEN, TableStatus.RUNNING, TableStatus.PAUSED)
    )
    for table in tables.order_by("pk"):
        if table.status == TableStatus.OPEN:
            if all(table.options.get(key) == value for key, value in amounts.items()):
                continue
            table.options = {**table.options, **amounts}
            table.save(update_fields=["options", "updated_at"])
            applied.append(table.pk)
        else:
            pending = {"level": level, **amounts}
            if table.pending_levels == pending:
                continue
            # The version is left alone: the next-hand task already scheduled stays current.
            table.pending_levels = pending
            table.save(update_fields=["pending_levels", "updated_at"])
            told.append(table.pk)
        publish(table_topic(table.pk), {"table": table.pk, "version": table.version, "what": "level"})
    if applied or told:
        publish(lobby_topic(), {"event": event_id, "what": "level"})
    return {"applied": applied, "told": told}


ACTIVE = (TableStatus.OPEN, TableStatus.RUNNING, TableStatus.PAUSED)


def known_stacks(*, event_id: int) -> dict[int, dict[str, Any]]:
    """Each player's stack at the event's tournament tables, by player id (stacks are public): from the latest
    online table each sat at, `{"stack", "table", "online_table", "active"}`. A hand in progress counts what
    the player had when it was dealt (their stack plus what they put in this hand). Two queries."""
    tables = {
        row["pk"]: row
        for row in OnlineTable.objects.filter(event_id=event_id, tournament_table__isnull=False)
        .order_by()
        .values("pk", "tournament_table", "status", "state", "buy_in")
    }
    seats = (
        OnlineSeat.objects.filter(table_id__in=tables)
        .order_by("table_id")
        .values("table_id", "player_id", "name", "engine_seat", "stack", "left")
    )
    games: dict[int, Game | None] = {}
    known: dict[int, dict[str, Any]] = {}
    for seat in seats:
        table = tables[seat["table_id"]]
        if seat["left"]:
            continue
        if table["pk"] not in games:
            games[table["pk"]] = Game.from_json(table["state"]) if table["state"] else None
        game = games[table["pk"]]
        if game is None or seat["engine_seat"] is None:
            stack = seat["stack"] if seat["stack"] is not None else table["buy_in"]
        else:
            stack = game.stacks[seat["engine_seat"]]
            if game.in_hand:
                stack += game.hand.contributions.get(seat["engine_seat"], 0)
        # Tables come in the order they were opened: a later table's stack replaces an earlier one's.
        known[seat["player_id"]] = {
            "stack": stack,
            "table": table["tournament_table"],
            "online_table": table["pk"],
            "active": table["status"] in ACTIVE,
        }
    return known
