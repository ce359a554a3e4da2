"""Playing an online table in a test as its players would: a decision sent through the table's API service."""

import uuid
from typing import Any

from games.engine.bots import Decision
from games.online import services
from games.online.models import OnlineTable


def act(table: OnlineTable, user: Any, decision: Decision, *, key: str | None = None) -> dict:
    """`user` makes `decision` (a bot's, of any variant: each verb takes the fields it needs) at `table` through
    `table_act`, against the version the table was last read at; `key` is the idempotency key (a fresh one unless
    given)."""
    return services.table_act(
        actor=user,
        table=table,
        verb=decision.verb,
        cards=list(decision.cards),
        amount=decision.amount,
        card=decision.card,
        source=decision.source,
        unlock=decision.unlock,
        lock=decision.lock,
        call_hand=decision.call_hand,
        version=table.version,
        key=key or uuid.uuid4().hex,
    )
