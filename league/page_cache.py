"""Rendered fragments of the league, player and event pages, cached under the league's data version.

Every write of what those pages show moves the league's `data_version` (`league.services.versions`), so a
fragment cached under (league, version, ...) is never served after the data changed: the next request
misses and renders it again. The key also holds the league's creation time, so a league made anew with a
recycled id (a test database, a re-created site) never meets an old entry, and a format number, bumped
when a fragment's shape changes. A cache that fails (Redis down) is passed over: the page renders
uncached, never fails.
"""

import hashlib
import logging
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache import cache

logger = logging.getLogger(__name__)

T = TypeVar("T")
FORMAT = 1
TIMEOUT_SECONDS = 3600


def league_stamp(league_id: int, created_at: Any, data_version: int) -> str:
    """What identifies one state of one league's data."""
    return f"{league_id}.{created_at.timestamp() if created_at else 0}.{data_version}"


def fragment_key(name: str, stamps: Iterable[str], *parts: Any) -> str:
    raw = "|".join([*stamps, *(str(part) for part in parts)])
    return f"pages:{FORMAT}:{name}:{hashlib.blake2b(raw.encode(), digest_size=20).hexdigest()}"


def cached(key: str, build: Callable[[], T]) -> T:
    """The value cached under `key`, or `build()` stored there."""
    try:
        value = cache.get(key)
    except Exception:
        logger.warning("Page cache unreachable; rendering %s uncached.", key, exc_info=True)
        return build()
    if value is not None:
        return value
    value = build()
    try:
        cache.set(key, value, TIMEOUT_SECONDS)
    except Exception:
        logger.warning("Page cache unreachable; %s not stored.", key, exc_info=True)
    return value


def plain_param(raw: str | None, *, allowed: tuple[str, ...] = ()) -> str | None:
    """A query parameter worth a cache entry: blank, one of `allowed`, or a short whole number; else None
    (the page then renders uncached, so made-up values cannot fill the cache)."""
    raw = raw or ""
    if raw in allowed or raw == "" or (raw.isdigit() and raw.isascii() and len(raw) <= 18):
        return raw
    return None
