"""`make run`'s supervisor (config/supervise.py) on the embedded broker: a worker killed with -9 is started again
and the tables move on (the sweep sends the work the dead worker took); stopping the supervisor, or killing it
outright, leaves no worker or beat behind."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import ROOT, embedded_env, wait_for

SETUP = """
import django
django.setup()
from bench.tables_bench import _world
from games.online import services
user, tables, _ = _world(2, "sensible", 0, 30)
for table in tables:
    services.table_start(actor=user, table=table)
"""


def env_for(tmp_path: Path) -> dict:
    return embedded_env(
        tmp_path,
        DJANGO_SETTINGS_MODULE="tests.config.fast_bots_settings",
        ONLINE_HAND_PAUSE_SECONDS="0.2",
        ONLINE_SWEEP_BEAT="1",
        DEBUG="true",
    )


def children_of(pid: int) -> dict[str, int]:
    """{"worker": pid, "beat": pid} of the supervisor's live children."""
    found = {}
    try:
        listed = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return found
    for child in listed:
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        for name in ("worker", "beat"):
            if name.encode() in command:
                found[name] = int(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]
    except OSError:
        return False
    return state != "Z"


def hands(db: Path) -> int:
    """Hands finished at every table (read as another process would, with a bounded wait on the writer)."""
    with sqlite3.connect(db, timeout=10) as connection:
        rows = connection.execute("SELECT results FROM games_onlinetable").fetchall()
    return sum(len(json.loads(results)) for (results,) in rows)


@pytest.mark.timeout(240)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_worker_is_started_again_and_the_tables_move_on(tmp_path, migrated_sqlite):
    env = env_for(tmp_path)
    migrated_sqlite(tmp_path / "db.sqlite3")  # the run's migrated database (tests/conftest.py), as `make run` has it
    subprocess.run([sys.executable, "-c", SETUP], env=env, cwd=ROOT, check=True, timeout=120)
    db = tmp_path / "db.sqlite3"
    log = open(tmp_path / "supervise.log", "w")  # noqa: SIM115 (closed below)
    supervisor = subprocess.Popen(
        [sys.executable, "-m", "config.supervise", "--schedule", str(tmp_path / "beat-schedule")],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        first = wait_for(lambda: children_of(supervisor.pid).get("worker"), 30, "the worker started")
        beat = wait_for(lambda: children_of(supervisor.pid).get("beat"), 30, "beat started")
        wait_for(lambda: hands(db) >= 1, 90, "a hand was played")
        os.kill(first, signal.SIGKILL)  # mid-game: the task it held is lost with it
        played = hands(db)

        def new_worker() -> int | None:
            pid = children_of(supervisor.pid).get("worker")
            return pid if pid not in (None, first) else None

        second = wait_for(new_worker, 30, "a new worker started")
        assert children_of(supervisor.pid).get("beat") == beat  # beat was left alone
        wait_for(lambda: hands(db) >= played + 2, 90, "the tables played on after the restart")
        supervisor.send_signal(signal.SIGTERM)
        supervisor.wait(30)
        wait_for(lambda: not alive(second) and not alive(beat), 15, "no worker or beat left behind")
    finally:
        if supervisor.poll() is None:
            os.killpg(supervisor.pid, signal.SIGKILL)
        log.close()
        print((tmp_path / "supervise.log").read_text())


@pytest.mark.timeout(120)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_killing_the_supervisor_outright_leaves_no_worker_or_beat(tmp_path, migrated_sqlite):
    env = env_for(tmp_path)
    migrated_sqlite(tmp_path / "db.sqlite3")
    supervisor = subprocess.Popen(
        [sys.executable, "-m", "config.supervise", "--schedule", str(tmp_path / "beat-schedule")],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        found = wait_for(lambda: len(children_of(supervisor.pid)) == 2 and children_of(supervisor.pid), 30, "both up")
        supervisor.kill()
        supervisor.wait(10)
        wait_for(lambda: not any(alive(pid) for pid in found.values()), 15, "the children went with it")
    finally:
        for pid in children_of(supervisor.pid).values():
            os.kill(pid, signal.SIGKILL)
