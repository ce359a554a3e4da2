"""Every benchmark runs as shipped, in a tiny size, and prints its ratio against its peer.

Each runs in a process of its own, as `make bench` runs it (the database benches set Django up themselves, on a
database this test creates and drops beside the test database). A bench that crashes, or prints no ratio, fails.
The tournament bench plays a 16-player freezeout on two tables with two worker processes (it used to stop with
"7200 chips with 16 players at the end": its forked workers shared the parent's pooled connections).
"""

import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RATIO = re.compile(r"ratio[^\n]*?\d+(\.\d+)?\s*x", re.IGNORECASE)


def run(module: str, *args: str, env: dict[str, str] | None = None, timeout: float = 300) -> str:
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONWARNINGS": "ignore", **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, f"{module} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert RATIO.search(done.stdout), f"{module} printed no ratio:\n{done.stdout[-3000:]}"
    return done.stdout


@pytest.mark.parametrize(
    ("module", "args"),
    [
        ("bench.engine_bench", ("0.1",)),
        ("bench.spike_bench", ("0.1",)),
        ("bench.classic_bench", ("0.1",)),
        ("bench.replay_bench", ("3", "3")),
    ],
)
def test_engine_benches_print_their_ratio(module, args):
    out = run(module, *args)
    if module != "bench.replay_bench":
        assert "6-handed" in out and "as measured before" in out


def _postgresql_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):  # outside CI only: a skip fails CI
        pytest.skip("the database benches run on PostgreSQL (DATABASE_URL)")
    return url


@pytest.fixture(scope="module")
def migrated_template():
    """A database migrated once per test process (`manage.py migrate` in its own process, every migration applied),
    the template each bench's database is copied from: a bench's own `migrate` then finds nothing left to apply,
    where migrating each one afresh took about 20 s of the suite's time per bench. The tournament bench still
    drops and migrates its database itself, as shipped. Dropped afterwards."""
    import psycopg

    url = _postgresql_url()
    base = url.rpartition("/")[0]
    name = f"sabacc_bench_template_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": f"{base}/{name}", "PYTHONWARNINGS": "ignore"},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"migrate exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        yield name
    finally:
        with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def bench_database(migrated_template):
    """A fresh database on the test database's server, a copy of the migrated template, dropped afterwards; its
    URL."""
    import psycopg

    base = _postgresql_url().rpartition("/")[0]
    name = f"sabacc_bench_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{migrated_template}"')
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_league_bench_runs_as_shipped(bench_database):
    out = run(
        "bench.league_bench",
        "--games",
        "300",
        "--players",
        "30",
        "--requests",
        "5",
        env={"DATABASE_URL": bench_database},
    )
    assert "new result shown by the API" in out and "full standings recomputation" in out
    assert "deleted result shown by the API" in out and "league page" in out


def test_tournament_bench_runs_as_shipped(bench_database):
    """To a winner, every chip accounted for (the bench checks it), with its lags against their aim as ratios."""
    out = run(
        "bench.tournament_bench",
        "--players",
        "16",
        "--workers",
        "2",
        env={"TOURNAMENT_BENCH_URL": bench_database},
    )
    assert "16 players on 2 tables" in out and "15 eliminations" in out


def test_pages_bench_runs_as_shipped(bench_database):
    out = run(
        "bench.pages_bench",
        "--games",
        "300",
        "--players",
        "30",
        "--requests",
        "5",
        env={"DATABASE_URL": bench_database},
    )
    assert "against the same HTML from the same cache" in out


def test_tables_bench_runs_as_shipped(bench_database):
    if not os.environ.get("REDIS_URL"):  # outside CI only: a skip fails CI
        pytest.skip("the tables bench needs Redis (REDIS_URL)")
    run(
        "bench.tables_bench",
        "--tables",
        "2",
        "--seconds",
        "6",
        # One of the two tables has a player who never acts (the clock's path), the other only bots with short
        # pauses: with both waiting on such a player (the default), a 6 s window could see no action at all.
        "--timeout-tables",
        "1",
        "--bot-delay",
        "0.2,0.6",
        "--worker-processes",
        "1",
        env={"DATABASE_URL": bench_database},
    )


