"""The ASGI application as uvicorn calls it (`config.asgi`): the same answers as Django's own ASGI handler, each
request's synchronous part in one call on a pooled thread, and a live stream sent from the loop until the client
goes."""

import asyncio
import re
import threading

import pytest
from django.core import signals
from django.core.handlers.asgi import ASGIHandler as DjangoASGIHandler
from django.test import Client

from config.asgi import ASGIHandler, application
from games.online import stream
from tests.online.test_stream import live_table  # noqa: F401 (fixture)
from tests.online.test_stream_async import run


def _scope(method: str, path: str, cookie: str | None, accept: str = "text/html") -> dict:
    headers = [(b"host", b"testserver"), (b"accept", accept.encode())]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    if method == "POST":
        headers.append((b"content-type", b"application/x-www-form-urlencoded"))
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


async def _call(app, method: str, path: str, cookie: str | None = None, accept: str = "text/html", body=b""):
    """(status, headers, body) of one request through `app`."""
    sent: list[dict] = []
    asked = False
    done = asyncio.Event()

    async def receive():
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": body, "more_body": False}
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            done.set()

    await asyncio.wait_for(app(_scope(method, path, cookie, accept), receive, send), 30)
    start = next(m for m in sent if m["type"] == "http.response.start")
    content = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], start["headers"], content


# What differs between two renderings of one page by design: CSRF tokens (masked afresh for every response), the
# action forms' idempotency keys, and the turn clock's time left.
_FRESH = re.compile(rb"[A-Za-z0-9]{32,64}|seconds[-_]left\W+[0-9.]+|data-clock>[0-9]+|clock\\u0022\\u003E[0-9]+")


def _comparable(headers: list, body: bytes) -> tuple:
    """Headers (a cookie by its name; the length as whether it is the body's) and the body, fresh values aside."""
    named = []
    for name, value in headers:
        name = name.lower()
        if name == b"set-cookie":
            value = value.split(b"=", 1)[0]
        elif name == b"content-length":
            value = int(value) == len(body)
        named.append((name, value))
    return sorted(named), _FRESH.sub(b"#", body)


@pytest.fixture
def cookies(world, humans):
    made = {None: None}
    for name, user in (("organiser", world.users["organiser"]), ("member", humans[0]), ("outsider", humans[2])):
        client = Client()
        client.force_login(user)
        made[name] = client.cookies["sessionid"].value
    return made


def test_answers_are_those_of_djangos_own_asgi_handler(settings, live_table, cookies):  # noqa: F811
    """Status, headers (cookies by name) and bytes (fresh tokens aside) equal Django's handler's, for pages, the JSON
    state, a redirect, a 404, a refused form and the health check, for anonymous and signed-in viewers."""
    settings.ALLOWED_HOSTS = ["testserver"]
    pk = live_table.pk
    requests = [
        ("GET", f"/tables/{pk}/", None, "text/html"),
        ("GET", f"/tables/{pk}/", "organiser", "text/html"),
        ("GET", f"/tables/{pk}/", "member", "text/html"),
        ("GET", f"/tables/{pk}/fragment/", None, "application/json"),
        ("GET", f"/tables/{pk}/fragment/", "member", "application/json"),
        ("GET", f"/tables/{pk + 1000}/", None, "text/html"),
        ("GET", "/tables/mine/", None, "text/html"),
        ("POST", f"/tables/{pk}/act/", "member", "text/html"),
        ("GET", "/healthz", None, "application/json"),
        ("GET", "/static/css/site.css", None, "text/css"),
    ]
    # Both made now, under the same settings (middleware read some at start: WhiteNoise's max age follows DEBUG).
    django_handler, our_handler = DjangoASGIHandler(), ASGIHandler()

    async def both():
        for method, path, who, accept in requests:
            ours = await _call(our_handler, method, path, cookies[who], accept, b"verb=check")
            theirs = await _call(django_handler, method, path, cookies[who], accept, b"verb=check")
            assert ours[0] == theirs[0], (method, path, who)
            assert _comparable(*ours[1:]) == _comparable(*theirs[1:]), (method, path, who)

    run(both())


def test_a_requests_sync_part_runs_in_one_pooled_thread(settings, live_table, cookies):  # noqa: F811
    """`request_started`, the view and `request_finished` (which gives the database connection back) run in one thread
    of the process's pool: no thread is started per request, and no request crosses to a second thread."""
    settings.ALLOWED_HOSTS = ["testserver"]
    seen: list[tuple[str, str]] = []

    def started(**kwargs):
        seen.append(("started", threading.current_thread().name))

    def finished(**kwargs):
        seen.append(("finished", threading.current_thread().name))

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:

        async def many():
            for number in range(30):
                status, _, _ = await _call(application, "GET", f"/tables/{live_table.pk}/", cookies["member"])
                assert status == 200, number

        run(many())
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    assert len(seen) == 60
    names = {name for _, name in seen}
    assert all(name.startswith("asgi") for name in names), names
    assert len(names) <= settings.ASGI_THREADS
    for (first, one), (second, other) in zip(seen[::2], seen[1::2], strict=True):
        assert (first, second) == ("started", "finished") and one == other


def test_a_stream_through_the_handler_sends_its_state_and_ends_when_the_client_goes(
    settings,
    live_table,  # noqa: F811
    cookies,
):
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.REDIS_URL = settings.REDIS_URL or ""
    finished = []
    signals.request_finished.connect(lambda **kwargs: finished.append(True), weak=False, dispatch_uid="t-finished")
    sent: list[dict] = []
    gone = asyncio.Event()
    asked = False

    async def receive():
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)
        if b"event: state" in message.get("body", b""):
            gone.set()  # the client goes once it has the table

    try:
        scope = _scope("GET", f"/tables/{live_table.pk}/events/", cookies["member"], "text/event-stream")
        run(asyncio.wait_for(application(scope, receive, send), 30))
    finally:
        signals.request_finished.disconnect(dispatch_uid="t-finished")
    start = sent[0]
    assert start["status"] == 200
    assert (b"Content-Type", b"text/event-stream") in start["headers"]
    body = b"".join(m.get("body", b"") for m in sent[1:])
    assert f"id: {live_table.version}\nevent: state".encode() in body
    assert finished, "the stream's response was closed (request_finished sent)"
    assert stream.wait_until_closed(5)
