"""The table row a page needs (with its event, season and league), kept in this process and served while Redis says
nothing it was read from has changed, so a table page or its JSON state on a warm table reads no database row.

Why a kept row is never served after it changed (the reasoning of `config.viewer_cache` and
`league.services.versions`):

- Each table has a **stamp** in Redis, a random value. A row is kept with the stamp read *before* the database was
  read, and served only while that stamp is still the table's: one MGET per request, with the league's state.
- Every save or deletion of a table row, wherever it runs (a service, the worker, the admin), retires the stamp
  **after its transaction commits** (a new random value). A reader that read the database before a commit stored
  its row under the stamp that commit retires; one that read the stamp after the step reads the committed row.
- The league, season and event the row carries are checked against the league's state held in Redis
  (`league.services.versions`: every write of what its pages show moves the league's data version, and copies it
  there after commit): served only while the league's version held equals the one read with the row.
- A kept row is served for at most `KEPT_SECONDS` (a step lost to a Redis outage or a killed process shows that
  late at most; the page's stream reads the database and catches up at once), and a stamp that expired or was
  evicted is made anew (a random value no row was kept under).

Only with Redis as the cache (shared by the web processes and the worker, whose saves must retire stamps
everywhere) and never inside a transaction (what it wrote is not committed). Otherwise, and when Redis fails, the
row is read from the database.
"""

import copy
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from config import shared_cache
from games.online.models import OnlineTable
from league.services import versions

logger = logging.getLogger(__name__)

KEPT_SECONDS = 10.0
KEPT = 1024  # rows of a few hundred tables, in each process
STAMP_TTL = 24 * 3600


@dataclass(frozen=True)
class _Kept:
    stamp: bytes
    league: bytes | None  # the league's state as Redis held it when the row was read (None: a casual table)
    row: OnlineTable
    until: float


_kept: OrderedDict[int, _Kept] = OrderedDict()
_lock = threading.Lock()
reads = 0  # rows this process read from the database through `table_row` (the tests count them)


def stamp_key(pk: int) -> str:
    return cache.make_key(f"table-stamp:{shared_cache.database_id()}:{pk}")


def enabled() -> bool:
    return shared_cache.redis_cache() and not connection.in_atomic_block


def _league_of(row: OnlineTable) -> tuple[int, bytes] | None:
    """The league's state as `league.services.versions` encodes it, from the row read with it (None: casual)."""
    if row.event_id is None:
        return None
    league = row.event.season.league
    return league.pk, versions.encode(league.data_version, league.visibility, league.created_at, league.slug).encode()


def table_row(pk: int, read: Callable[[], OnlineTable | None]) -> OnlineTable | None:
    """The row `read()` gives for table `pk`, or a copy of the one kept, when Redis says it is still current."""
    global reads
    if not enabled():
        return read()
    with _lock:
        found = _kept.get(pk)
    try:
        redis = shared_cache.client()
        keys = [stamp_key(pk)]
        league = _league_of(found.row) if found is not None else None
        if league is not None:
            keys.append(versions.version_key(league[0]))
        held = redis.mget(keys)
        stamp = held[0]
        if stamp is None:  # expired or evicted: a new value, under which no row was ever kept
            redis.set(keys[0], secrets.token_hex(8), nx=True, ex=STAMP_TTL)
            stamp = redis.get(keys[0])
    except Exception:
        logger.warning("Redis unreachable; table %s read from the database.", pk, exc_info=True)
        return read()
    if (
        found is not None
        and found.stamp == stamp
        and time.monotonic() < found.until
        and (league is None or held[1] == league[1] == found.league)
    ):
        with _lock:
            if pk in _kept:
                _kept.move_to_end(pk)
        return copy.copy(found.row)  # a request may load the row's state into its copy: never into the kept row
    row = read()
    reads += 1
    if row is None or stamp is None:
        return row
    league = _league_of(row)
    if league is not None:
        try:
            # The league's state read with this row fills an empty key only (a writer's newer copy wins), then
            # the row is kept only if what Redis holds is the state it was read with.
            versions.fill(league[0], league[1].decode())
            if shared_cache.client().get(versions.version_key(league[0])) != league[1]:
                return row
        except Exception:
            logger.warning("Redis unreachable; table %s's row not kept.", pk, exc_info=True)
            return row
    until = time.monotonic() + KEPT_SECONDS
    kept = _Kept(stamp=stamp, league=league[1] if league else None, row=copy.copy(row), until=until)
    with _lock:
        _kept[pk] = kept
        _kept.move_to_end(pk)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return row


def retire(pk: int) -> None:
    """The table changed: no row kept under its stamp is served again, in any process."""
    try:
        shared_cache.client().set(stamp_key(pk), secrets.token_hex(8), ex=STAMP_TTL)
    except Exception:
        logger.warning("Redis unreachable; table %s's kept rows expire in %ss.", pk, KEPT_SECONDS, exc_info=True)


def forget() -> None:
    """Drop every row this process keeps (tests)."""
    with _lock:
        _kept.clear()


@receiver(post_save, sender=OnlineTable, dispatch_uid="table_rows.saved")
@receiver(post_delete, sender=OnlineTable, dispatch_uid="table_rows.deleted")
def _table_changed(sender, instance: OnlineTable, **kwargs) -> None:
    if shared_cache.redis_cache():
        pk = instance.pk
        transaction.on_commit(lambda: retire(pk), robust=True)
