"""Fault bench: tables of bots on PostgreSQL, Redis, a real Celery worker (two processes) and beat, through faults.

Each fault is applied while the tables play, then the bench waits for every running table to change again
(a bot's decision, a deal) and reports per fault how many tables resumed and how long after the fault ended it
took (p50, max), and checks every table's chips (stacks, pots and carry-over add up to what was bought in):

- worker: the worker is killed with -9 (its whole process group) and started again `--down` seconds later;
- redis: Redis is shut down without saving and started again `--down` seconds later, empty (the broker's
  queues, unacked messages and the cache are gone);
- database: every connection of the bench's database is ended with `pg_terminate_backend`, a few times over a
  couple of seconds, so that tasks in flight lose theirs.

Redis runs on its own port (`--redis-port`, default 6391: never the shared 6379), started and stopped by the
bench. PostgreSQL from DATABASE_URL, or a `sabacc_faults_bench` database it creates and drops.

Run: `.venv/bin/python -m bench.faults_bench [--tables 6] [--seats 4] [--down 10] [--settle 60]`
"""

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

from bench.league_bench import _create_database, _drop_database, _setup_django

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/sabacc_faults_bench"
FAULTS = ("worker", "redis", "database")


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench.faults_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--seats", type=int, default=4, help="bots per table")
    parser.add_argument("--down", type=float, default=10.0, help="seconds the worker or Redis stays down")
    parser.add_argument("--settle", type=float, default=60.0, help="seconds to wait for every table to resume")
    parser.add_argument("--warm-up", type=float, default=8.0)
    parser.add_argument("--redis-port", type=int, default=6391)
    parser.add_argument("--faults", default=",".join(FAULTS), help="which, in order (worker,redis,database)")
    parser.add_argument("--loglevel", default="WARNING", help="of the worker and beat (their logs are kept)")
    return parser.parse_args(argv)


class Services:
    """Redis on its own port, the worker and beat: processes the bench starts, kills and starts again."""

    def __init__(self, args: argparse.Namespace, url: str, folder: str) -> None:
        self.args, self.folder = args, folder
        self.redis_url = f"redis://127.0.0.1:{args.redis_port}/0"
        self.env = {
            **os.environ,
            "DATABASE_URL": url,
            "REDIS_URL": self.redis_url,
            "DEBUG": "false",
            "PYTHONUNBUFFERED": "1",
        }
        self.env.pop("EMBEDDED_BROKER_DIR", None)
        self.redis = self.worker = self.beat = None
        self.logs = []

    def _start(self, name: str, command: list[str]) -> subprocess.Popen:
        log = open(os.path.join(self.folder, f"{name}.log"), "a")  # noqa: SIM115 (closed in stop_all)
        self.logs.append(log)
        return subprocess.Popen(command, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def start_redis(self) -> None:
        port = str(self.args.redis_port)
        self.redis = self._start("redis", ["redis-server", "--port", port, "--save", "", "--appendonly", "no"])
        _wait(lambda: subprocess.run(["redis-cli", "-p", port, "ping"], capture_output=True).stdout.strip() == b"PONG")

    def stop_redis(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.args.redis_port), "shutdown", "nosave"], capture_output=True)
        self.redis.wait(10)

    def start_worker(self) -> None:
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        self.worker = self._start("worker", [*celery, "worker", "--concurrency", "2", "--loglevel", self.args.loglevel])

    def kill_worker(self) -> None:
        os.killpg(self.worker.pid, signal.SIGKILL)
        self.worker.wait(10)

    def start_beat(self) -> None:
        schedule = os.path.join(self.folder, "beat-schedule")
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        self.beat = self._start("beat", [*celery, "beat", "--loglevel", self.args.loglevel, "--schedule", schedule])

    def stop_all(self) -> None:
        for process in (self.worker, self.beat):
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
        if self.redis is not None and self.redis.poll() is None:
            self.stop_redis()
        for log in self.logs:
            log.close()


