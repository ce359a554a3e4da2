"""Tables benchmark: 50 casino tables of 6 bots playing at once through the real services, on PostgreSQL,
Redis and a Celery worker (a separate process, `bench.tables_worker`), with 300 connected viewers.

The viewers are Redis pub/sub subscribers (6 per table, each its own connection, in one asyncio loop), standing
in for the browsers' event streams: each subscribes to its table's channel exactly as a stream does and stamps
the moment an event arrives. What is measured, in one run:

- actions per second: bot decisions applied (`OnlineAction` rows) over the measured window;
- action to viewer: from the moment the worker's task called the acting service for a decision (before the
  table lock, the engine, the save and the commit) to that decision's event (the table's new version)
  reaching a viewer; every viewer's receipt counts;
- the peer, Redis's own publish-to-subscriber time: probe messages stamped at publish, on 6 more subscriber
  connections of the same loop, published all along the same window.

A viewer's stream then renders the table for its viewer before sending it; that rendering is not in this
figure (it is per viewer, in the web process, and the page bench measures page rendering).

Run: `.venv/bin/python -m bench.tables_bench [--tables 50] [--seconds 60] [--bot-delay 0.8,2.0]`
(PostgreSQL from DATABASE_URL, or a `sabacc_tables_bench` database it creates and drops; Redis from
REDIS_URL, default redis://127.0.0.1:6379/12).
"""

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

from bench.league_bench import _create_database, _drop_database, _p95, _setup_django

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/sabacc_tables_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/12"
SEATS = 6
VIEWERS_PER_TABLE = 6
PROBE_VIEWERS = 6
PROBE_EVERY = 0.05
WARM_UP = 5.0
AIM_P95_MS = 100.0


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench.tables_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of 6 bots (default 50)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured window after a 5 s warm-up")
    parser.add_argument("--bot-delay", default="0.8,2.0", help="a bot's pause before deciding, low,high seconds")
    parser.add_argument("--bot", default="sensible", choices=("sensible", "random"))
    parser.add_argument("--worker-processes", type=int, default=2)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv or [])
    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    own_database = "DATABASE_URL" not in os.environ
    if not url.startswith(("postgres://", "postgresql://")):
        print(f"The tables bench runs on PostgreSQL; DATABASE_URL={url!r} is not one.", file=sys.stderr)
        return 2
    os.environ["REDIS_URL"] = os.environ.get("REDIS_URL") or DEFAULT_REDIS
    os.environ["ONLINE_EVENT_PREFIX"] = f"bench-{uuid.uuid4().hex[:8]}"
    os.environ["ONLINE_HAND_PAUSE_SECONDS"] = "1"
    if own_database:
        _create_database(url)
    try:
        _setup_django(url)
        return _run(args, url)
    finally:
        if own_database:
            from django.db import connections

            connections.close_all()
            _drop_database(url)


class Viewers:
    """300 table viewers and the probe's viewers: Redis subscribers in one asyncio loop, in a thread."""

    def __init__(self, redis_url: str, channels: list[str], probe_channel: str) -> None:
        self.redis_url, self.channels, self.probe_channel = redis_url, channels, probe_channel
        self.received: list[tuple[int, int, float]] = []  # (table, version, arrival)
        self.probes: list[float] = []  # publish-to-subscriber seconds
        self.ready = threading.Event()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._main, daemon=True)

    def start(self) -> None:
        self.thread.start()
        if not self.ready.wait(60):
            raise RuntimeError("the viewers could not subscribe within 60 s")

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self._stopping.set)
        self.thread.join(30)

    def _main(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._serve())

    async def _serve(self) -> None:
        import redis.asyncio as aioredis

        self._stopping = asyncio.Event()
        clients = []
        subscriptions = []
        for channel in [*self.channels, *[self.probe_channel] * PROBE_VIEWERS]:
            client = aioredis.Redis.from_url(self.redis_url)  # a connection per viewer, as a stream has
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            await pubsub.subscribe(channel)
            clients.append(client)
            subscriptions.append(pubsub)
        tasks = [
            asyncio.create_task(self._listen(p, p is not None and i >= len(self.channels)))
            for i, p in enumerate(subscriptions)
        ]
        self.ready.set()
        await self._stopping.wait()
        for task in tasks:
            task.cancel()
        for pubsub, client in zip(subscriptions, clients, strict=True):
            await pubsub.aclose()
            await client.aclose()

    async def _listen(self, pubsub, probe: bool) -> None:
        while True:
            message = await pubsub.get_message(timeout=1.0)
            if message is None or message.get("type") != "message":
                continue
            arrived = time.time()
            data = json.loads(message["data"])
            if probe:
                self.probes.append(arrived - data["sent"])
            elif "version" in data:
                self.received.append((data["table"], data["version"], arrived))


