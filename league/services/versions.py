"""The league's data version: one integer on the league row that every write of what the league's pages
show moves, so the pages can cache what they render under (league, version, ...) and never serve it stale.

- `lock_league` (`league.services.locks`) bumps it in the same transaction as the write it starts: every
  service of a league's results, ledger, standings, members, seasons, events, name, address and visibility
  takes that lock first.
- `league_data_changed` bumps it after the current transaction commits, for the few writes that change a
  page without that lock (an online table starting or finishing a game; the standings task scheduled), and
  `event_data_changed` for one of an event's tables changing its status (`games.table_status`).

A reader must read the version before the data it caches: a bump commits with (or after) the data it
announces, so data read under a version is never older than that version.

When the cache is Redis (`REDIS_URL`), each league's state as the pages need it (version, visibility, creation
time, slug) is also held there, under `league-version:<database>:<id>`, so a warm page reads Redis instead of
PostgreSQL (`league.page_stamps`). Why that copy is never older than the database for longer than it takes a
commit's after-commit step to run:

- Writers: after a bump's transaction commits (`on_commit`, robust: a failure is logged, never raised), the
  writer reads the league's committed row and stores it with one Lua script that writes only when the version
  held is lower (or there is none). Versions only grow, and visibility, slug and creation time change only
  with a bump, so the highest version names the newest state: commits whose after-commit steps run out of
  order can't move the copy back.
- Readers fill a missing copy from the database with SET NX (`fill`): a reader that read the database before
  a commit can only fill an empty key, never overwrite what a writer stored after it.
- Every copy lives `VERSION_TTL` seconds (writers' and readers' alike): a write whose after-commit step was
  lost (Redis briefly down, the process killed between commit and step) shows at most that late.
- A league deleted (the admin) drops its copy once the deletion commits.
- Inside a transaction readers use the database (`page_stamps`): what a transaction wrote is not committed, so
  the copy can't show it.

The embedded default (no `REDIS_URL`, a local-memory cache per process) keeps no copy: the worker is another
process, and its writes would never reach the web process's memory.
"""

import logging

from django.db import connection, transaction
from django.db.models import F
from django.db.models.signals import post_delete
from django.dispatch import receiver

from config import shared_cache
from league.models import Event, League, Season

logger = logging.getLogger(__name__)

VERSION_TTL = 30  # seconds

# KEYS[1]: the league's key; ARGV: version, value, TTL. Stores the value unless the one held has a version at
# least as high. Values are "version:visibility:created:slug".
_RAISE = """
local held = redis.call('GET', KEYS[1])
if held then
  local version = tonumber(string.match(held, '^(%d+):'))
  if version and version >= tonumber(ARGV[1]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', tonumber(ARGV[3]))
return 1
"""
_raise_script = None

LEAGUE_ROW = "SELECT data_version, visibility, created_at, slug FROM league_league WHERE id = %s"


def redis_versions() -> bool:
    """Whether league states are held in Redis: the default cache is Redis."""
    return shared_cache.redis_cache()


def version_key(league_id: int) -> str:
    from django.core.cache import cache

    return cache.make_key(f"league-version:{shared_cache.database_id()}:{league_id}")


def client():
    """The raw Redis client of the default cache (`config.shared_cache.client`)."""
    return shared_cache.client()


def encode(version: int, visibility: str, created_at, slug: str) -> str:
    return f"{version}:{visibility}:{created_at.timestamp() if created_at else 0}:{slug}"


def decode(raw: bytes | str) -> tuple[int, str, str, str]:
    """(version, visibility, creation time as `league_stamp` writes it, slug)."""
    text = raw.decode() if isinstance(raw, bytes) else raw
    version, visibility, created, slug = text.split(":", 3)
    return int(version), visibility, created, slug


def fill(league_id: int, value: str) -> None:
    """Store a league's state read from the database, unless a copy is there already (SET NX)."""
    client().set(version_key(league_id), value, nx=True, ex=VERSION_TTL)


def store(league_id: int, row: tuple | None) -> bool:
    """Hold the league's state `row` (version, visibility, created_at, slug) in Redis unless a version at least
    as high is held; a league gone (None) drops its copy. True when stored."""
    global _raise_script
    redis = client()
    if row is None:
        redis.delete(version_key(league_id))
        return True
    if _raise_script is None:
        _raise_script = redis.register_script(_RAISE)
    return bool(_raise_script(keys=[version_key(league_id)], args=[row[0], encode(*row), VERSION_TTL], client=redis))


def publish_version(league_id: int) -> None:
    """Copy the league's committed state to Redis, never moving it back (see the module's docstring)."""
    if not redis_versions():
        return
    try:
        with connection.cursor() as cursor:
            cursor.execute(LEAGUE_ROW, [league_id])
            row = cursor.fetchone()
        store(league_id, row)
    except Exception:
        logger.warning(
            "League %s's version not copied to Redis; it heals in %ss.", league_id, VERSION_TTL, exc_info=True
        )


def bump_data_version(league_id: int) -> bool:
    """Move the league's data version on, in the current transaction; False when the league is gone. Once it
    commits, this process forgets what it remembered for anonymous visitors' pages (`league.page_stamps`) and
    the league's state is copied to Redis (when the cache is Redis)."""
    from league import page_stamps

    moved = bool(League.objects.filter(pk=league_id).update(data_version=F("data_version") + 1))
    transaction.on_commit(page_stamps.forget)  # outside a transaction: at once, the update committed
    if moved:
        transaction.on_commit(lambda: publish_version(league_id), robust=True)
    return moved


def league_data_changed(*, league_id: int) -> None:
    """Bump the league's data version once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: bump_data_version(league_id), robust=True)


def event_data_changed(*, event_id: int) -> None:
    """`league_data_changed` for the league of an event, read once the current transaction commits (an event
    deleted by then changes nothing more: its deletion moved the version)."""

    def bump() -> None:
        league_id = Event.objects.filter(pk=event_id).values_list("season__league_id", flat=True).first()
        if league_id is not None:
            bump_data_version(league_id)

    transaction.on_commit(bump, robust=True)


@receiver(post_delete, sender=Event, dispatch_uid="league-version-event-deleted")
def _event_deleted(sender, instance: Event, **kwargs) -> None:
    """An event deleted (the admin, or with its season or league): its league's pages change, and a process
    that remembers which league the event was in (`league.page_stamps`) must not serve its cached page."""
    league_id = Season.objects.filter(pk=instance.season_id).values_list("league_id", flat=True).first()
    if league_id is not None:
        bump_data_version(league_id)


@receiver(post_delete, sender=League, dispatch_uid="league-version-deleted")
def _league_deleted(sender, instance: League, **kwargs) -> None:
    league_id = instance.pk  # the instance loses its pk once deleted
    transaction.on_commit(lambda: publish_version(league_id), robust=True)
