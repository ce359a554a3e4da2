"""Live updates as server-sent events, for a table and for the lobby.

A change is announced (after its commit) on the event channel with the table id and version only.
Each open stream, in whichever server process holds it, hears that and sends *its own viewer* the
table as that viewer may see it, rendered by the server. So events never carry anybody's cards.

How a stream hears of changes:
- with `REDIS_URL`: Redis pub/sub (`config.events`), so any number of server processes and Celery
  workers behind one address reach every browser;
- without it (the embedded default): the stream polls the table's version in the database every
  `POLL_SECONDS`, which also crosses processes (a worker and the server share the SQLite file); a change saved by
  the stream's own process (a player's tap on `runserver`) wakes its WSGI streams at once (`config.events`' local
  subscribers), without waiting for the next poll.

Each message has the table version as its SSE id: a reconnecting browser sends it back
(`Last-Event-ID`) and gets the current state at once if it missed anything. Streams end after
`STREAM_SECONDS` (the browser reconnects by itself) so no server thread is held forever.
Both a plain generator (WSGI: runserver, the test server) and an async one (ASGI: uvicorn) exist.
A stream gives its database connection back after every read (`released`): while it waits it holds none, so
hundreds of open streams never exhaust a process's connection pool.
"""

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connection

from config.events import CHANNEL_PREFIX, subscribe_local
from games.online.selectors import KEPT_ONLY

logger = logging.getLogger(__name__)

POLL_SECONDS = 0.25
RETRY_SECONDS = 5.0  # a process's hub tries Redis again after a failure at most this often
KEEPALIVE_SECONDS = 15.0
STREAM_SECONDS = 300.0  # the default of settings.ONLINE_STREAM_SECONDS


def released(read: Callable[[], Any]) -> Callable[[], Any]:
    """`read` that gives the database connection back (to the pool, or closed) once it has read: a stream
    spends nearly all its life waiting. Not inside a transaction (a test's): that connection is not ours."""

    def call(*args: Any) -> Any:
        try:
            return read(*args)
        finally:
            _give_back()

    return call


def give_back() -> None:
    """Give the view's database connection back (to the pool, or closed) before its stream starts: streams of one
    table share each read (the first stream's thread makes it), so a stream may never read on its own thread, and
    the connection its view used (the table, the user) would stay out of the pool for the stream's whole life.
    150 streams held 150 of a pool's 10 connections that way, and other requests timed out. Not inside a
    transaction (a test's): that connection is not ours."""
    _give_back()


def _give_back() -> None:
    # A SQLite connection (the embedded default) is a file handle of this process, not one of a server's slots:
    # keeping it costs nothing, while opening it again for every poll of every stream (its journal pragma included)
    # cost the embedded server a fifth of a core at ten real-cards tables.
    if not connection.in_atomic_block and connection.vendor != "sqlite":
        connection.close()


def stream_seconds() -> float:
    return float(getattr(settings, "ONLINE_STREAM_SECONDS", STREAM_SECONDS))


def keepalive_seconds() -> float:
    return float(getattr(settings, "ONLINE_STREAM_KEEPALIVE_SECONDS", KEEPALIVE_SECONDS))


# How many streams this process holds open; shutting down (or a test) can wait for them to end.
_open = 0
_open_changed = threading.Condition()


def _count(delta: int) -> None:
    global _open
    with _open_changed:
        _open += delta
        _open_changed.notify_all()


def wait_until_closed(timeout: float) -> bool:
    """Wait (at most `timeout` seconds) until no stream of this process is open; True if none is."""
    with _open_changed:
        return _open_changed.wait_for(lambda: _open == 0, timeout=timeout)


def message(token: Any, payload: dict) -> str:
    return f"id: {token}\nevent: state\ndata: {json.dumps(payload, default=str, separators=(',', ':'))}\n\n"