def _probe(redis_url: str, channel: str, stop: threading.Event) -> None:
    """Redis's own publish-to-subscriber time, all along the run: stamped messages on the probe channel."""
    import redis

    client = redis.Redis.from_url(redis_url)
    while not stop.wait(PROBE_EVERY):
        client.publish(channel, json.dumps({"sent": time.time()}))


def _world(tables: int, bot: str):
    from django.contrib.auth import get_user_model

    from games.online import services
    from league.models import Event, EventKind, EventStatus, League, Membership, Player, Role, Season

    user = get_user_model().objects.create_user(username=f"bench-{uuid.uuid4().hex[:6]}", password=None)
    league = League.objects.create(name="Tables bench", slug=f"tables-bench-{uuid.uuid4().hex[:6]}", preset="casino")
    Membership.objects.create(
        league=league, player=Player.objects.create(display_name="Bench", user=user), role=Role.ORGANISER
    )
    from datetime import date

    from django.utils import timezone

    season = Season.objects.create(league=league, name="Bench", starts_on=date.today())
    event = Event.objects.create(
        season=season,
        name="Bench night",
        kind=EventKind.TOURNAMENT,
        status=EventStatus.PLANNED,
        starts_at=timezone.now(),
    )
    opened = []
    for number in range(tables):
        table = services.table_open(
            actor=user, event=event, name=f"Bench {number + 1}", seats=SEATS, turn_seconds=600, preset="casino"
        )
        services.table_fill_bots(actor=user, table=table, kind=bot)
        opened.append(table)
    return user, opened


def _start_worker(args, url: str, times_file: str, queue: str) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "BENCH_TIMES_FILE": times_file,
        "BENCH_QUEUE": queue,
        "BENCH_BOT_DELAY": args.bot_delay,
        "BENCH_WORKER_PROCESSES": str(args.worker_processes),
    }
    return subprocess.Popen([sys.executable, "-m", "bench.tables_worker"], env=env)


def _wait_for_worker(queue: str, timeout: float = 60.0) -> None:
    from config.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if app.control.ping(timeout=1.0):
            return
    raise RuntimeError("the bench's Celery worker did not answer within 60 s")


