"""The event channel: services announce what changed, after their transaction commits.

With `REDIS_URL` set, events go out on Redis pub/sub (channel `sabacc:<topic>`), so
every web process can push them to its browsers. Without it they are delivered to
in-process subscribers only, which is all a single development server needs.
Events carry public information only: never a hidden card, a deck or a seed.
"""

import functools
import json
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)
CHANNEL_PREFIX = "sabacc:"
_local_subscribers: dict[str, list[Callable[[dict[str, Any]], None]]] = defaultdict(list)


def subscribe_local(topic: str, callback: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
    """Register an in-process subscriber; returns a function that unsubscribes it."""
    _local_subscribers[topic].append(callback)
    return lambda: _local_subscribers[topic].remove(callback)


@functools.lru_cache(maxsize=4)
def _redis_client(url: str):
    """One client (and connection pool) per Redis URL for the life of the process."""
    import redis

    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


# After a failed publish, Redis is not tried again for this long: an outage costs a request one timeout at most
# in that time, not one per event (the streams poll the database meanwhile: games.online.stream).
RETRY_AFTER_SECONDS = 5.0
_down_until: dict[str, float] = {}


def publish_now(topic: str, payload: dict[str, Any]) -> None:
    """Deliver an event at once (callers inside a transaction use `publish`). Never raises: an event lost to a
    failing subscriber or an outage of the channel must not fail the committed change that it announces."""
    message = {"topic": topic, **payload}
    for callback in list(_local_subscribers.get(topic, ())):
        try:
            callback(message)
        except Exception:
            logger.exception("event %s: a local subscriber failed", topic)
    url = settings.REDIS_URL
    if url and time.monotonic() >= _down_until.get(url, 0.0):
        try:
            _redis_client(url).publish(CHANNEL_PREFIX + topic, json.dumps(message, default=str))
        except Exception:
            _down_until[url] = time.monotonic() + RETRY_AFTER_SECONDS
            logger.exception("event %s could not be published", topic)


def publish(topic: str, payload: dict[str, Any]) -> None:
    """Announce an event once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: publish_now(topic, payload))
