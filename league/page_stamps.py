"""What a cached page needs before it may be served: who may see it and the state of the data it shows, each
in one short query.

A warm page (`league.page_cache.serve_page`) does no other database work, so these reads are its cost: they
are plain SQL, because compiling the equivalent ORM query takes several times as long as PostgreSQL takes to
answer it. Who may see what is decided as `league.selectors` decides it (`can_see_league`, `player_list`),
and `tests/site/test_page_cache.py` checks the two agree for every kind of viewer.

For anonymous visitors a process remembers what it read for at most `PAGE_STAMP_MAX_AGE` seconds (0.1 by
default; 0 turns it off): under a burst of visitors a page then costs no query at all, and a write shows to
them at most that long after it commits (at once in the process that wrote it: a write's commit makes its
process forget them all). Signed-in users, who write, always read the database.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection

from league import selectors
from league.models import Event, League, Membership, Player, Season, Visibility
from league.page_cache import league_stamp

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


def _state(pk: int, visibility: str, created_at: datetime | None, version: int) -> LeagueState:
    return LeagueState(pk, visibility == Visibility.PUBLIC, league_stamp(pk, created_at, version))


# The models' own tables (`tests/site/test_page_cache.py` checks the names against the models).
LEAGUE_BY_SLUG = "SELECT id, visibility, created_at, data_version FROM league_league WHERE slug = %s"

LEAGUE_OF_EVENT = (
    "SELECT l.id, l.visibility, l.created_at, l.data_version FROM league_event e"
    " JOIN league_season s ON s.id = e.season_id JOIN league_league l ON l.id = s.league_id WHERE e.id = %s"
)


def league_by_slug(slug: str, *, user: Any) -> LeagueState | None:
    def read() -> LeagueState | None:
        row = _row(LEAGUE_BY_SLUG, [slug])
        return _state(*row) if row else None

    return _for_anyone(("league", slug), read) if _anonymous(user) else read()


def league_of_event(event_id: int, *, user: Any) -> LeagueState | None:
    def read() -> LeagueState | None:
        row = _row(LEAGUE_OF_EVENT, [event_id])
        return _state(*row) if row else None

    return _for_anyone(("event", event_id), read) if _anonymous(user) else read()


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
# they are a member of (%(mine)s), as `selectors.league_list` filters them.
PLAYER = """
SELECT p.id, p.display_name, p.user_id, p.created_by_id, p.claim_code,
       EXISTS (SELECT 1 FROM league_membership m JOIN league_league l ON l.id = m.league_id
               WHERE m.player_id = p.id
                 AND (%(everything)s OR l.visibility = %(public)s OR l.id = ANY(%(mine)s))),
       seen.ids, seen.created, seen.versions
  FROM league_player p,
       (SELECT array_agg(l.id ORDER BY l.id) AS ids, array_agg(l.created_at ORDER BY l.id) AS created,
               array_agg(l.data_version ORDER BY l.id) AS versions
          FROM league_league l
         WHERE %(everything)s OR l.visibility = %(public)s OR l.id = ANY(%(mine)s)) seen
 WHERE p.id = %(pk)s
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
    selectors.load_viewer(user)  # their player and roles in one query, as the page needs them after
    admin = selectors.is_admin(user)
    params = {
        "pk": pk,
        "everything": admin,
        "public": Visibility.PUBLIC.value,
        "mine": [int(league_id) for league_id in selectors.user_league_roles(user)],
    }
    row = _row(PLAYER, params)
    if row is None:
        return None
    pk, name, user_id, created_by_id, claim_code, in_seen_league, ids, created, versions = row
    me = user.pk if getattr(user, "is_authenticated", False) else None
    visible = admin or in_seen_league or (me is not None and me in (user_id, created_by_id))
    leagues = [(i, league_stamp(i, c, v)) for i, c, v in zip(ids or [], created or [], versions or [], strict=True)]
    return PlayerState(pk, name, user_id, created_by_id, claim_code, visible, leagues)
