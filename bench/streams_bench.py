"""Streams benchmark: real browsers' event streams and page loads against uvicorn as docker-compose runs it.

The tables bench's world (`bench.tables_bench`: casino tables of 6 bots, played by a real Celery worker) is set
up, and the site is served by uvicorn with 2 workers on production settings (`bench.streams_site`). Then, at once:

- the viewers: HTTP clients holding `/tables/<id>/events/` open (server-sent events), 6 per table by default: 3
  anonymous, 2 signed-in members of the league and the organiser (who sees the Pause and Close buttons: a
  rendering of their own). Measured: from the moment the worker's task called the acting service for a decision
  to that version's message arriving at each viewer, every viewer's receipt counted;
- the peer: Redis pub/sub subscribers (one per table, `bench.tables_bench.Viewers`) hearing the same events, so
  the figure stands next to what a bare subscriber sees of the same actions at the same moment;

and afterwards, with the tables still playing and the streams still open, the page load: `--clients` clients
each asking, in turns, for the table page, its JSON state (`/tables/<id>/fragment/`, what the page polls when its
stream fails) and their peers (`/bench-peer/...`: the same bytes from the same cache through the same
middleware), with a pause of `--think` seconds (random, 0.5x to 1.5x) between requests. Measured: p50/p95 and the
count of 5xx answers.

The clients are h11 (HTTP/1.1, the library uvicorn itself parses with) over asyncio, in this process, on the same
2 cores as the server: their own CPU is part of the load.

Run: `.venv/bin/python -m bench.streams_bench [--tables 50] [--viewers 6] [--seconds 60] [--clients 200]
[--load-seconds 30]` (PostgreSQL from DATABASE_URL, or a `sabacc_streams_bench` database it creates and drops;
Redis from REDIS_URL, default redis://127.0.0.1:6379/6).
"""

import argparse
import asyncio
import atexit
import contextlib
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field

from bench.league_bench import _p95
from bench.tables_bench import in_database

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/sabacc_streams_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/6"
AIM_VIEWER_P95_MS = 100.0
AIM_PAGE_P95_MS = 300.0
WARM_UP = 5.0


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench.streams_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=6, help="stream viewers per table (default 6)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured stream window after a warm-up")
    parser.add_argument("--clients", type=int, default=200, help="page-load clients (default 200)")
    parser.add_argument("--load-seconds", type=float, default=30.0, help="measured page-load window")
    parser.add_argument("--think", type=float, default=1.0, help="a page client's mean pause between requests")
    parser.add_argument("--bot-delay", default="0.8,2.0")
    parser.add_argument("--bot", default="sensible", choices=("sensible", "random"))
    parser.add_argument("--worker-processes", type=int, default=2)
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument(
        "--page-only",
        action="store_true",
        help="no stream viewers: only the page load, while the tables play (what the pages cost without the streams)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(sys.argv[1:] if argv is None else argv)
    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    own_database = "DATABASE_URL" not in os.environ
    if not url.startswith(("postgres://", "postgresql://")):
        print(f"The streams bench runs on PostgreSQL; DATABASE_URL={url!r} is not one.", file=sys.stderr)
        return 2
    os.environ["REDIS_URL"] = os.environ.get("REDIS_URL") or DEFAULT_REDIS
    os.environ["ONLINE_EVENT_PREFIX"] = f"bench-{uuid.uuid4().hex[:8]}"
    os.environ["ONLINE_HAND_PAUSE_SECONDS"] = "1"
    os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)  # the web processes and this one sign sessions alike
    return in_database(url, own_database, lambda: _run(args, url))


# ----- an HTTP/1.1 client (h11 over asyncio) ---------------------------------------------------------------