class _Listener:
    """Waits for the next announcement on `topic` (Redis) or for the next poll (no Redis, or Redis failing: the
    stream then polls the database for the rest of its life, as without Redis)."""

    def __init__(self, topic: str) -> None:
        self.pubsub = None
        # A change announced in this process wakes a polling stream at once (the poll still hears other processes).
        self.woken = threading.Event()
        self._unsubscribe = subscribe_local(topic, lambda _message: self.woken.set())
        if settings.REDIS_URL:
            import redis

            try:
                client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
                self.pubsub = client.pubsub(ignore_subscribe_messages=True)
                self.pubsub.subscribe(CHANNEL_PREFIX + topic)
            except Exception:
                self._fall_back()

    def _fall_back(self) -> None:
        logger.warning("stream: the event channel is unavailable; polling the database", exc_info=True)
        self._close_pubsub()
        self.pubsub = None

    def wait(self, timeout: float) -> None:
        if self.pubsub is not None:
            try:
                self.pubsub.get_message(timeout=timeout)
                return
            except Exception:
                self._fall_back()
        self.woken.wait(min(timeout, POLL_SECONDS))
        self.woken.clear()  # the read that follows sees whatever woke it

    def close(self) -> None:
        self._unsubscribe()
        self._close_pubsub()

    def _close_pubsub(self) -> None:
        if self.pubsub is not None:
            with contextlib.suppress(Exception):  # closing a broken connection: nothing to keep
                self.pubsub.close()


class _Topic:
    """The streams of one topic in this process: woken together by each announcement, sharing their reads."""

    def __init__(self) -> None:
        self.streams = 0
        self.generation = 0
        self.changed = asyncio.Event()
        self.reads: dict[tuple, asyncio.Future] = {}
        # Each open stream's share and its viewer's `render`, by the stream's token: the shared read renders ahead.
        self.renderers: dict[int, tuple[Any, Callable[[Any], dict]]] = {}

    def bump(self) -> None:
        self.generation += 1
        changed, self.changed = self.changed, asyncio.Event()
        self.reads = {}
        changed.set()


class _Hub:
    """One Redis subscription per process (per event loop) for all the streams it holds: each announcement wakes
    the streams of its topic, and those woken by one announcement share one read of what changed (`shared_read`).
    Without Redis, or while it fails, streams poll, and the polls of one `POLL_SECONDS` share their read too."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.topics: dict[str, _Topic] = {}
        self.listening = False
        self._started: asyncio.Future | None = None
        self._listener: asyncio.Future | None = None
        self._tried = 0.0

    async def start(self) -> None:
        """Subscribe, once; after a failure, again for the next stream to open, at most every `RETRY_SECONDS`
        (the streams open meanwhile poll until they end)."""
        retry = self._started is not None and self._started.done() and not self.listening
        if self._started is None or (retry and time.monotonic() - self._tried > RETRY_SECONDS):
            self._tried = time.monotonic()
            self._started = asyncio.ensure_future(self._subscribe())
        await asyncio.shield(self._started)

    async def _subscribe(self) -> None:
        if not self.url:
            return
        import redis.asyncio as aioredis

        try:
            client = aioredis.Redis.from_url(self.url, socket_connect_timeout=2)
            pubsub = client.pubsub()
            await pubsub.psubscribe(CHANNEL_PREFIX + "*")
            # Subscribed once Redis says so: a change announced after that reaches this process.
            for _ in range(5):
                if (await pubsub.get_message(timeout=2.0) or {}).get("type") == "psubscribe":
                    break
            else:
                raise TimeoutError("Redis did not confirm the subscription")
        except Exception:
            logger.warning("stream: the event channel is unavailable; polling the database", exc_info=True)
            return
        self.listening = True
        self._listener = asyncio.ensure_future(self._listen(pubsub))

    async def _listen(self, pubsub) -> None:
        try:
            while True:
                found = await pubsub.get_message(timeout=5.0)
                if found and found.get("type") == "pmessage":
                    topic = self.topics.get(found["channel"].decode()[len(CHANNEL_PREFIX) :])
                    if topic is not None:
                        topic.bump()
        except Exception:
            logger.warning("stream: the event channel failed; polling the database", exc_info=True)
        finally:
            self.listening = False
            for topic in list(self.topics.values()):
                topic.bump()  # every stream reads again now, then polls
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    def join(self, name: str) -> _Topic:
        topic = self.topics.setdefault(name, _Topic())
        topic.streams += 1
        return topic

    def leave(self, name: str) -> None:
        topic = self.topics.get(name)
        if topic is not None:
            topic.streams -= 1
            if topic.streams <= 0:
                del self.topics[name]


_hubs: dict[tuple[int, str], _Hub] = {}


async def _hub() -> _Hub:
    """This event loop's hub (uvicorn runs one loop per process; a test may run several, one after another)."""
    loop = asyncio.get_running_loop()
    key = (id(loop), settings.REDIS_URL or "")
    hub = _hubs.get(key)
    if hub is None:
        for stale in [k for k in _hubs if k[0] != id(loop)]:
            del _hubs[stale]
        hub = _hubs[key] = _Hub(settings.REDIS_URL or "")
    await hub.start()
    return hub


