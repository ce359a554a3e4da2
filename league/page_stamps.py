"""What a cached page needs before it may be served: who may see it and the state of the data it shows, each
in one short query.

A warm page (`league.page_cache.serve_page`) does no other database work, so these reads are its cost: they
are plain SQL, because compiling the equivalent ORM query takes several times as long as PostgreSQL takes to
answer it. Who may see what is decided as `league.selectors` decides it (`can_see_league`, `player_list`),
and `tests/site/test_page_cache.py` checks the two agree for every kind of viewer.

When the cache is Redis, the league and event pages read their league's state from the copy held there
(`league.services.versions` says why it is never stale past a commit's after-commit step), not from
PostgreSQL: a warm page then costs one Redis GET and no query. What a process remembers to get there, which
league a slug and an event belong to, is checked or can't change: the copy names the league's slug (a slug
moved to another league reads the database), and an event never moves to another league (deleting one moves
its league's version, so its page renders anew and is not found). A missing copy, Redis unreachable, or a
request inside a transaction (whose own writes the copy can't show) read the database, as without Redis.
For a signed-in viewer not read yet, the league's state comes in the same Redis read as their session and
their cached copy (`config.viewer_cache.read_with`): one round trip, as for an anonymous visitor.
The player page, which shows the player's own row, always reads the database (one query; a simpler one when
the viewer's league roles are known already, from their cached copy or as an anonymous visitor's none).

For anonymous visitors a process may also remember what it read for at most `PAGE_STAMP_MAX_AGE` seconds (0.1
by default without Redis, 0 with it; 0 turns it off): under a burst of visitors a page then costs no query at
all, and a write shows to them at most that long after it commits (at once in the process that wrote it: a
write's commit makes its process forget them all). Signed-in users, who write, never get a remembered read.
"""

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection

from config import viewer_cache
from league import selectors
from league.models import Event, League, Membership, Player, Season, Visibility
from league.page_cache import league_stamp
from league.services import versions

logger = logging.getLogger(__name__)
T = TypeVar("T")
_recent: dict[tuple, tuple[float, Any]] = {}
_RECENT_LIMIT = 10_000


def _for_anyone(key: tuple, read: Callable[[], T]) -> T:
    """`read()`, or what it gave this process less than `PAGE_STAMP_MAX_AGE` seconds ago: the age counts from
    before the read began, so a value is never more than that older than the database."""
    max_age = getattr(settings, "PAGE_STAMP_MAX_AGE", 0)
    if max_age <= 0:
        return read()
    began = time.monotonic()
    seen = _recent.get(key)
    if seen is not None and began - seen[0] < max_age:
        return seen[1]
    value = read()
    if len(_recent) >= _RECENT_LIMIT:
        _recent.clear()
    _recent[key] = (began, value)
    return value


def forget() -> None:
    """Drop what anonymous visitors' pages remembered: a write of some league's data has committed."""
    _recent.clear()


def _anonymous(user: Any) -> bool:
    return not getattr(user, "is_authenticated", False)


@dataclass(frozen=True)
class LeagueState:
    """A league's id, whether it is public and its stamp (`page_cache.league_stamp`)."""

    pk: int
    public: bool
    stamp: str

    def visible_to(self, user: Any) -> bool:
        if self.public or selectors.is_admin(user):
            return True
        selectors.load_viewer(user)  # their player and roles in one query, as the page needs them after
        return self.pk in selectors.user_league_roles(user)


def _row(sql: str, params: list[Any]) -> tuple | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def _state(pk: int, visibility: str, created_at: datetime | None, version: int, slug: str = "") -> LeagueState:
    return LeagueState(pk, visibility == Visibility.PUBLIC, league_stamp(pk, created_at, version))


# The models' own tables (`tests/site/test_page_cache.py` checks the names against the models).
LEAGUE_BY_SLUG = "SELECT id, visibility, created_at, data_version, slug FROM league_league WHERE slug = %s"

LEAGUE_OF_EVENT = (
    "SELECT l.id, l.visibility, l.created_at, l.data_version, l.slug FROM league_event e"
    " JOIN league_season s ON s.id = e.season_id JOIN league_league l ON l.id = s.league_id WHERE e.id = %s"
)

# Which league a slug named and an event is in, as this process last read them (checked against the copy).
_slug_leagues: dict[str, int] = {}
_event_leagues: dict[int, int] = {}


def _from_redis() -> bool:
    return versions.redis_versions() and not connection.in_atomic_block