class Http:
    """One keep-alive connection to the server."""

    def __init__(self, port: int, cookie: str | None) -> None:
        self.port, self.cookie = port, cookie
        self.reader = self.writer = None

    async def _open(self) -> None:
        import h11

        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.conn = h11.Connection(h11.CLIENT)

    def _request(self, path: str, accept: str) -> bytes:
        import h11

        headers = [("Host", "127.0.0.1"), ("Accept", accept)]
        if self.cookie:
            headers.append(("Cookie", f"sessionid={self.cookie}"))
        return self.conn.send(h11.Request(method="GET", target=path, headers=headers)) + self.conn.send(
            h11.EndOfMessage()
        )

    async def _next(self):
        import h11

        while True:
            event = self.conn.next_event()
            if event is h11.NEED_DATA:
                data = await self.reader.read(65536)
                self.conn.receive_data(data)
                continue
            return event

    async def get(self, path: str, accept: str = "text/html") -> tuple[int, bytes]:
        import h11

        if self.writer is None or self.conn.our_state is not h11.IDLE:
            await self.close()
            await self._open()
        self.writer.write(self._request(path, accept))
        await self.writer.drain()
        status, body = 0, []
        while True:
            event = await self._next()
            if isinstance(event, h11.Response):
                status = event.status_code
            elif isinstance(event, h11.Data):
                body.append(bytes(event.data))
            elif isinstance(event, h11.EndOfMessage):
                break
            elif isinstance(event, h11.ConnectionClosed):
                raise ConnectionError("closed mid-answer")
        if self.conn.our_state is h11.DONE and self.conn.their_state is h11.DONE:
            self.conn.start_next_cycle()
        return status, b"".join(body)

    async def events(self, path: str, on_event) -> None:
        """Hold a stream open, calling `on_event(id, arrival)` for each state message, until cancelled."""
        import h11

        await self._open()
        self.writer.write(self._request(path, "text/event-stream"))
        await self.writer.drain()
        buffer = b""
        while True:
            event = await self._next()
            if isinstance(event, h11.Response) and event.status_code != 200:
                raise RuntimeError(f"{path}: {event.status_code}")
            if isinstance(event, h11.Data):
                arrived = time.time()
                buffer += bytes(event.data)
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    if block.startswith(b"id: "):
                        on_event(int(block[4 : block.index(b"\n")]), arrived)
            elif isinstance(event, h11.EndOfMessage | h11.ConnectionClosed):
                return  # the stream's time is up: reconnect, as a browser does
            # (the Response itself and anything else: nothing to do)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


# ----- the run ------------------------------------------------------------------------------------------------


@dataclass
class Browsers:
    port: int
    received: list[tuple[int, int, float]] = field(default_factory=list)  # (table, version, arrival)
    reconnects: int = 0
    failures: list[str] = field(default_factory=list)

    async def viewer(self, table_id: int, cookie: str | None) -> None:
        since = ""
        while True:
            client = Http(self.port, cookie)

            def seen(version: int, arrived: float) -> None:
                nonlocal since
                since = str(version)
                self.received.append((table_id, version, arrived))

            try:
                await client.events(f"/tables/{table_id}/events/?since={since}", seen)
                self.reconnects += 1
            except asyncio.CancelledError:
                await client.close()
                raise
            except Exception as exc:  # a viewer that fails is counted and comes back, as a browser does
                self.failures.append(repr(exc))
                await asyncio.sleep(1.0)
            finally:
                await client.close()


@dataclass
class Load:
    port: int
    think: float
    times: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)  # 5xx and failed connections
    statuses: dict[int, int] = field(default_factory=dict)

    async def client(self, paths: list[tuple[str, str, str]], cookie: str | None, stop: asyncio.Event) -> None:
        http = Http(self.port, cookie)
        turn = random.randrange(len(paths))
        await asyncio.sleep(random.uniform(0, self.think))
        try:
            while not stop.is_set():
                name, path, accept = paths[turn % len(paths)]
                turn += 1
                begin = time.perf_counter()
                try:
                    status, _ = await http.get(path, accept)
                except Exception:
                    status = 599
                    await http.close()
                elapsed = time.perf_counter() - begin
                self.statuses[status] = self.statuses.get(status, 0) + 1
                if status >= 500:
                    self.errors[name] = self.errors.get(name, 0) + 1
                self.times.setdefault(name, []).append(elapsed)
                await asyncio.sleep(random.uniform(0.5, 1.5) * self.think)
        finally:
            await http.close()