async def _shared_read(topic: _Topic, key: tuple, read: Callable[[], Any]) -> Any:
    """One read for every stream asking under `key` (share, generation or poll slot): the first starts it."""
    future = topic.reads.get(key)
    if future is None:
        future = topic.reads[key] = asyncio.ensure_future(read())
        if len(topic.reads) > 64:  # poll slots pile up without announcements: keep the newest
            for old in list(topic.reads)[:-8]:
                topic.reads.pop(old, None)
    try:
        return await asyncio.shield(future)
    except Exception:
        topic.reads.pop(key, None)
        raise


rendered_in_threads = 0  # renderings not made on the event loop: a new state's, or one needing the database
sent_ahead = 0  # messages whose rendering the shared read's thread made (`_render_ahead`; the tests count them)


def _render_ahead(topic: _Topic, share: Any, found: Any) -> dict[int, dict]:
    """Every stream's rendering of what the shared read `found`, made in the read's own thread right after it (the
    streams of `share` open in this process now, by token), so that no stream wakes a thread of its own for it: on
    a busy machine each hop between the loop and a thread waits its turn for a CPU. Each is made by that stream's
    own `render`, for its own viewer, and given to that stream only. One that fails is left to its stream."""
    global rendered_in_threads
    made: dict[int, dict] = {}
    for token, (their_share, render) in list(topic.renderers.items()):
        if their_share != share:
            continue
        kept_only = KEPT_ONLY.set(True)
        try:
            made[token] = render(found)  # already computed: only the viewer's placeholders filled in
            continue
        except SynchronousOnlyOperation:
            pass
        except Exception:
            logger.warning("stream: a rendering made ahead failed; its stream makes it again", exc_info=True)
            continue
        finally:
            KEPT_ONLY.reset(kept_only)
        try:
            made[token] = render(found)
            rendered_in_threads += 1
        except Exception:
            logger.warning("stream: a rendering made ahead failed; its stream makes it again", exc_info=True)
    return made


async def _rendered(render: Callable[[Any], dict], arender: Callable[[Any], Any], found: Any) -> dict:
    """`render(found)` on the event loop when it needs no database: a viewer of a version its process already
    rendered costs the kept rendering's placeholders filled in, and no thread to wake (a thread per stream, each
    woken by every change, cost ten times the filling itself). Django refuses a query on the loop
    (`SynchronousOnlyOperation`, raised before the query is sent, and nothing in a rendering catches it), and so
    does anything not yet computed (`selectors.KEPT_ONLY`: an engine view, the rendering of a new state, each some
    milliseconds that would hold every stream and request of the process): such a rendering (the first of a state,
    a tournament seat's re-buy) is made again in a thread."""
    global rendered_in_threads
    kept_only = KEPT_ONLY.set(True)
    try:
        return render(found)
    except SynchronousOnlyOperation:
        rendered_in_threads += 1
    finally:
        KEPT_ONLY.reset(kept_only)
    return await arender(found)


