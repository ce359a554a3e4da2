"""The event channel: services announce what changed, after their transaction commits.

With `REDIS_URL` set, events go out on Redis pub/sub (channel `sabacc:<topic>`), so
every web process can push them to its browsers. Without it they are delivered to
in-process subscribers only, which is all a single development server needs.
Events carry public information only: never a hidden card, a deck or a seed.
"""

import functools
import json
import logging
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


def publish_now(topic: str, payload: dict[str, Any]) -> None:
    """Deliver an event at once (callers inside a transaction use `publish`)."""
    message = {"topic": topic, **payload}
    for callback in list(_local_subscribers.get(topic, ())):
        callback(message)
    if settings.REDIS_URL:
        try:
            _redis_client(settings.REDIS_URL).publish(CHANNEL_PREFIX + topic, json.dumps(message, default=str))
        except Exception:  # an event lost to a broker outage must not undo the committed change
            logger.exception("event %s could not be published", topic)


def publish(topic: str, payload: dict[str, Any]) -> None:
    """Announce an event once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: publish_now(topic, payload))
