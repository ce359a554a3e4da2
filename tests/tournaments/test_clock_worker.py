"""The tournament clock through a real Celery worker process with its embedded beat, on Redis and PostgreSQL:
the level change reaches the database without anyone calling the service; a task run twice changes nothing;
a worker killed (with its beat) while levels fall due announces every missed level exactly once after restart.

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
from django.utils import timezone

from league.models import EventKind, EventStatus, Role
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory, UserFactory
from tournaments import services
from tournaments.models import ClockEvent, Tournament
from tournaments.structures import Level, structure_to_json

ROOT = Path(__file__).resolve().parent.parent.parent
ONE_MINUTE_LEVELS = structure_to_json([Level(small_blind=5 * 2**n, big_blind=10 * 2**n, length=1) for n in range(6)])


def worker_env() -> dict:
    assert settings.REDIS_URL, "the clock worker test needs REDIS_URL (a real broker)"
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
    deadline = time.monotonic() + 90
    lines = []
    while time.monotonic() < deadline:  # bounded wait on the worker's own report
        line = worker.stdout.readline()
        lines.append(line)
        if not line and worker.poll() is not None:
            raise AssertionError("the worker stopped: " + "".join(lines))
        if "ready." in line:
            return worker
    worker.kill()
    raise AssertionError("the worker did not become ready: " + "".join(lines))


def kill(worker: subprocess.Popen) -> None:
    if worker.poll() is None:
        os.killpg(worker.pid, signal.SIGKILL)
    worker.wait(timeout=30)


def wait_for(condition, seconds: float = 60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"not reached within {seconds} s")


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
    tournament = services.tournament_create(actor=organiser, event=event, structure=ONE_MINUTE_LEVELS)
    for player in players:
        services.tournament_register(actor=organiser, tournament=tournament, player=player)
    services.tournament_publish_seed(actor=organiser, tournament=tournament)
    services.tournament_draw(actor=organiser, tournament=tournament)

    worker = start_worker(tmp_path)
    try:
        # Level 2 falls due a few seconds from now; nobody but the worker (its beat and its eta tasks) ticks.
        services.tournament_clock_start(
            actor=organiser, tournament=tournament, now=timezone.now() - timedelta(seconds=56)
        )
        wait_for(lambda: (0, 1) in levels_announced(tournament))
        level_two = ClockEvent.objects.get(tournament=tournament, level_index=1, kind="level")
        tournament.refresh_from_db()
        assert level_two.due_at == tournament.clock_started_at + timedelta(minutes=1)
        assert level_two.recorded_at >= level_two.due_at  # never early
        assert levels_announced(tournament) == [(0, 0), (0, 1)]

        # The same task twice more through the worker: nothing new.
        from tournaments.tasks import clock_tick

        assert clock_tick.delay(tournament.pk).get(timeout=30) == 0
        assert clock_tick.delay(tournament.pk).get(timeout=30) == 0
        count = ClockEvent.objects.filter(tournament=tournament).count()

        kill(worker)
        # While the worker (and its beat) are dead, two more levels fall due: simulated by moving the recorded
        # start two minutes back, which is what two minutes of wall time would do to the derived level.
        Tournament.objects.filter(pk=tournament.pk).update(
            clock_started_at=tournament.clock_started_at - timedelta(minutes=2)
        )
        assert ClockEvent.objects.filter(tournament=tournament).count() == count
        worker = start_worker(tmp_path)
        wait_for(lambda: (0, 3) in levels_announced(tournament))
        time.sleep(1.5)  # two more beats: a repeated announcement would show up now
        assert levels_announced(tournament) == [(0, 0), (0, 1), (0, 2), (0, 3)]
        late = ClockEvent.objects.get(tournament=tournament, level_index=2, kind="level")
        assert late.recorded_at > late.due_at  # announced late, with the time it was due
    finally:
        kill(worker)
