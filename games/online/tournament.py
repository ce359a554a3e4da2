"""What a tournament's clock asks of an event's online tables (called by tournaments, never the reverse).

A new level takes effect at a table's next hand. A table not yet started takes the level's blinds and ante
into its options (its first hand uses them). A running game keeps the forced bets its engine escalates: the
engine has no operation yet to change them between hands, so those tables are told of the level (their
viewers see it) and play on; that engine operation is work for the engine, not for this module.
"""

from typing import Any

from django.db import transaction

from config.events import publish
from games.online.models import OnlineTable, TableStatus
from games.online.services import lobby_topic, table_topic


@transaction.atomic
def level_changed(*, event_id: int, small_blind: int, big_blind: int, ante: int) -> dict[str, Any]:
    """Apply a level to the event's open tables and tell its running ones; returns the table ids of each."""
    applied, told = [], []
    tables = OnlineTable.objects.select_for_update(no_key=True, of=("self",)).filter(
        event_id=event_id, status__in=(TableStatus.OPEN, TableStatus.RUNNING, TableStatus.PAUSED)
    )
    for table in tables.order_by("pk"):
        if table.status == TableStatus.OPEN:
            table.options = {**table.options, "small_blind": small_blind, "big_blind": big_blind, "ante": ante}
            table.save(update_fields=["options", "updated_at"])
            applied.append(table.pk)
        else:
            told.append(table.pk)
        publish(table_topic(table.pk), {"table": table.pk, "version": table.version, "what": "level"})
    if applied or told:
        publish(lobby_topic(), {"event": event_id, "what": "level"})
    return {"applied": applied, "told": told}