def test_streams_bench_runs_as_shipped(bench_database):
    """Real event streams and page loads against uvicorn (2 workers, production settings), in a tiny size."""
    if not os.environ.get("REDIS_URL"):  # outside CI only: a skip fails CI
        pytest.skip("the streams bench needs Redis (REDIS_URL)")
    out = run(
        "bench.streams_bench",
        "--tables",
        "2",
        "--seconds",
        "4",
        "--clients",
        "8",
        "--load-seconds",
        "3",
        "--worker-processes",
        "1",
        env={"DATABASE_URL": bench_database},
    )
    assert "action -> stream viewer" in out and "5xx or failed 0;" in out
    assert "streams window: CPU (100% = one core): bench clients" in out and "web (uvicorn)" in out
    assert "streams window: event loop lag (web workers" in out and "page-load window: event loop lag" in out


def test_streams_bench_page_load_only_runs_as_shipped(bench_database):
    """`--page-only`: the page load alone, no stream viewers."""
    if not os.environ.get("REDIS_URL"):  # outside CI only: a skip fails CI
        pytest.skip("the streams bench needs Redis (REDIS_URL)")
    out = run(
        "bench.streams_bench",
        *("--tables", "2", "--clients", "8", "--load-seconds", "3", "--worker-processes", "1", "--page-only"),
        env={"DATABASE_URL": bench_database},
    )
    assert "page load only (no stream viewers)" in out and "action -> stream viewer" not in out
    assert "table page" in out and "5xx or failed 0;" in out


def test_streams_cpu_bench_runs_as_shipped(bench_database):
    """CPU per request and per stream viewer, in-process, through both ASGI handlers and the plain one."""
    if not os.environ.get("REDIS_URL"):  # outside CI only: a skip fails CI
        pytest.skip("the streams CPU bench needs Redis (REDIS_URL)")
    out = run("bench.streams_cpu", "--repeat", "5", env={"DATABASE_URL": bench_database})
    assert "organiser, JSON state peer" in out and "a stream viewer per change, 60 streams" in out


def test_tabletop_bench_runs_as_shipped():
    """Real-cards tables on the embedded default (runserver, SQLite, no Redis), in a tiny size: every step reaches
    every phone (the bench exits 1 otherwise) and both figures and the ratios are printed."""
    out = run("bench.tabletop_bench", "--tables", "2", "--phones", "3", "--seconds", "4", "--think", "0.1")
    assert "2 real-cards tables, 3 phones each" in out
    assert "step POST -> every phone" in out and "peer: the bare stream" in out
    assert "receipts missing" not in out


def test_classic_engine_only_path_plays_the_random_bots_games():
    """The Classic bench's engine-only path reads the seat's `ClassicLegal` itself (no dict, no `Decision`), as
    Cantina's does; it must make the same draws as `ClassicRandomBot`'s `random_decision` from `to_dict()`, so both
    play the same hands to the same stacks and logs."""
    import random

    from bench.classic_bench import _random, new_classic
    from bench.loops import engine_only
    from games.engine.bots import apply_decision
    from games.engine.bots.classic import random_decision

    def through_dicts(game, seat, rng):
        apply_decision(game, seat, random_decision(game.legal_actions(seat).to_dict(), rng))

    played = {}
    for name, decide in (("legal", _random), ("dicts", through_dicts)):
        games = []

        def new_game(rng, games=games):
            games.append(new_classic(rng))
            return games[-1]

        engine_only(new_game, decide, random.Random(3), 120, six_handed=True)
        played[name] = [(game.stacks, game.history_json()) for game in games]
    assert len(played["legal"]) > 20
    assert played["legal"] == played["dicts"]