def _held(league_id: int | None, read: dict | None = None) -> tuple[int, str, str, str] | None:
    """The league's state held in Redis: (version, visibility, created, slug), or None (no copy, or Redis
    unreachable: the caller reads the database). `read`: what `_with_viewer` read already."""
    if league_id is None:
        return None
    key = versions.version_key(league_id)
    try:
        raw = read[key] if read and key in read else versions.client().get(key)
    except Exception:
        logger.warning("Redis unreachable; league %s's state read from the database.", league_id, exc_info=True)
        return None
    return versions.decode(raw) if raw else None


def _with_viewer(user: Any, league_id: int | None) -> dict | None:
    """The league's state held in Redis read in the same round trip as a signed-in viewer, when neither is read
    yet (`config.viewer_cache.read_with`): one Redis read for both, as for an anonymous visitor's page."""
    if league_id is None or not _from_redis():
        return None
    return viewer_cache.read_with(user, (versions.version_key(league_id),))


def _held_state(league_id: int, held: tuple[int, str, str, str]) -> LeagueState:
    version, visibility, created, _ = held
    return LeagueState(league_id, visibility == Visibility.PUBLIC, f"{league_id}.{created}.{version}")


def _read_and_fill(sql: str, param: Any, remember: dict) -> LeagueState | None:
    """The league's state from the database, its copy in Redis filled if there is none (never overwritten:
    a writer's newer copy wins), and which league `param` named remembered."""
    row = _row(sql, [param])
    if row is None:
        return None
    if len(remember) >= _RECENT_LIMIT:
        remember.clear()
    remember[param] = row[0]
    try:
        versions.fill(row[0], versions.encode(row[3], row[1], row[2], row[4]))
    except Exception:
        logger.warning("Redis unreachable; league %s's state not copied there.", row[0], exc_info=True)
    return _state(*row)


def _league_state(
    user: Any, kind: str, key: Any, sql: str, recent: dict, *, slug: str | None = None
) -> LeagueState | None:
    """The state of the league `key` names through `sql` (a slug, an event), from Redis when it holds it (and,
    looked up by slug, still under that slug), else from the database; `recent` remembers which league it named."""
    with_viewer = _with_viewer(user, recent.get(key))

    def read() -> LeagueState | None:
        if _from_redis():
            league_id = recent.get(key)
            held = _held(league_id, with_viewer)
            if held is not None and (slug is None or held[3] == slug):
                return _held_state(league_id, held)
            return _read_and_fill(sql, key, recent)
        row = _row(sql, [key])
        return _state(*row) if row else None

    return _for_anyone((kind, key), read) if _anonymous(user) else read()


def league_by_slug(slug: str, *, user: Any) -> LeagueState | None:
    return _league_state(user, "league", slug, LEAGUE_BY_SLUG, _slug_leagues, slug=slug)


def league_of_event(event_id: int, *, user: Any) -> LeagueState | None:
    return _league_state(user, "event", event_id, LEAGUE_OF_EVENT, _event_leagues)


@dataclass(frozen=True)
class PlayerState:
    """A player as their page shows them outside its cached body, whether the viewer may see them, and the
    stamps of the leagues the viewer can see (the page's body is built from those), in id order."""

    pk: int
    display_name: str
    user_id: int | None
    created_by_id: int | None
    claim_code: str
    visible: bool
    leagues: list[tuple[int, str]]