def _descendants(root: int) -> list[int]:
    """`root` and every process under it (uvicorn's workers, Celery's pool), from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError), open(f"/proc/{entry}/stat") as stat:
                parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += [child for child, parent in parents.items() if parent == pid]
    return found


def _cpu_seconds(root: int | None) -> float:
    """CPU time (user + system) of `root` and the processes under it; this process when `root` is None."""
    if root is None:
        return time.process_time()
    ticks = 0
    for pid in _descendants(root):
        with contextlib.suppress(OSError, IndexError, ValueError):
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


@dataclass
class Cpu:
    """Who spent the 2 cores during a window: this bench (its clients, the Redis subscribers), the web server, the
    worker; and the machine's load average. The clients' share says whether they, not the server, set the pace."""

    roots: dict[str, int | None]
    begun: dict[str, float] = field(default_factory=dict)
    wall: float = 0.0
    spent: dict[str, float] = field(default_factory=dict)
    load: tuple[float, float] = (0.0, 0.0)
    window: tuple[float, float] = (0.0, 0.0)  # epoch seconds

    def start(self) -> None:
        self.window = (time.time(), 0.0)
        self.begun = {name: _cpu_seconds(root) for name, root in self.roots.items()}
        self.wall, self.load = time.monotonic(), (os.getloadavg()[0], 0.0)

    def stop(self) -> None:
        seconds = time.monotonic() - self.wall
        self.spent = {name: (_cpu_seconds(root) - self.begun[name]) / seconds for name, root in self.roots.items()}
        self.load = (self.load[0], os.getloadavg()[0])
        self.window = (self.window[0], time.time())

    def line(self) -> str:
        shares = ", ".join(f"{name} {share * 100:.0f}%" for name, share in self.spent.items())
        return f"CPU (100% = one core): {shares}; load average {self.load[0]:.1f} -> {self.load[1]:.1f}"


def _loop_lag(folder: str, start: float, end: float) -> str:
    """The web workers' event loop lag in the window (epoch seconds), from `bench.streams_asgi`'s probe."""
    lags = []
    for name in os.listdir(folder):
        with open(os.path.join(folder, name)) as found:
            for line in found:
                at, lag = line.split()
                if start <= float(at) < end:
                    lags.append(float(lag))
    if not lags:
        return "event loop lag: no samples"
    return (
        f"event loop lag (web workers, a probe every 10 ms): p50 {statistics.median(lags):.1f} ms,"
        f" p95 {_p95(lags):.1f} ms, max {max(lags):.1f} ms"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(args: argparse.Namespace, url: str, port: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "bench.streams_settings",
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
        "STREAMS_BENCH_LAG_DIR": args.lag_dir,
    }
    # `config.asgi`'s application with a probe of the event loop's lag beside it (`bench.streams_asgi`).
    command = [sys.executable, "-m", "uvicorn", "bench.streams_asgi:application", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--no-proxy-headers", "--workers", str(args.web_workers)]
    command += ["--loop", "uvloop", "--http", "httptools"]  # as docker-compose names them
    command += ["--log-level", "warning", "--no-access-log", "--timeout-graceful-shutdown", "5"]
    return subprocess.Popen(command, env=env, start_new_session=True)  # its workers go with it: see `_stop`


def _stop(process: subprocess.Popen, *, group: bool) -> None:
    """Stop a process this bench started (uvicorn: with the workers it spawned, its own process group)."""
    signal_to = (lambda sig: os.killpg(process.pid, sig)) if group else process.send_signal
    with contextlib.suppress(ProcessLookupError):
        signal_to(signal.SIGTERM)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            signal_to(signal.SIGKILL)
        process.wait(10)
    if group:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # a worker still finishing its streams


def _wait_for_server(port: int, server: subprocess.Popen, timeout: float = 90.0) -> None:
    async def ask() -> int:
        client = Http(port, None)
        try:
            return (await client.get("/healthz", "application/json"))[0]
        finally:
            await client.close()

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"uvicorn exited with {server.returncode}")
        try:
            if asyncio.run(ask()) == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError("uvicorn did not answer /healthz within 90 s")


def _sessions(league) -> dict[str, str]:
    """Session cookies of an organiser and two members of the league (made here, read by the server from the
    shared cache)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from league.models import Membership, Player, Role

    cookies = {}
    organiser = Membership.objects.filter(league=league, role=Role.ORGANISER).select_related("player__user").first()
    users = {"organiser": organiser.player.user}
    for number in (1, 2):
        user = get_user_model().objects.create_user(username=f"bench-member-{uuid.uuid4().hex[:6]}", password=None)
        Membership.objects.create(
            league=league, player=Player.objects.create(display_name=f"Watcher {number}", user=user)
        )
        users[f"member{number}"] = user
    for name, user in users.items():
        client = Client()
        client.force_login(user)
        cookies[name] = client.cookies["sessionid"].value
    return cookies


VIEWER_KINDS = ["anonymous", "anonymous", "anonymous", "member1", "member2", "organiser"]


