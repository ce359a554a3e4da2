"""CPU per request of the table page, its JSON state and their peer, in this process, side by side: through Django's
own ASGI handler, through the project's (`config.asgi`, as uvicorn calls it) and through Django's plain handler
(WSGI). Figures that the machine's other load
cannot move much: `time.process_time` (every thread of this process), median of `--repeat` requests each.

The world is the streams bench's (`bench.tables_bench._world`): one casino table of 6 sensible bots, dealt, on
production settings (`bench.streams_settings`), PostgreSQL and Redis; the viewers are an anonymous visitor, a
member and the organiser, signed in by their session cookies as a browser is. The peer (`/bench-peer/...`) answers
the same bytes from the cache through the same middleware and does nothing else.

Run: `.venv/bin/python -m bench.streams_cpu [--repeat 100]` (PostgreSQL from DATABASE_URL, or a
`sabacc_streams_cpu` database it creates and drops; Redis from REDIS_URL, default redis://127.0.0.1:6379/6).
"""

import argparse
import asyncio
import io
import os
import secrets
import statistics
import sys
import threading
import time
import uuid
from contextvars import Context

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/sabacc_streams_cpu"
DEFAULT_REDIS = "redis://127.0.0.1:6379/6"


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bench.streams_cpu", description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=100, help="requests measured per row (the median is shown)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(sys.argv[1:] if argv is None else argv)
    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    own_database = "DATABASE_URL" not in os.environ
    os.environ["REDIS_URL"] = os.environ.get("REDIS_URL") or DEFAULT_REDIS
    os.environ["ONLINE_EVENT_PREFIX"] = f"bench-{uuid.uuid4().hex[:8]}"
    os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.streams_settings"
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,testserver"
    os.environ["SECURE_SSL_REDIRECT"] = "false"
    os.environ["LOG_LEVEL"] = "WARNING"
    from bench.tables_bench import in_database

    return in_database(url, own_database, lambda: _run(args))


def _scope(path: str, cookie: str | None, accept: str) -> dict:
    headers = [(b"host", b"127.0.0.1"), (b"accept", accept.encode())]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


def asgi_get(loop, app, path: str, cookie: str | None, accept: str) -> tuple[int, bytes]:
    """One GET through the ASGI app on `loop`, as uvicorn calls it: (status, body)."""
    sent: list[dict] = []
    request_sent = False
    finished = asyncio.Event()

    async def receive():
        nonlocal request_sent
        if not request_sent:
            request_sent = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await finished.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            finished.set()

    # A fresh context, as uvicorn's task for each request has: nothing a request kept in a context-local
    # (Django's cache connections, the database's) carries over to the next.
    loop.run_until_complete(loop.create_task(app(_scope(path, cookie, accept), receive, send), context=Context()))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def wsgi_get(app, path: str, cookie: str | None, accept: str) -> tuple[int, bytes]:
    """One GET through Django's WSGI handler: (status, body)."""
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_ACCEPT": accept,
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "SERVER_PROTOCOL": "HTTP/1.1",
    }
    if cookie:
        environ["HTTP_COOKIE"] = f"sessionid={cookie}"
    status = []
    body = b"".join(app(environ, lambda s, h, *a: status.append(s)))
    return int(status[0].split()[0]), body