# The leagues a viewer can see: every league for a site admin (%(everything)s), else the public ones and those
# they are a member of (`mine`), as `selectors.league_list` filters them. `me` is the viewer's player and
# league roles (none for an anonymous visitor), read as `selectors.load_viewer` reads them, in the same query.
PLAYER = """
WITH me AS (SELECT v.id AS player_id, m.league_id, m.role
              FROM league_player v LEFT JOIN league_membership m ON m.player_id = v.id
             WHERE v.user_id = %(user)s),
     mine AS (SELECT league_id FROM me WHERE league_id IS NOT NULL)
SELECT p.id, p.display_name, p.user_id, p.created_by_id, p.claim_code,
       EXISTS (SELECT 1 FROM league_membership m JOIN league_league l ON l.id = m.league_id
               WHERE m.player_id = p.id
                 AND (%(everything)s OR l.visibility = %(public)s OR l.id IN (SELECT league_id FROM mine))),
       seen.ids, seen.created, seen.versions,
       (SELECT json_agg(json_build_array(me.player_id, me.league_id, me.role)) FROM me)
  FROM (SELECT array_agg(l.id ORDER BY l.id) AS ids, array_agg(l.created_at ORDER BY l.id) AS created,
               array_agg(l.data_version ORDER BY l.id) AS versions
          FROM league_league l
         WHERE %(everything)s OR l.visibility = %(public)s OR l.id IN (SELECT league_id FROM mine)) seen
       LEFT JOIN league_player p ON p.id = %(pk)s
"""
# The same for a viewer whose league roles are known already (anonymous, or a signed-in user's copy held in
# Redis, `config.viewer_cache`): their leagues given as %(mine)s, a query PostgreSQL plans in half the time.
PLAYER_KNOWN_VIEWER = """
SELECT p.id, p.display_name, p.user_id, p.created_by_id, p.claim_code,
       EXISTS (SELECT 1 FROM league_membership m JOIN league_league l ON l.id = m.league_id
               WHERE m.player_id = p.id
                 AND (%(everything)s OR l.visibility = %(public)s OR l.id = ANY(%(mine)s))),
       seen.ids, seen.created, seen.versions
  FROM (SELECT array_agg(l.id ORDER BY l.id) AS ids, array_agg(l.created_at ORDER BY l.id) AS created,
               array_agg(l.data_version ORDER BY l.id) AS versions
          FROM league_league l
         WHERE %(everything)s OR l.visibility = %(public)s OR l.id = ANY(%(mine)s)) seen
       LEFT JOIN league_player p ON p.id = %(pk)s
"""
TABLES = {
    "league_league": League,
    "league_event": Event,
    "league_season": Season,
    "league_membership": Membership,
    "league_player": Player,
}


def player_for_viewer(*, user: Any, pk: int) -> PlayerState | None:
    """The player and the viewer's leagues in one query, or None when there is no such player. `visible` as
    `selectors.player_list` decides: a site admin sees everyone, others members of leagues they can see and
    the players they are or entered."""
    if _anonymous(user):
        return _for_anyone(("player", pk), lambda: _player(user, pk))
    return _player(user, pk)


def _player(user: Any, pk: int) -> PlayerState | None:
    if connection.vendor != "postgresql":  # the embedded default (SQLite): the same answer from the ORM
        return _player_portable(user, pk)
    admin = selectors.is_admin(user)
    me = user.pk if getattr(user, "is_authenticated", False) else None
    params = {"pk": pk, "user": me, "everything": admin, "public": Visibility.PUBLIC.value}
    known = me is None or hasattr(user, "_league_roles_cache")
    if known:
        params["mine"] = list(selectors.user_league_roles(user))
    # One row always (the player's columns null when there is none): a missing player's page reads the viewer
    # as a hidden one's does, so the two answers cost the same.
    row = _row(PLAYER_KNOWN_VIEWER if known else PLAYER, params)
    if row is None:
        return None
    pk, name, user_id, created_by_id, claim_code, in_seen_league, ids, created, versions, *viewer = row
    if not known:  # as `selectors.load_viewer` leaves them
        viewer = viewer[0] or []
        if not hasattr(user, "_player_id_cache"):
            user._player_id_cache = viewer[0][0] if viewer else None
        user._league_roles_cache = {league_id: role for _, league_id, role in viewer if league_id is not None}
    if pk is None:
        return None
    visible = admin or in_seen_league or (me is not None and me in (user_id, created_by_id))
    leagues = [(i, league_stamp(i, c, v)) for i, c, v in zip(ids or [], created or [], versions or [], strict=True)]
    return PlayerState(pk, name, user_id, created_by_id, claim_code, visible, leagues)


def _player_portable(user: Any, pk: int) -> PlayerState | None:
    """`_player` for a database without PostgreSQL's arrays (SQLite, `make run`'s embedded default): the
    same decisions through `league.selectors`, in up to four queries instead of one."""
    player = Player.objects.filter(pk=pk).values_list("pk", "display_name", "user_id", "created_by_id", "claim_code")
    row = player.first()
    # The same reads for a missing player as for a hidden one (PostgreSQL's one query does both alike too).
    selectors.load_viewer(user)
    seen = list(selectors.league_list(user=user).order_by("pk").values_list("pk", "created_at", "data_version"))
    visible = selectors.is_admin(user) or selectors.player_list(user=user).filter(pk=pk).exists()
    if row is None:
        return None
    leagues = [(i, league_stamp(i, created, version)) for i, created, version in seen]
    return PlayerState(*row, visible, leagues)