def _run(args: argparse.Namespace, url: str) -> int:
    from django.conf import settings
    from django.core.cache import cache

    from bench import streams_site
    from bench.tables_bench import Viewers, _read_times, _start_worker, _wait_for_worker, _world
    from config.celery import app
    from games.online import services
    from games.online.models import OnlineAction

    if not settings.REDIS_URL:
        print("The streams bench needs Redis (REDIS_URL).", file=sys.stderr)
        return 2
    queue = f"bench-streams-{uuid.uuid4().hex[:6]}"
    app.conf.task_default_queue = queue
    settings.ONLINE_BOT_DELAY_SECONDS = tuple(float(x) for x in args.bot_delay.split(","))
    user, tables, _ = _world(args.tables, args.bot, 0, 30)
    cookies = _sessions(tables[0].event.season.league)
    port = _free_port()
    args.lag_dir = tempfile.mkdtemp(prefix="streams-bench-lag-")
    atexit.register(shutil.rmtree, args.lag_dir, True)
    server = _serve(args, url, port)
    handle, times_file = tempfile.mkstemp(prefix="streams-bench-", suffix=".txt")
    os.close(handle)
    worker = None
    subscribers = Viewers(
        settings.REDIS_URL,
        [f"sabacc:{services.table_topic(t.pk)}" for t in tables],
        f"sabacc:{settings.ONLINE_EVENT_PREFIX}.probe",
    )
    try:
        _wait_for_server(port, server)
        subscribers.start()
        worker = _start_worker(args, url, times_file, queue)
        _wait_for_worker(queue)
        for table in tables:
            services.table_start(actor=user, table=table)
        roots = {"bench clients": None, "web (uvicorn)": server.pid, "worker": worker.pid}
        outcome = asyncio.run(_measure(args, port, tables, cookies, cache, streams_site, roots))
    finally:
        for process in (worker, server):
            if process is not None:
                _stop(process, group=process is server)
        if subscribers.ready.is_set():
            subscribers.stop()
    browsers, windows, load, cpus = outcome
    started: dict[tuple[int, int, int], float] = {}
    _, done, _ = _read_times(times_file)  # the worker's lines, as the tables bench reads them
    for name, key, at, _, _ in done:
        if name == "bot_act":
            table_id, seat, turn_version = (int(part) for part in key.split(","))
            started[(table_id, seat, turn_version)] = at
    os.unlink(times_file)
    action_start: dict[tuple[int, int], float] = {}
    for row in OnlineAction.objects.filter(table_id__in=[t.pk for t in tables], source="bot").values(
        "table_id", "key", "version"
    ):
        _, turn_version, seat = row["key"].split(":")
        at = started.get((row["table_id"], int(seat), int(turn_version)))
        if at is not None:
            action_start[(row["table_id"], row["version"])] = at
    start, end = windows

    def latencies(received) -> list[float]:
        return [
            arrived - action_start[(table, version)]
            for table, version, arrived in received
            if (table, version) in action_start and start <= action_start[(table, version)] < end
        ]

    real = latencies(browsers.received)
    peer = latencies(subscribers.received)
    actions = sum(1 for at in action_start.values() if start <= at < end)
    if args.page_only:
        print(
            f"Streams bench, page load only (no stream viewers): {args.tables} tables x 6 {args.bot} bots, uvicorn"
            f" {args.web_workers} workers on production settings, worker {args.worker_processes} processes"
        )
        return _page_load(args, load, cpus)
    if not real or not peer:
        print("No action reached a viewer in the window: is the worker running?", file=sys.stderr)
        return 1
    seconds = end - start
    viewers = args.tables * args.viewers
    print(
        f"Streams bench: {args.tables} tables x 6 {args.bot} bots, uvicorn {args.web_workers} workers on production"
        f" settings, worker {args.worker_processes} processes; {seconds:.0f} s measured; {actions} actions"
        f" ({actions / seconds:.1f}/s)"
    )
    print(f"  {viewers} stream viewers (real HTTP event streams: 3 anonymous, 2 members, the organiser per table)")
    r50, r95 = statistics.median(real) * 1000, _p95(real) * 1000
    s50, s95 = statistics.median(peer) * 1000, _p95(peer) * 1000
    print(f"  action -> stream viewer      p50 {r50:7.1f} ms  p95 {r95:7.1f} ms  ({len(real)} receipts)")
    print(f"  action -> Redis subscriber   p50 {s50:7.1f} ms  p95 {s95:7.1f} ms  ({len(peer)} receipts, the peer)")
    print(
        f"  ratio p95 stream viewer / Redis subscriber: {r95 / s95:.2f}x; aim p95 under {AIM_VIEWER_P95_MS:.0f} ms:"
        f" {'met' if r95 < AIM_VIEWER_P95_MS else 'NOT met'}; viewers' reconnects {browsers.reconnects},"
        f" failures {len(browsers.failures)}"
    )
    print(f"  streams window: {cpus[0].line()}")
    print(f"  streams window: {_loop_lag(args.lag_dir, *cpus[0].window)}")
    return _page_load(args, load, cpus)


