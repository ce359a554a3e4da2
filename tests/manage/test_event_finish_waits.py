"""An event is not finished while one of its tables' games is not over (online: running or paused; real cards:
open or playing): the service refuses it (409 `tables_in_play` in the API, the page's message naming the tables),
writing nothing, and the page's Finish button says why it is not available. Once the tables are over it finishes."""

import pytest

from config.errors import ConflictError
from games.online import schedule
from games.online import services as online
from games.online.models import TableStatus
from games.tabletop import services as tabletop
from league.models import AuditEntry, EventStatus, LedgerEntry
from league.services import event_update
from tests.league.conftest import client_for
from tests.manage.conftest import page_client
from tests.online.conftest import Schedule
from tests.online.test_hands import to_next_hand_pause

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def scheduled(monkeypatch) -> Schedule:
    """Turn clocks and next hands are recorded, not timed: the test decides what happens at the table."""
    recorder = Schedule()
    monkeypatch.setattr(schedule, "later", lambda name, args, countdown: recorder.calls.append((name, args, countdown)))
    return recorder


def start_table(world, **fields):
    """The event, running, with an online table the organiser and a member play (first hand dealt)."""
    event = world.event
    event.status = EventStatus.PLANNED
    event.name = "Game night 3"
    event.save()
    organiser, member = world.users["organiser"], world.users["member"]
    table = online.table_open(actor=organiser, event=event, name="Table 13", seats=2, **fields)
    online.seat_take(actor=organiser, table=table)
    online.seat_take(actor=member, table=table)
    online.table_start(actor=organiser, table=table)
    table.refresh_from_db()
    event.refresh_from_db()
    assert (table.status, event.status) == (TableStatus.RUNNING, EventStatus.RUNNING)
    return table


@pytest.fixture
def running_table(world):
    return start_table(world)


def _written(event) -> tuple:
    return (
        LedgerEntry.objects.filter(event=event).count(),
        AuditEntry.objects.count(),
        event.results.count(),
    )


@pytest.mark.parametrize("paused", [False, True])
def test_the_service_refuses_to_finish_an_event_whose_online_table_is_in_play(world, running_table, paused):
    if paused:
        online.table_pause(actor=world.users["organiser"], table=running_table)
    event = world.event
    before = _written(event)
    with pytest.raises(ConflictError) as refused:
        event_update(actor=world.users["organiser"], event=event, status=EventStatus.FINISHED)
    assert refused.value.code == "tables_in_play"
    message = refused.value.message
    assert "Game night 3" in message and "online table “Table 13”" in message
    assert ("paused" if paused else "running") in message and "let its game play to its end" in message
    assert "end it on its page (End the game" in message
    assert ("Resume it" in message) is paused
    assert [t["url"] for t in refused.value.extra["tables"]] == [f"/tables/{running_table.pk}/"]
    event.refresh_from_db()
    assert event.status == EventStatus.RUNNING and _written(event) == before
    # Other changes of the event are not held up by its tables, only finishing it.
    event_update(actor=world.users["organiser"], event=event, name="Game night three")


def test_the_api_answers_409_naming_the_table_and_writes_nothing(world, running_table):
    event = world.event
    before = _written(event)
    response = client_for(world.users["organiser"]).patch(
        f"/api/events/{event.pk}/", {"status": "finished"}, format="json"
    )
    assert response.status_code == 409, response.content
    body = response.json()
    assert body["code"] == "tables_in_play" and "Table 13" in body["detail"] and "first" in body["detail"]
    assert body["extra"]["tables"][0]["kind"] == "online"
    event.refresh_from_db()
    assert event.status == EventStatus.RUNNING and _written(event) == before


def test_the_page_offers_no_finish_while_a_table_plays_and_says_why(world, running_table):
    event = world.event
    client = page_client(world.users["organiser"])
    page = client.get(f"/manage/events/{event.pk}/").content.decode()
    assert 'data-action="finish-event"' not in page
    assert 'data-action="finish-event-waiting"' in page and "disabled" in page
    assert "Finish is not available yet" in page and f'href="/tables/{running_table.pk}/"' in page
    # A form sent anyway (an old page, a second tab) is refused with the same words, beside the button.
    before = _written(event)
    response = client.post(f"/manage/events/{event.pk}/status/", {"status": "finished"})
    assert response.status_code == 409
    text = response.content.decode()
    assert 'role="alert"' in text and "still has a table in play" in text and "Table 13" in text
    assert "is finished: the standings are updated" not in text
    event.refresh_from_db()
    assert event.status == EventStatus.RUNNING and _written(event) == before


def test_a_cash_table_is_to_be_closed_and_then_the_event_finishes_with_its_result(world, scheduled):
    table = start_table(world, preset="casino")
    event = world.event
    with pytest.raises(ConflictError) as refused:
        event_update(actor=world.users["organiser"], event=event, status=EventStatus.FINISHED)
    assert "close it on its page (Close the table" in refused.value.message
    to_next_hand_pause(table, scheduled)  # a cash table closes between hands
    online.table_close(actor=world.users["organiser"], table=table)
    event.refresh_from_db()
    if event.status != EventStatus.FINISHED:  # a single game's event may be finished by its game already
        event_update(actor=world.users["organiser"], event=event, status=EventStatus.FINISHED)
        event.refresh_from_db()
    assert event.status == EventStatus.FINISHED and event.results.count() == 2
    page = page_client(world.users["organiser"]).get(f"/manage/events/{event.pk}/").content.decode()
    assert "Finish is not available yet" not in page


def test_a_real_cards_table_in_play_holds_the_event_too_until_its_host_ends_it(world):
    event = world.event
    event.status = EventStatus.RUNNING
    event.save()
    organiser = world.users["organiser"]
    table = tabletop.realtable_open_league(actor=organiser, event=event)
    with pytest.raises(ConflictError) as refused:
        event_update(actor=organiser, event=event, status=EventStatus.FINISHED)
    assert f"real-cards table {table.code}" in refused.value.message and "End the game" in refused.value.message
    page = page_client(organiser).get(f"/manage/events/{event.pk}/").content.decode()
    assert f'href="/tabletop/{table.code}/"' in page and 'data-action="finish-event"' not in page
    tabletop.realtable_finish(actor=organiser, table=table)  # nobody played: it ends with nothing to book
    event_update(actor=organiser, event=event, status=EventStatus.FINISHED)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED


def test_an_online_table_only_open_for_seats_does_not_hold_the_event(world):
    event = world.event
    event.status = EventStatus.RUNNING
    event.save()
    online.table_open(actor=world.users["organiser"], event=event, name="Nobody came", seats=2)
    event_update(actor=world.users["organiser"], event=event, status=EventStatus.FINISHED)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
