"""The tournament clock through a real Celery worker process with its embedded beat, on Redis and PostgreSQL:
with a compressed structure (4-second levels) the level changes reach the database without anyone calling the
service; a task run twice changes nothing; a worker killed (with its beat) while two levels fall due announces
every missed level exactly once, late, after it restarts. (Pauses shifting the schedule: test_clock_ticks.py.)

Needs REDIS_URL and a PostgreSQL DATABASE_URL (the worker is another process: it reads the test database the
test commits to); without them the test fails, it never skips.
"""

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings

from league.models import EventKind, EventStatus, Role
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory, UserFactory
from tests.processes import ROOT, wait_for, wait_for_line
from tournaments import services
from tournaments.models import ClockEvent, Tournament
from tournaments.structures import Level, structure_to_json

LEVEL_SECONDS = 4
COMPRESSED = structure_to_json(
    [Level(small_blind=5 * n, big_blind=10 * n, length=LEVEL_SECONDS, unit="seconds") for n in range(1, 40)]
)


def worker_env() -> dict:
    if not settings.REDIS_URL:  # outside CI only: under CI a skip fails the run (tests/conftest.py)
        pytest.skip("the clock worker test needs REDIS_URL (a real broker)")
    db = settings.DATABASES["default"]
    assert db["ENGINE"].endswith("postgresql"), "the clock worker test needs PostgreSQL (shared with the worker)"
    url = (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )
    env = dict(os.environ, DATABASE_URL=url, CLOCK_BEAT="0.5", DEBUG="true")
    env.pop("EMBEDDED_BROKER_DIR", None)
    return env


def start_worker(tmp_path: Path) -> subprocess.Popen:
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "-B",
            "--schedule",
            str(tmp_path / "beat-schedule"),
            "--loglevel",
            "INFO",
        ],
        env=worker_env(),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group: killing it kills the embedded beat too
    )
    try:
        wait_for_line(worker, 90, lambda line: "ready." in line, "the worker became ready")
    except AssertionError:
        worker.kill()
        raise
    return worker


def kill(worker: subprocess.Popen) -> None:
    if worker.poll() is None:
        os.killpg(worker.pid, signal.SIGKILL)
    worker.wait(timeout=30)


def levels_announced(tournament: Tournament) -> list[tuple[int, int]]:
    return list(
        ClockEvent.objects.filter(tournament=tournament, kind="level")
        .order_by("epoch", "level_index")
        .values_list("epoch", "level_index")
    )


@pytest.mark.timeout(300)
def test_the_worker_announces_levels_on_its_own_once_each_and_catches_up_after_being_killed(transactional_db, tmp_path):
    league = LeagueFactory()
    event = EventFactory(season=SeasonFactory(league=league), kind=EventKind.TOURNAMENT, status=EventStatus.RUNNING)
    organiser = UserFactory()
    MembershipFactory(league=league, player=PlayerFactory(user=organiser), role=Role.ORGANISER)
    players = [MembershipFactory(league=league).player for _ in range(4)]
    tournament = services.tournament_create(actor=organiser, event=event, structure=COMPRESSED)
    for player in players:
        services.tournament_register(actor=organiser, tournament=tournament, player=player)
    services.tournament_publish_seed(actor=organiser, tournament=tournament)
    services.tournament_draw(actor=organiser, tournament=tournament)

    worker = start_worker(tmp_path)
    try:
        # A compressed structure (4-second levels); nobody but the worker (its beat and its eta tasks) ticks.
        services.tournament_clock_start(actor=organiser, tournament=tournament)
        tournament.refresh_from_db()
        started = tournament.clock_started_at
        wait_for(lambda: (0, 1) in levels_announced(tournament), seconds=30)
        level_two = ClockEvent.objects.get(tournament=tournament, level_index=1, kind="level")
        assert level_two.due_at == started + timedelta(seconds=LEVEL_SECONDS)
        assert level_two.recorded_at >= level_two.due_at  # never early

        # The same task twice more through the worker: nothing new, nothing repeated.
        from tournaments.tasks import clock_tick

        count = ClockEvent.objects.filter(tournament=tournament).count()
        clock_tick.delay(tournament.pk).get(timeout=30)
        clock_tick.delay(tournament.pk).get(timeout=30)
        assert levels_announced(tournament) == [(0, i) for i in range(len(levels_announced(tournament)))]

        # Kill the worker (and its beat) and let two levels fall due while it is dead.
        kill(worker)
        dead_at = len(levels_announced(tournament))
        count = ClockEvent.objects.filter(tournament=tournament).count()
        time.sleep(2 * LEVEL_SECONDS + 1)
        assert ClockEvent.objects.filter(tournament=tournament).count() == count
        worker = start_worker(tmp_path)
        wait_for(lambda: len(levels_announced(tournament)) >= dead_at + 2, seconds=60)
        announced = levels_announced(tournament)
        assert announced == [(0, i) for i in range(len(announced))]  # none skipped, none twice
        caught_up = ClockEvent.objects.get(tournament=tournament, level_index=dead_at, kind="level")
        assert caught_up.recorded_at - caught_up.due_at > timedelta(seconds=1)  # announced late, when it was due
        assert caught_up.due_at == started + timedelta(seconds=LEVEL_SECONDS * dead_at)
    finally:
        kill(worker)
