"""The worker keeps pace: its tasks reuse database connections (Celery's Django fixup closed every connection and the
whole pool around every task, so each bot decision opened a new PostgreSQL connection), and a bot decision, a
timeout and a deal cost a few queries (pinned here; the tables bench measures the time)."""

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.celery import app
from games.online import schedule, services, tasks
from games.online.models import OnlineAction, OnlineSeat, OnlineTable
from tests.online.conftest import time_runs_out

DECISIONS = 30
ROOT = Path(__file__).resolve().parent.parent.parent


def worker_env(**extra: str) -> dict:
    if not settings.REDIS_URL:  # outside CI only: under CI a skip fails the run (tests/conftest.py)
        pytest.skip("the worker test needs REDIS_URL (a real broker)")
    db = settings.DATABASES["default"]
    if not db["ENGINE"].endswith("postgresql"):
        pytest.skip("connections are pooled on PostgreSQL only (CI runs on it)")
    url = (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )
    env = dict(os.environ, DATABASE_URL=url, REDIS_URL=settings.REDIS_URL, DEBUG="true", **extra)
    env.pop("EMBEDDED_BROKER_DIR", None)
    return env


def start_counting_worker(env: dict) -> subprocess.Popen:
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.online.counting_worker"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    deadline, lines = time.monotonic() + 90, []
    while time.monotonic() < deadline:  # bounded wait on the worker's own report
        line = worker.stdout.readline()
        lines.append(line)
        if not line and worker.poll() is not None:
            raise AssertionError("the worker stopped: " + "".join(lines))
        if "ready." in line:
            threading.Thread(target=worker.stdout.read, daemon=True).start()  # keep its pipe drained
            return worker
    os.killpg(worker.pid, signal.SIGKILL)
    raise AssertionError("the worker did not become ready: " + "".join(lines))


@pytest.mark.timeout(300)
@pytest.mark.django_db(transaction=True)
def test_bot_tasks_in_a_prefork_worker_reuse_its_database_connections(world, open_table, tmp_path, monkeypatch):
    """The worker as docker-compose runs it (prefork, 2 processes), playing a table of bots: the connections it opens
    stay a handful however many decisions it makes. Celery's Django fixup closed the whole pool around every task in
    a prefork worker: one new connection per task (30 decisions, 30 connections or more)."""
    count_file = tmp_path / "connections.txt"
    count_file.touch()
    queue = f"test-pace-{uuid.uuid4().hex[:8]}"
    organiser = world.users["organiser"]
    table = open_table(seats=6, turn_seconds=600)
    services.table_fill_bots(actor=organiser, table=table, kind="sensible")  # random bots may end the game early
    worker = start_counting_worker(worker_env(COUNT_FILE=str(count_file), WORKER_QUEUE=queue))
    # The first deal's tasks go to that worker's own queue (the worker sends the rest there itself). Not by changing
    # the app's default queue here: Celery keeps the first one it routed to for the rest of the process.
    monkeypatch.setattr(
        schedule,
        "dispatch",
        lambda name, args, countdown: getattr(tasks, name).apply_async(args=args, countdown=countdown, queue=queue),
    )
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        at_start = len(count_file.read_text().split())
        services.table_start(actor=organiser, table=table)  # its bots' tasks go to the worker after the commit
        deadline = time.monotonic() + 120
        while OnlineAction.objects.filter(table=table).count() < DECISIONS and time.monotonic() < deadline:
            time.sleep(0.2)
        played = OnlineAction.objects.filter(table=table).count()
        opened = len(count_file.read_text().split()) - at_start
    finally:
        app.conf.task_always_eager = previous
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=30)
    table.refresh_from_db()
    assert played >= DECISIONS, f"the worker made {played} decisions in 120 s; the table is {table.status}"
    # Each pool process opens its pool's connection at its first task and keeps it (the pool may open a spare).
    assert opened <= 4, f"{opened} connections opened for {played} decisions"


