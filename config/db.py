"""Database helpers shared by every app: retrying a write that lost a lock race.

PostgreSQL may refuse a transaction that did nothing wrong: a deadlock it broke, a
serialization failure, or a lock it could not get within `lock_timeout`. Such a
transaction wrote nothing (it was rolled back whole), so running it again is safe. The
services that own their transaction are wrapped in `retry_on_conflict`; inside an outer
transaction they are not retried (the owner of the outer transaction decides).
"""

import functools
import logging
import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import OperationalError, connection

logger = logging.getLogger(__name__)

# deadlock_detected, serialization_failure, lock_not_available
TRANSIENT_SQLSTATES = frozenset({"40P01", "40001", "55P03"})
ATTEMPTS = 4

F = TypeVar("F", bound=Callable[..., Any])


def is_transient(exc: BaseException) -> bool:
    """Whether a database error means busy (a lost lock race, or SQLite locked past its timeout), not a fault."""
    return _lost_race(exc) or _sqlite_busy(exc)


def _lost_race(exc: BaseException) -> bool:
    """PostgreSQL broke a lock race: running the transaction again is worth it."""
    cause = exc.__cause__ or exc
    return getattr(cause, "sqlstate", None) in TRANSIENT_SQLSTATES or getattr(cause, "pgcode", None) in (
        TRANSIENT_SQLSTATES
    )


def _sqlite_busy(exc: BaseException) -> bool:
    """SQLite's file stayed locked past its timeout (20 s, `make run`): busy, answered 503, not run again."""
    text = str(exc.__cause__ or exc)
    return "database is locked" in text or "database table is locked" in text


def retry_on_conflict(func: F) -> F:
    """Run an atomic service again (a bounded number of times) when PostgreSQL broke a lock race."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        for attempt in range(1, ATTEMPTS + 1):
            if connection.in_atomic_block:
                return func(*args, **kwargs)
            try:
                return func(*args, **kwargs)
            except OperationalError as exc:
                if not _lost_race(exc) or attempt == ATTEMPTS:
                    raise
                logger.info("%s lost a lock race (%s); attempt %d of %d", func.__name__, exc, attempt, ATTEMPTS)
                # Back off a little, with jitter, so the two racing transactions do not meet again at once.
                time.sleep(random.uniform(0.01, 0.05) * attempt)
        raise AssertionError("unreachable")

    return wrapper  # type: ignore[return-value]