def sync_stream(
    topic: str,
    since: Any,
    read: Callable[[], tuple[Any, Any]],
    render: Callable[[Any], dict],
    *,
    seconds: float | None = None,
) -> Iterator[str]:
    """Send `render(found)` whenever the token of `read()` (-> token, found; the table version and row) differs
    from what the browser has."""
    listener = _Listener(topic)  # subscribe first, then read: no change can slip between the two
    _count(+1)
    read, render = released(read), released(render)
    try:
        yield "retry: 1000\n\n"
        end, last_sent = time.monotonic() + (seconds or stream_seconds()), time.monotonic()
        while time.monotonic() < end:
            current, found = read()
            if current != since:
                since = current
                last_sent = time.monotonic()
                yield message(current, render(found))
                continue
            if time.monotonic() - last_sent > keepalive_seconds():
                last_sent = time.monotonic()
                yield ": keepalive\n\n"
            listener.wait(min(keepalive_seconds(), max(0.0, end - time.monotonic())))
    finally:
        listener.close()
        _count(-1)


async def async_stream(
    topic: str,
    since: Any,
    read: Callable[[], tuple[Any, Any]],
    render: Callable[[Any], dict],
    *,
    share: Any = None,
    seconds: float | None = None,
) -> AsyncIterator[str]:
    """The same as `sync_stream` for an ASGI server: waiting holds no thread, and no connection of its own to
    Redis (the process's hub listens for all its streams). Streams of one topic and one `share` (what makes their
    reads alike: for a table, nothing; for the lobby, the user) share each read: one query per announcement per
    process, however many watch. The thread that made the read then makes each open stream's rendering for its own
    viewer (`_render_ahead`; `views.fragment`: one rendering per distinct state, shared too), so a change wakes one
    thread per process, not one per stream; a stream that opened after it renders on the event loop when that needs
    no database, else in its own thread (`_rendered`)."""
    hub = await _hub()
    topic_state = hub.join(topic)
    token = object()
    topic_state.renderers[id(token)] = (share, render)
    _count(+1)

    def read_and_render() -> tuple[Any, Any, dict[int, dict]]:
        current, found = read()
        return current, found, _render_ahead(topic_state, share, found)

    aread, arender = sync_to_async(released(read)), sync_to_async(released(render))
    aread_shared = sync_to_async(released(read_and_render))
    try:
        yield "retry: 1000\n\n"
        end, last_sent = time.monotonic() + (seconds or stream_seconds()), time.monotonic()
        changed, generation, timed_out = topic_state.changed, topic_state.generation, False
        while time.monotonic() < end:
            ahead: dict[int, dict] = {}
            if timed_out:  # nothing announced for a while: read alone, in case an announcement was lost
                current, found = await aread()
            elif hub.listening:
                current, found, ahead = await _shared_read(topic_state, (share, generation), aread_shared)
            else:
                current, found, ahead = await _shared_read(
                    topic_state, (share, "poll", time.monotonic() // POLL_SECONDS), aread_shared
                )
            if current != since:
                since = current
                last_sent = time.monotonic()
                made = ahead.get(id(token))
                if made is None:
                    made = await _rendered(render, arender, found)
                else:
                    global sent_ahead
                    sent_ahead += 1
                yield message(current, made)
            elif time.monotonic() - last_sent > keepalive_seconds():
                last_sent = time.monotonic()
                yield ": keepalive\n\n"
            timeout = min(keepalive_seconds(), max(0.0, end - time.monotonic()))
            if not hub.listening:
                timeout = min(timeout, POLL_SECONDS)
            try:
                await asyncio.wait_for(changed.wait(), timeout)
                timed_out = False
            except TimeoutError:
                timed_out = hub.listening
            changed, generation = topic_state.changed, topic_state.generation
    finally:
        topic_state.renderers.pop(id(token), None)
        hub.leave(topic)
        _count(-1)
