"""Tables of an event."""

from django.db import transaction

from config.db import retry_on_conflict
from config.errors import ApplicationError
from config.inputs import Actor, whole_number
from games.models import Table
from league.models import (
    MAX_COUNT,
    Event,
)
from league.services import (
    audit,
    lock_event,
)
from league.services.common import check_text


@retry_on_conflict
@transaction.atomic
def table_create(*, actor: Actor, event: Event, name: str, number: int) -> Table:
    name = check_text(name, "A table's name", field="name", max_length=80)
    number = whole_number(number, "A table's number", minimum=1, maximum=MAX_COUNT)
    event = lock_event(event.pk)
    if Table.objects.filter(event=event, number=number).exists():
        raise ApplicationError(
            f"Table {number} exists already in {event}; choose another number.", extra={"field": "number"}
        )
    table = Table.objects.create(event=event, name=name, number=number)
    audit(actor=actor, action="table.create", obj=table, league=event.season.league)
    return table
