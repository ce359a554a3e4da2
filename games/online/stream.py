"""Live updates as server-sent events, for a table and for the lobby.

A change is announced (after its commit) on the event channel with the table id and version only.
Each open stream, in whichever server process holds it, hears that and sends *its own viewer* the
table as that viewer may see it, rendered by the server. So events never carry anybody's cards.

How a stream hears of changes:
- with `REDIS_URL`: Redis pub/sub (`config.events`), so any number of server processes and Celery
  workers behind one address reach every browser;
- without it (the embedded default): the stream polls the table's version in the database every
  `POLL_SECONDS`, which also crosses processes (a worker and the server share the SQLite file).

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
from django.db import connection

from config.events import CHANNEL_PREFIX

logger = logging.getLogger(__name__)

POLL_SECONDS = 0.25
KEEPALIVE_SECONDS = 15.0
STREAM_SECONDS = 300.0  # the default of settings.ONLINE_STREAM_SECONDS


def released(read: Callable[[], Any]) -> Callable[[], Any]:
    """`read` that gives the database connection back (to the pool, or closed) once it has read: a stream
    spends nearly all its life waiting. Not inside a transaction (a test's): that connection is not ours."""

    def call() -> Any:
        try:
            return read()
        finally:
            if not connection.in_atomic_block:
                connection.close()

    return call


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
        self.close()
        self.pubsub = None

    def wait(self, timeout: float) -> None:
        if self.pubsub is not None:
            try:
                self.pubsub.get_message(timeout=timeout)
                return
            except Exception:
                self._fall_back()
        time.sleep(min(timeout, POLL_SECONDS))

    def close(self) -> None:
        if self.pubsub is not None:
            with contextlib.suppress(Exception):  # closing a broken connection: nothing to keep
                self.pubsub.close()


class _AsyncListener:
    def __init__(self, topic: str) -> None:
        self.topic = topic
        self.pubsub = None

    async def open(self) -> None:
        if settings.REDIS_URL:
            import redis.asyncio as aioredis

            try:
                client = aioredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
                self.pubsub = client.pubsub(ignore_subscribe_messages=True)
                await self.pubsub.subscribe(CHANNEL_PREFIX + self.topic)
            except Exception:
                await self._fall_back()

    async def _fall_back(self) -> None:
        logger.warning("stream: the event channel is unavailable; polling the database", exc_info=True)
        await self.close()
        self.pubsub = None

    async def wait(self, timeout: float) -> None:
        if self.pubsub is not None:
            try:
                await self.pubsub.get_message(timeout=timeout)
                return
            except Exception:
                await self._fall_back()
        await asyncio.sleep(min(timeout, POLL_SECONDS))

    async def close(self) -> None:
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()


def sync_stream(
    topic: str, since: Any, token: Callable[[], Any], render: Callable[[], dict], *, seconds: float | None = None
) -> Iterator[str]:
    """Send `render()` whenever `token()` (the table version) differs from what the browser has."""
    listener = _Listener(topic)  # subscribe first, then read: no change can slip between the two
    _count(+1)
    token, render = released(token), released(render)
    try:
        yield "retry: 1000\n\n"
        end, last_sent = time.monotonic() + (seconds or stream_seconds()), time.monotonic()
        while time.monotonic() < end:
            current = token()
            if current != since:
                since = current
                last_sent = time.monotonic()
                yield message(current, render())
                continue
            if time.monotonic() - last_sent > keepalive_seconds():
                last_sent = time.monotonic()
                yield ": keepalive\n\n"
            listener.wait(min(keepalive_seconds(), max(0.0, end - time.monotonic())))
    finally:
        listener.close()
        _count(-1)


async def async_stream(
    topic: str, since: Any, token: Callable[[], Any], render: Callable[[], dict], *, seconds: float | None = None
) -> AsyncIterator[str]:
    """The same as `sync_stream` for an ASGI server: waiting holds no thread."""
    listener = _AsyncListener(topic)
    await listener.open()
    _count(+1)
    atoken, arender = sync_to_async(released(token)), sync_to_async(released(render))
    try:
        yield "retry: 1000\n\n"
        end, last_sent = time.monotonic() + (seconds or stream_seconds()), time.monotonic()
        while time.monotonic() < end:
            current = await atoken()
            if current != since:
                since = current
                last_sent = time.monotonic()
                yield message(current, await arender())
                continue
            if time.monotonic() - last_sent > keepalive_seconds():
                last_sent = time.monotonic()
                yield ": keepalive\n\n"
            await listener.wait(min(keepalive_seconds(), max(0.0, end - time.monotonic())))
    finally:
        await listener.close()
        _count(-1)
