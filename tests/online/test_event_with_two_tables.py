"""A single game played at two online tables is over with its last table: the first table to end leaves the event
running (the other's result is still to land), the last one finishes it; a manual result does the same while a
table still plays; and a table of an event already finished does not start (its result would land in a finished
event)."""

import pytest

from config.errors import ConflictError
from games.models import Game as LeagueGame
from games.online import services
from games.online.models import TableStatus
from league.models import Event, EventStatus, LedgerEntry

pytestmark = pytest.mark.django_db


def _start(world, humans, open_table, name: str, person):
    org = world.users["organiser"]
    table = open_table(name=name, seats=2)
    services.seat_take(actor=person, table=table)
    services.table_fill_bots(actor=org, table=table, kind="sensible")
    services.table_start(actor=org, table=table)
    table.refresh_from_db()
    return table


def _end(world, table, scheduled) -> None:
    services.table_end(actor=world.users["organiser"], table=table)
    scheduled.drain(table)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED


def _status(world) -> str:
    return Event.objects.get(pk=world.event.pk).status


def test_the_event_finishes_with_its_last_table_not_its_first(world, humans, open_table, scheduled):
    first = _start(world, humans, open_table, "Table A", humans[0])
    second = _start(world, humans, open_table, "Table B", humans[1])
    assert _status(world) == EventStatus.RUNNING
    _end(world, first, scheduled)
    assert _status(world) == EventStatus.RUNNING  # Table B still plays: its result is still to land
    _end(world, second, scheduled)
    assert _status(world) == EventStatus.FINISHED
    games = LeagueGame.objects.filter(event=world.event)
    assert games.count() == 2 and all(g.status == "finished" for g in games)
    assert set(world.event.results.values_list("player__user__username", flat=True)) >= {
        humans[0].username,
        humans[1].username,
    }


def test_a_table_of_a_finished_event_does_not_start_and_writes_nothing(world, humans, open_table, scheduled):
    org = world.users["organiser"]
    table = open_table(name="Late table", seats=2)
    services.seat_take(actor=humans[0], table=table)
    services.table_fill_bots(actor=org, table=table, kind="sensible")
    Event.objects.filter(pk=world.event.pk).update(status=EventStatus.FINISHED)
    ledger = LedgerEntry.objects.filter(event=world.event).count()
    with pytest.raises(ConflictError) as refused:
        services.table_start(actor=org, table=table)
    assert "is finished" in refused.value.message and "reopen the event" in refused.value.message
    table.refresh_from_db()
    assert table.status == TableStatus.OPEN
    assert LedgerEntry.objects.filter(event=world.event).count() == ledger
    assert not LeagueGame.objects.filter(event=world.event, source="online").exists()


def test_a_result_entered_by_hand_leaves_the_event_running_while_a_table_of_it_plays(
    world, humans, open_table, scheduled
):
    from games.services import result_record

    table = _start(world, humans, open_table, "Table A", humans[0])
    han, lando = world.players[:2]
    result_record(
        actor=world.users["organiser"],
        event=world.event,
        seats=[{"player": han.pk, "final_credits": 900}, {"player": lando.pk, "final_credits": 0}],
    )
    assert _status(world) == EventStatus.RUNNING  # Table A's result is still to land
    _end(world, table, scheduled)
    assert _status(world) == EventStatus.FINISHED