def _page_load(args: argparse.Namespace, load: Load, cpus) -> int:
    print(
        f"  page load: {args.clients} clients, one request each every {args.think:g} s on average, "
        f"{args.load_seconds:.0f} s, {'' if args.page_only else 'with the streams open and '}the tables playing"
    )
    worst = 0.0
    for name in ("table page", "JSON state"):
        times, peer_times = load.times.get(name, []), load.times.get(f"{name} peer", [])
        if not times or not peer_times:
            print(f"  {name}: no answers", file=sys.stderr)
            return 1
        p95, peer95 = _p95(times) * 1000, _p95(peer_times) * 1000
        worst = max(worst, p95)
        print(
            f"  {name:12} p50 {statistics.median(times) * 1000:7.1f} ms  p95 {p95:7.1f} ms"
            f"  5xx {load.errors.get(name, 0)}"
            f"   peer (same bytes, cache) p50 {statistics.median(peer_times) * 1000:6.1f} ms  p95 {peer95:6.1f} ms"
            f"   ratio p95 {p95 / peer95:.2f}x  ({len(times)} requests)"
        )
    print(f"  page-load window: {cpus[1].line()}")
    print(f"  page-load window: {_loop_lag(args.lag_dir, *cpus[1].window)}")
    errors = sum(load.errors.values())
    print(
        f"  page load: 5xx or failed {errors}; worst p95 {worst:.1f} ms; aim no 5xx and p95 under "
        f"{AIM_PAGE_P95_MS:.0f} ms: {'met' if errors == 0 and worst < AIM_PAGE_P95_MS else 'NOT met'}"
        f" (statuses {dict(sorted(load.statuses.items()))})"
    )
    return 0


async def _measure(args, port, tables, cookies, cache, streams_site, roots):
    browsers = Browsers(port)
    viewers = 0 if args.page_only else args.viewers
    kinds = (VIEWER_KINDS * (viewers // len(VIEWER_KINDS) + 1))[:viewers]
    tasks = [asyncio.create_task(browsers.viewer(t.pk, cookies.get(kind))) for t in tables for kind in kinds]
    await asyncio.sleep(WARM_UP)
    streams_cpu, load_cpu = Cpu(roots), Cpu(roots)
    start = time.time()
    streams_cpu.start()
    await asyncio.sleep(0 if args.page_only else args.seconds)
    streams_cpu.stop()
    end = time.time()
    # The page load, the streams still open: the peer's documents first, the same bytes the pages answer.
    load = Load(port, args.think)
    for kind in ("anonymous", "member1", "organiser"):
        table = tables[0]
        http = Http(port, cookies.get(kind))
        for name, path, accept, content_type in (
            ("table page", f"/tables/{table.pk}/", "text/html", "text/html; charset=utf-8"),
            ("JSON state", f"/tables/{table.pk}/fragment/", "application/json", "application/json"),
        ):
            status, body = await http.get(path, accept)
            assert status == 200, (path, status)
            cache.set(f"{streams_site.PEER_PREFIX}{kind}-{name.replace(' ', '-')}", (body, content_type), 3600)
        await http.close()
    stop = asyncio.Event()
    clients = []
    for number in range(args.clients):
        kind = ("anonymous", "member1", "organiser", "anonymous")[number % 4]
        table = tables[number % len(tables)]
        paths = [
            ("table page", f"/tables/{table.pk}/", "text/html"),
            ("table page peer", f"/bench-peer/{kind}-table-page/", "text/html"),
            ("JSON state", f"/tables/{table.pk}/fragment/", "application/json"),
            ("JSON state peer", f"/bench-peer/{kind}-JSON-state/", "application/json"),
        ]
        clients.append(asyncio.create_task(load.client(paths, cookies.get(kind), stop)))
    await asyncio.sleep(args.think * 2)  # every client has started
    for name in list(load.times):
        load.times[name].clear()
    load.errors.clear()
    load.statuses.clear()
    load_cpu.start()
    await asyncio.sleep(args.load_seconds)
    load_cpu.stop()
    stop.set()
    await asyncio.gather(*clients, return_exceptions=True)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return browsers, (start, end), load, (streams_cpu, load_cpu)


if __name__ == "__main__":
    sys.exit(main())