def _wait(condition, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise RuntimeError(f"not ready within {seconds:.0f} s")


def _tables(count: int, seats: int):
    from datetime import date

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.online import services
    from league.models import Event, EventKind, EventStatus, League, Membership, Player, Role, Season

    user = get_user_model().objects.create_user(username=f"faults-{uuid.uuid4().hex[:6]}", password=None)
    league = League.objects.create(name="Faults bench", slug=f"faults-{uuid.uuid4().hex[:6]}", preset="casino")
    Membership.objects.create(
        league=league, player=Player.objects.create(display_name="Bench", user=user), role=Role.ORGANISER
    )
    season = Season.objects.create(league=league, name="Bench", starts_on=date.today())
    event = Event.objects.create(
        season=season, name="Bench night", kind=EventKind.GAME, status=EventStatus.PLANNED, starts_at=timezone.now()
    )
    tables = []
    for number in range(count):
        table = services.table_open(
            actor=user, event=event, name=f"Faults {number + 1}", seats=seats, turn_seconds=30, preset="casino"
        )
        services.table_fill_bots(actor=user, table=table, kind="sensible")
        tables.append(table)
    return user, tables


def _versions(ids: list[int]) -> dict[int, tuple[int, str]]:
    from games.online.models import OnlineTable

    return {pk: (version, status) for pk, version, status in OnlineTable.objects.filter(pk__in=ids).values_list(
        "pk", "version", "status"
    )}  # fmt: skip


def _chips_problems(ids: list[int]) -> list[str]:
    """Tables whose chips do not add up to the seats' buy-ins (a cash table here: nobody re-buys or leaves)."""
    from games.engine import Game
    from games.online.models import OnlineTable

    problems = []
    for table in OnlineTable.objects.filter(pk__in=ids).prefetch_related("seats"):
        bought = sum(table.buy_in for seat in table.seats.all() if seat.engine_seat is not None)
        total = Game.from_json(table.state).total_credits()
        if total != bought:
            problems.append(f"table {table.pk}: {total} chips, {bought} bought in")
    return problems


def _apply(fault: str, services: Services, url: str, down: float) -> None:
    if fault == "worker":
        services.kill_worker()
        time.sleep(down)
        services.start_worker()
    elif fault == "redis":
        services.stop_redis()
        time.sleep(down)
        services.start_redis()
    elif fault == "database":
        import psycopg

        name = url.rpartition("/")[2]
        with psycopg.connect(url.rpartition("/")[0] + "/postgres", autocommit=True) as admin:
            for _ in range(5):
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
                    "AND pid <> pg_backend_pid()",
                    [name],
                )
                time.sleep(0.4)
        from django.db import connections

        connections.close_all()  # the bench's own connection was ended too
    else:
        raise ValueError(f"unknown fault {fault!r}")


def _resume(ids: list[int], settle: float) -> tuple[list[int], dict[int, float], float]:
    """After a fault: the tables still running, how long each took to change again, and how long a worker took
    to answer a ping (seconds; its own start takes several on a loaded machine)."""
    from config.celery import app

    start, before = time.monotonic(), _versions(ids)
    running = [pk for pk, (_, status) in before.items() if status == "running"]
    resumed: dict[int, float] = {}
    answered = float("nan")
    while time.monotonic() - start < settle and len(resumed) < len(running):
        if answered != answered:  # not yet (nan)
            try:
                if app.control.ping(timeout=0.2):
                    answered = time.monotonic() - start
            except Exception:  # the broker itself is still coming back
                pass
        now = _versions(running)
        for pk in running:
            if pk not in resumed and now[pk] != before[pk]:
                resumed[pk] = time.monotonic() - start
        time.sleep(0.25)
    return running, resumed, answered


def _run(args: argparse.Namespace, url: str, folder: str) -> int:
    from django.conf import settings

    from config.celery import app
    from games.online import services

    services_ = Services(args, url, folder)
    services_.start_redis()
    failures = 0
    try:
        services_.start_worker()
        services_.start_beat()
        user, tables = _tables(args.tables, args.seats)
        ids = [t.pk for t in tables]
        _wait(lambda: bool(app.control.ping(timeout=0.5)), 180)  # a worker's start takes a while on a busy machine
        for table in tables:
            services.table_start(actor=user, table=table)
        time.sleep(args.warm_up)
        print(
            f"{args.tables} tables x {args.seats} sensible bots (delay {settings.ONLINE_BOT_DELAY_SECONDS} s), "
            f"PostgreSQL, Redis :{args.redis_port}, worker of 2 processes + beat (sweep every "
            f"{settings.CELERY_BEAT_SCHEDULE['online-sweep']['schedule']:.0f} s); faults {args.down:.0f} s long"
        )
        for fault in args.faults.split(","):
            _apply(fault, services_, url, args.down)
            running, resumed, answered = _resume(ids, args.settle)
            times = sorted(resumed.values())
            problems = _chips_problems(ids)
            failures += len(running) - len(resumed) + len(problems)
            took = f"p50 {statistics.median(times):5.1f} s, max {max(times):5.1f} s" if times else "none resumed"
            chips = "every chip accounted for" if not problems else "; ".join(problems)
            # A ping waits 0.2 s; a worker busy catching up may answer none before every table has resumed.
            pinged = f"after {answered:4.1f} s" if answered == answered else "to no ping before the tables resumed"
            print(
                f"{fault:9} resumed {len(resumed):3}/{len(running):<3} after the fault: {took} "
                f"(a worker answered {pinged}); {chips}"
            )
    finally:
        services_.stop_all()
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv or [])
    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    own_database = "DATABASE_URL" not in os.environ
    if not url.startswith(("postgres://", "postgresql://")):
        print(f"The faults bench runs on PostgreSQL; DATABASE_URL={url!r} is not one.", file=sys.stderr)
        return 2
    os.environ["REDIS_URL"] = f"redis://127.0.0.1:{args.redis_port}/0"
    os.environ["ONLINE_EVENT_PREFIX"] = f"faults-{uuid.uuid4().hex[:8]}"
    os.environ["ONLINE_HAND_PAUSE_SECONDS"] = "1"
    if own_database:
        _create_database(url)
    folder = tempfile.mkdtemp(prefix="faults-bench-")
    try:
        _setup_django(url)
        return _run(args, url, folder)
    finally:
        print(f"(worker, beat and Redis logs in {folder})")
        if own_database:
            from django.db import connections

            connections.close_all()
            _drop_database(url)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