class _Streams:
    """`count` event streams of the table held open through `app` on an event loop in a thread of its own, each
    keeping the last version it received."""

    def __init__(self, app, path: str, cookies: list[str | None]) -> None:
        self.app, self.path, self.cookies = app, path, cookies
        self.versions = [0] * len(cookies)
        self.changed = threading.Condition()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    async def _one(self, number: int, cookie: str | None, stop: asyncio.Event) -> None:
        asked = False

        async def receive():
            nonlocal asked
            if not asked:
                asked = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await stop.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            body = message.get("body", b"")
            if body.startswith(b"id: "):
                with self.changed:
                    self.versions[number] = int(body[4 : body.index(b"\n")])
                    self.changed.notify_all()

        await self.app(_scope(self.path, cookie, "text/event-stream"), receive, send)

    def __enter__(self) -> "_Streams":
        self.thread.start()

        async def start() -> None:
            self.stop = asyncio.Event()
            self.tasks = [
                asyncio.create_task(self._one(n, c, self.stop), context=Context()) for n, c in enumerate(self.cookies)
            ]

        asyncio.run_coroutine_threadsafe(start(), self.loop).result()
        return self

    def wait_for(self, version: int, timeout: float = 30.0) -> None:
        with self.changed:
            if not self.changed.wait_for(lambda: min(self.versions) >= version, timeout):
                raise RuntimeError(f"streams did not all reach version {version}: {sorted(set(self.versions))}")

    def __exit__(self, *exc) -> None:
        async def end() -> None:
            self.stop.set()
            await asyncio.gather(*self.tasks, return_exceptions=True)
            others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in others:  # the streams' hub, listening to Redis
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(end(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def _stream_update_cpu(app, table, user, cookies: list[str | None], rounds: int) -> float:
    """CPU per stream viewer per change (ms, median of `rounds`): the organiser pauses and resumes the table in
    turns; counted from the service's return (its own work left out) until every stream has the new version."""
    from games.online import services
    from games.online.models import OnlineTable

    spent = []
    with _Streams(app, f"/tables/{table.pk}/events/", cookies) as streams:
        streams.wait_for(OnlineTable.objects.get(pk=table.pk).version)
        for number in range(rounds + 4):
            row = OnlineTable.objects.get(pk=table.pk)
            change = services.table_pause if row.status == "running" else services.table_resume
            change(actor=user, table=row)
            begun = time.process_time()
            streams.wait_for(OnlineTable.objects.get(pk=table.pk).version)
            if number >= 4:  # the first changes warm the process (templates, the hub)
                spent.append((time.process_time() - begun) / len(cookies))
    return statistics.median(spent) * 1000


def _median_cpu(call, repeat: int) -> float:
    for _ in range(10):
        call()
    spent = []
    for _ in range(repeat):
        begun = time.process_time()
        call()
        spent.append(time.process_time() - begun)
    return statistics.median(spent) * 1000


def _run(args: argparse.Namespace) -> int:
    from django.core.cache import cache
    from django.core.handlers.asgi import ASGIHandler as DjangoASGIHandler
    from django.core.handlers.wsgi import WSGIHandler

    from bench import streams_site
    from bench.streams_bench import _sessions
    from bench.tables_bench import _world
    from config.asgi import application as asgi_app
    from config.celery import app as celery_app
    from games.online import services

    celery_app.conf.task_default_queue = f"bench-streams-cpu-{uuid.uuid4().hex[:6]}"  # no worker takes the bots' tasks
    user, tables, _ = _world(1, "sensible", 0, 600)
    table = tables[0]
    services.table_start(actor=user, table=table)
    cookies = _sessions(table.event.season.league)
    wsgi_app = WSGIHandler()
    django_asgi = DjangoASGIHandler()
    loop = asyncio.new_event_loop()
    pages = (
        ("table page", f"/tables/{table.pk}/", "text/html", "text/html; charset=utf-8"),
        ("JSON state", f"/tables/{table.pk}/fragment/", "application/json", "application/json"),
    )
    print(
        f"CPU per request in-process (time.process_time, median of {args.repeat}), production settings, "
        f"PostgreSQL and Redis; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"  {'request':34} {'Django ASGI':>15} {'ours':>11} {'plain (WSGI)':>13}")
    for kind in ("anonymous", "member1", "organiser"):
        cookie = cookies.get(kind)
        for name, path, accept, content_type in pages:
            status, body = asgi_get(loop, asgi_app, path, cookie, accept)
            assert status == 200, (path, status, body[:300])
            peer = f"{kind}-{name.replace(' ', '-')}"
            cache.set(f"{streams_site.PEER_PREFIX}{peer}", (body, content_type), 3600)
            for label, target in ((name, path), (f"{name} peer", f"/bench-peer/{peer}/")):
                row = [
                    _median_cpu(lambda app=app, t=target, c=cookie, a=accept: asgi_get(loop, app, t, c, a), args.repeat)
                    for app in (django_asgi, asgi_app)
                ]
                row.append(_median_cpu(lambda t=target, c=cookie, a=accept: wsgi_get(wsgi_app, t, c, a), args.repeat))
                print(
                    f"  {kind + ', ' + label:34} {row[0]:12.2f} ms {row[1]:8.2f} ms {row[2]:10.2f} ms"
                    f"   ratio ours / Django ASGI {row[1] / row[0]:.2f}x"
                )
    loop.close()
    viewers = [cookies.get(kind) for kind in ("anonymous", "anonymous", "anonymous", "member1", "member2", "organiser")]
    viewers *= 10
    rounds = max(10, args.repeat // 5)
    print(
        f"  a stream viewer per change, {len(viewers)} streams of the table (3 anonymous, 2 members, the organiser,"
        f" x10), median of {rounds} changes:"
    )
    theirs, ours = (_stream_update_cpu(app, table, user, viewers, rounds) for app in (django_asgi, asgi_app))
    print(f"    Django ASGI {theirs:6.2f} ms, ours {ours:6.2f} ms: ratio ours / Django ASGI {ours / theirs:.2f}x")
    # One table's viewers in the streams bench (6, split between its 2 processes): here the change's shared read
    # and its renderings, made once per process whatever the number of viewers, are most of the cost.
    few = [cookies.get(kind) for kind in ("anonymous", "member1", "organiser")]
    theirs, ours = (len(few) * _stream_update_cpu(app, table, user, few, rounds) for app in (django_asgi, asgi_app))
    print(f"  a change with {len(few)} streams of the table (anonymous, a member, the organiser), all its CPU:")
    print(f"    Django ASGI {theirs:6.2f} ms, ours {ours:6.2f} ms: ratio ours / Django ASGI {ours / theirs:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