def _run(args: argparse.Namespace, url: str) -> int:
    from django.conf import settings

    from config.celery import app
    from games.online import services
    from games.online.models import OnlineAction, OnlineTable

    if not settings.REDIS_URL:
        print("The tables bench needs Redis (REDIS_URL).", file=sys.stderr)
        return 2
    queue = f"bench-tables-{uuid.uuid4().hex[:6]}"
    app.conf.task_default_queue = queue  # the tables' tasks go to the bench's own worker only
    settings.ONLINE_BOT_DELAY_SECONDS = tuple(float(x) for x in args.bot_delay.split(","))
    user, tables = _world(args.tables, args.bot)
    channels = [f"sabacc:{services.table_topic(t.pk)}" for t in tables for _ in range(VIEWERS_PER_TABLE)]
    probe_channel = f"sabacc:{settings.ONLINE_EVENT_PREFIX}.probe"
    viewers = Viewers(settings.REDIS_URL, channels, probe_channel)
    viewers.start()
    handle, times_file = tempfile.mkstemp(prefix="tables-bench-", suffix=".txt")
    os.close(handle)
    worker = _start_worker(args, url, times_file, queue)
    stop_probe = threading.Event()
    try:
        _wait_for_worker(queue)
        for table in tables:
            services.table_start(actor=user, table=table)
        probe = threading.Thread(target=_probe, args=(settings.REDIS_URL, probe_channel, stop_probe), daemon=True)
        time.sleep(WARM_UP)
        window_start = time.time()
        viewers.probes.clear()
        probe.start()
        time.sleep(args.seconds)
        window_end = time.time()
        stop_probe.set()
        probe.join(5)
    finally:
        worker.terminate()
        try:
            worker.wait(30)
        except subprocess.TimeoutExpired:
            worker.kill()
        viewers.stop()
    started: dict[tuple[int, int, int], float] = {}
    service: list[float] = []  # the task's call of the service, lock to commit and publish included
    with open(times_file) as lines:
        for line in lines:
            table_id, seat, turn_version, at, done = line.split()
            started[(int(table_id), int(seat), int(turn_version))] = float(at)
            if window_start <= float(at) < window_end:
                service.append(float(done) - float(at))
    os.unlink(times_file)
    action_start: dict[tuple[int, int], float] = {}
    table_ids = [t.pk for t in tables]
    bot_actions = OnlineAction.objects.filter(table_id__in=table_ids, source="bot").select_related("seat")
    for row in bot_actions.values("table_id", "key", "version", "seat__number"):
        _, turn_version, seat = row["key"].split(":")
        at = started.get((row["table_id"], int(seat), int(turn_version)))
        if at is not None:
            action_start[(row["table_id"], row["version"])] = at
    in_window = [at for at in action_start.values() if window_start <= at < window_end]
    latencies = [
        arrived - action_start[(table, version)]
        for table, version, arrived in viewers.received
        if (table, version) in action_start and window_start <= action_start[(table, version)] < window_end
    ]
    probes = list(viewers.probes)
    hands = sum(len([r for r in t.results if "stacks" in r]) for t in OnlineTable.objects.filter(pk__in=table_ids))
    if not latencies or not probes:
        print("No action reached a viewer in the window: is the worker running?", file=sys.stderr)
        return 1
    p50, p95 = statistics.median(latencies) * 1000, _p95(latencies) * 1000
    r50, r95 = statistics.median(probes) * 1000, _p95(probes) * 1000
    seconds = window_end - window_start
    print(
        f"{args.tables} tables x {SEATS} {args.bot} bots (delay {args.bot_delay} s), "
        f"{len(channels)} viewers (Redis subscribers), worker: {args.worker_processes} processes, "
        f"{seconds:.0f} s measured, {hands} hands in all"
    )
    print(f"actions applied: {len(in_window)} ({len(in_window) / seconds:.1f}/s); viewer receipts: {len(latencies)}")
    print(f"action -> viewer      p50 {p50:7.1f} ms   p95 {p95:7.1f} ms   max {max(latencies) * 1000:7.1f} ms")
    print(
        f"  of which the service  p50 {statistics.median(service) * 1000:7.1f} ms   "
        f"p95 {_p95(service) * 1000:7.1f} ms   (bot decision, lock, engine, save, commit, publish)"
    )
    print(f"redis publish -> sub  p50 {r50:7.2f} ms   p95 {r95:7.2f} ms   ({len(probes)} probe receipts)")
    print(
        f"ratio p95 action->viewer / p95 redis: {p95 / r95:.1f}x; aim p95 under {AIM_P95_MS:.0f} ms: "
        f"{'met' if p95 < AIM_P95_MS else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
