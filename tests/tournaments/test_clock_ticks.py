"""The clock's announcements through the service the Celery tasks call, with an injected `now`: every level
announced once (never skipped, never repeated), late ticks catch up, pauses shift the schedule, moves start
a new epoch. The same through a real worker and Redis is in test_clock_worker.py."""

from datetime import timedelta

from tournaments import services
from tournaments.models import ClockEvent
from tournaments.services.clock import level_due
from tournaments.structures import structure_from_json

from .conftest import START, drawn


def started(night, tournament, count=6):
    return drawn(night, tournament, count, now=START)


def announced(tournament):
    return list(ClockEvent.objects.filter(tournament=tournament).values_list("epoch", "level_index", "kind"))


def test_each_level_is_announced_once_however_often_the_tick_runs(night, tournament):
    started(night, tournament)
    for _ in range(3):
        services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(seconds=5))
    assert announced(tournament) == [(0, 0, "level")]
    services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(minutes=9, seconds=30))
    services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(minutes=9, seconds=31))
    assert announced(tournament)[-1] == (0, 0, "warning")
    assert len(announced(tournament)) == 2
    services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(minutes=10, seconds=1))
    assert announced(tournament)[-1] == (0, 1, "level")


def test_a_late_tick_announces_every_level_it_missed_with_their_due_times(night, tournament):
    started(night, tournament)
    services.tournament_clock_tick(tournament_id=tournament.pk, now=START)
    # The worker was down for 26 minutes: level 2, the break, and the break's end (level 4) all come, in order.
    new = services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(minutes=26))
    assert [(item.level_index, item.kind) for item in new] == [
        (1, "level"),
        (2, "break_start"),
        (2, "break_end"),
        (3, "level"),
    ]
    assert [item.due_at - START for item in new] == [
        timedelta(minutes=10),
        timedelta(minutes=20),
        timedelta(minutes=25),
        timedelta(minutes=25),
    ]
    assert services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(minutes=27)) == []


def test_a_pause_shifts_every_later_level_by_its_length(night, tournament):
    started(night, tournament)
    services.tournament_clock_pause(actor=night.organiser, tournament=tournament, now=START + timedelta(minutes=4))
    tournament.refresh_from_db()
    # Paused: nothing is due, whatever the wall clock says.
    services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(minutes=30))
    assert announced(tournament) == [(0, 0, "level")]
    services.tournament_clock_pause(
        actor=night.organiser, tournament=tournament, resume=True, now=START + timedelta(minutes=7)
    )
    tournament.refresh_from_db()
    levels = structure_from_json(tournament.structure)
    assert level_due(tournament, levels, 1) == START + timedelta(minutes=13)
    services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(minutes=12, seconds=59))
    assert (0, 1, "level") not in announced(tournament)
    services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(minutes=13))
    assert (0, 1, "level") in announced(tournament)


def test_moving_the_clock_back_starts_a_new_epoch_that_announces_the_level_again(night, tournament):
    started(night, tournament)
    services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(minutes=11))
    services.tournament_clock_move(
        actor=night.organiser, tournament=tournament, levels=-1, now=START + timedelta(minutes=12)
    )
    services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(minutes=12))
    assert announced(tournament)[-1] == (1, 0, "level")
    assert [kind for epoch, index, kind in announced(tournament) if (epoch, index) == (0, 1)] == ["level"]


def test_the_beat_recheck_ticks_only_tournaments_with_something_due(night, tournament, django_assert_max_num_queries):
    started(night, tournament)
    assert services.clock_tick_due(now=START + timedelta(seconds=1)) == 1
    with django_assert_max_num_queries(3):  # nothing due: reads only, no lock taken
        assert services.clock_tick_due(now=START + timedelta(seconds=2)) == 0


def test_a_tick_that_announces_schedules_a_near_next_at_its_exact_time_a_far_one_not_and_a_duplicate_nothing(
    night, tournament, settings, monkeypatch, django_capture_on_commit_callbacks
):
    from tournaments.tasks import clock_tick

    started(night, tournament)
    settings.CELERY_TASK_ALWAYS_EAGER = False  # as with a real worker: ticks are scheduled, not run at once
    queued = []
    monkeypatch.setattr(clock_tick, "apply_async", lambda args, eta: queued.append((args, eta)))
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(seconds=30))
    # Level 1 announced: the next change, its one-minute warning, is 9 minutes off: further than a message may wait
    # in a worker (the broker's visibility timeout would deliver it again), so beat's re-check announces it.
    assert queued == []
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(minutes=9))
    # The warning announced: level 2 is a minute off, queued for its exact time.
    assert queued == [((tournament.pk,), START + timedelta(minutes=10))]
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_clock_tick(tournament_id=tournament.pk, now=START + timedelta(minutes=9, seconds=1))
    assert len(queued) == 1
