"""A new level reaches an event's online tables through `games.online.services.level_changed`: a table not yet started
takes the level's blinds and ante for its first hand; a running one keeps it pending for its next hand."""

from datetime import timedelta

from config.events import subscribe_local
from games.online import services as online
from games.online.models import OnlineTable, TableStatus
from games.online.services import level_changed
from tournaments import services

from .conftest import START, drawn


def test_a_new_level_goes_to_the_events_open_tables_and_is_announced_to_running_ones(night, tournament):
    waiting = online.table_open(actor=night.organiser, event=night.event, name="Table 1", seats=4)
    running = online.table_open(actor=night.organiser, event=night.event, name="Table 2", seats=4)
    OnlineTable.objects.filter(pk=running.pk).update(status=TableStatus.RUNNING)
    heard = []
    unsubscribe = subscribe_local(online.table_topic(running.pk), heard.append)
    try:
        outcome = level_changed(event_id=night.event.pk, small_blind=25, big_blind=50, ante=5)
    finally:
        unsubscribe()
    assert outcome == {"applied": [waiting.pk], "told": [running.pk]}
    waiting.refresh_from_db()
    assert (waiting.options["small_blind"], waiting.options["big_blind"], waiting.options["ante"]) == (25, 50, 5)
    running = OnlineTable.objects.get(pk=running.pk)
    assert running.options["big_blind"] != 50  # a running game takes the level at its next hand, not now
    assert running.pending_levels == {"level": None, "ante": 5, "small_blind": 25, "big_blind": 50}


def test_the_clock_tick_hands_the_new_level_to_the_tables_after_commit(
    night, tournament, django_capture_on_commit_callbacks
):
    waiting = online.table_open(actor=night.organiser, event=night.event, name="Table 1", seats=4)
    drawn(night, tournament, 4, now=START)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(minutes=10))
    waiting.refresh_from_db()
    assert (waiting.options["small_blind"], waiting.options["big_blind"]) == (10, 20)  # level 2 of the structure