@pytest.mark.django_db
def test_a_bot_decision_costs_a_few_queries(world, open_table, scheduled):
    """Lock the table row with its seats (one statement), insert the action, update the row: three statements and
    the transaction. A decision that ends a hand also reads the table's finished hands (deferred on every other
    decision) to add one: four. A growing count here is a growing cost on every decision of every table."""
    table = open_table(seats=6, turn_seconds=30)
    services.table_fill_bots(actor=world.users["organiser"], table=table, kind="sensible")
    services.table_start(actor=world.users["organiser"], table=table)
    within_a_hand, ending_a_hand = [], []
    # The select phase and the betting after it, deals and all, in the order scheduled, until a hand has ended too.
    while len(within_a_hand) < 12 or not ending_a_hand:
        call = scheduled.calls.pop(0)
        finished_before = finished_hands(table)
        with CaptureQueriesContext(connection) as queries:
            acted = scheduled.run(call)
        if call[0] == "bot_act" and acted:
            ended = finished_hands(table) > finished_before
            (ending_a_hand if ended else within_a_hand).append(statements(queries))
    assert max(within_a_hand) <= 3, within_a_hand
    assert max(ending_a_hand) <= 4, ending_a_hand


def finished_hands(table: OnlineTable) -> int:
    return len(OnlineTable.objects.values_list("results", flat=True).get(pk=table.pk))


def statements(queries: CaptureQueriesContext) -> int:
    return len([q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]])


@pytest.mark.django_db
def test_a_timeout_and_a_deal_cost_a_few_queries(heads_up, scheduled):
    """The clock runs out on both players of a select (the lock with the seats; each player: their timeout count, the
    action, the row), then the hand is played out by the clock, and the next hand is dealt: the lock, the row."""
    timeout = scheduled.last("turn_timeout")
    time_runs_out(*timeout[1])  # the deadline reached (moved on the row: not the task's cost)
    with CaptureQueriesContext(connection) as queries:
        assert tasks.turn_timeout.run(*timeout[1]) == 2
    assert statements(queries) <= 1 + 3 * 2, statements(queries)
    table = OnlineTable.objects.get(pk=heads_up.pk)
    while scheduled.calls and "next_hand" not in scheduled.names():
        scheduled.run(scheduled.calls.pop(0))
    # Two timeouts marked both away, and an away player is acted for at once: here only the deal is counted.
    OnlineSeat.objects.filter(table=table).update(away=False, timeouts=0)
    with CaptureQueriesContext(connection) as queries:
        assert scheduled.run(scheduled.last("next_hand"))
    assert statements(queries) <= 2, [q["sql"][:40] for q in queries.captured_queries]


@pytest.mark.django_db
def test_the_sweep_sends_nothing_while_messages_wait_in_the_queue(world, open_table, scheduled, monkeypatch):
    """Overdue work with a long queue is work queued behind other work, not lost: sending it again only lengthened
    the queue (the tables bench collapsed so). Once the queue is short again the sweep sends it."""
    from datetime import timedelta
    from types import SimpleNamespace

    from django.utils import timezone

    from games.online import schedule

    table = open_table(seats=3, turn_seconds=30)
    services.table_fill_bots(actor=world.users["organiser"], table=table, kind="random")
    services.table_start(actor=world.users["organiser"], table=table)
    sent = []
    monkeypatch.setattr(schedule, "dispatch", lambda name, args, countdown: sent.append(name))
    real_now = timezone.now
    monkeypatch.setattr(schedule, "timezone", SimpleNamespace(now=lambda: real_now() + timedelta(seconds=5)))
    monkeypatch.setattr(schedule, "waiting_messages", lambda: schedule.SWEEP_BACKLOG + 1)
    assert schedule.sweep() == 0 and sent == []
    table.refresh_from_db()
    assert table.resent_at is None  # not marked: the next sweep still sees it
    monkeypatch.setattr(schedule, "waiting_messages", lambda: schedule.SWEEP_BACKLOG)
    assert schedule.sweep() == 1 and sent == ["bot_act"] * 3


def test_an_in_process_task_keeps_its_callers_connection(monkeypatch):
    """Eager tasks run inside a request's transaction: giving the connection back there would break it."""
    from types import SimpleNamespace

    import django.db

    from config.celery import give_back_database_connections

    closed = []
    monkeypatch.setattr(django.db, "close_old_connections", lambda: closed.append(True))
    give_back_database_connections(sender=SimpleNamespace(request=SimpleNamespace(is_eager=True)))
    assert closed == []
    give_back_database_connections(sender=SimpleNamespace(request=SimpleNamespace(is_eager=False)))
    assert closed == [True]
