"""The player, league, event and game pages read in a fixed number of queries, however many rows they show."""

import pytest
from django.db import connection
from django.test import Client, TestCase
from django.utils import timezone

from games.models import Table
from games.services import result_record
from league.models import EventStatus
from tests.factories import EventFactory
from tests.site.conftest import build_site_world

pytestmark = pytest.mark.django_db


def _more_rows(site, rounds: int) -> None:
    """More finished events, games, hands and ledger lines for the same players (and the running event)."""
    world = site.base
    organiser = world.users["organiser"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        for index in range(rounds):
            event = EventFactory(season=world.season, starts_at=timezone.now(), status=EventStatus.FINISHED)
            table = Table.objects.create(event=event, name="Table", number=1)
            players = world.players[index % 3 : index % 3 + 4]
            result_record(
                actor=organiser,
                event=event,
                table=table,
                seats=[{"player": p.pk, "buy_in": 100} for p in players],
                hands=[{str(players[0].pk): 30, str(players[1].pk): -30}] * 3,
            )
            result_record(
                actor=organiser,
                event=site.running_event,
                seats=[{"player": p.pk, "buy_in": 100, "final_credits": 100} for p in players[:2]],
                round=2,
            )


# (page, anonymous queries, a signed-in member's queries, anonymous queries served from the page cache).
# A member adds three: the session, the user, and their player with their league roles in one query (who may see and
# manage what, the highlighted row); two when sessions are read from the cache (`cached_db`, with Redis). (These run
# inside the test's transaction, where the viewer's copy in Redis is never read; outside one, with Redis, a warm
# member's page reads no more than an anonymous one: `test_viewer_cache.py`.) Every request first reads, in one
# plain query, who may see the page and the data version of its leagues (`league.page_stamps`); a page cached whole
# for this kind of viewer needs nothing more. Else the page is rendered, its fragments from their own cache when
# they are there (the league and event pages read their league or event again, whole, for the rest of the page). The
# player page adds up its chart and its games in the database and reads one ledger page (a count and 25 lines), not
# every line.
# What the player page's SQLite fallback adds to (anonymous, member, cached).
PORTABLE_PLAYER = (2, 3, 2)

PAGES = [
    ("league", 10, 13, 1),
    # The member sees the same leagues: their request finds the body fragment cached; their player and roles are
    # read in the page's first query.
    # Its net credits tile adds up every ledger line of the player, and the part at events not finished, in one
    # query of its own (the chart's may cover one season only).
    ("player", 9, 3, 1),
    # Its "Tables and games" reads the event's online and real-cards tables (one query each) and, the event being a
    # tournament, the tables its tournament seats players at (one): three more than the results tables alone.
    ("event", 10, 13, 1),
    ("game", 5, 9, 5),  # the chip history reads the ledger only (no query of the game itself); not cached
]


def _url(site, page: str) -> str:
    return {
        "league": f"/leagues/{site.base.league.slug}/?season={site.base.season.pk}",
        "player": f"/players/{site.base.players[0].pk}/",
        "event": f"/events/{site.running_event.pk}/",
        "game": f"/games/{site.replay_game.pk}/",
    }[page]


def _without_tokens(response) -> str:
    """The page without its CSRF tokens (they differ from one visitor to the next)."""
    import re

    return re.sub(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+', r"\1", response.content.decode())


@pytest.mark.parametrize(("page", "anonymous", "member", "cached"), PAGES)
def test_page_query_counts_are_pinned_and_do_not_grow(
    django_assert_num_queries, settings, page, anonymous, member, cached
):
    settings.PAGE_STAMP_MAX_AGE = 0  # every request reads who may see the page (see test_whole_page_cache.py)
    if page == "player" and connection.vendor != "postgresql":
        # The embedded default (SQLite) has no arrays: the player page's first read takes the ORM's few queries
        # (`page_stamps._player_portable`) where PostgreSQL takes one.
        anonymous, member, cached = (
            anonymous + PORTABLE_PLAYER[0],
            member + PORTABLE_PLAYER[1],
            cached + PORTABLE_PLAYER[2],
        )
    site = build_site_world()
    signed_in = Client()
    signed_in.force_login(site.base.users["member"])
    sizes = []
    for rounds in (0, 4):
        _more_rows(site, rounds)
        with django_assert_num_queries(anonymous):
            response = Client().get(_url(site, page))
        assert response.status_code == 200
        sizes.append(len(response.content))
        with django_assert_num_queries(cached):
            again = Client().get(_url(site, page))
        assert _without_tokens(again) == _without_tokens(response)
        session_read = 1 if settings.SESSION_ENGINE.endswith(".db") else 0
        with django_assert_num_queries(member - 1 + session_read):
            assert signed_in.get(_url(site, page)).status_code == 200
    if page != "game":  # the game page shows the same game; the others grow with the new rows
        assert sizes[1] > sizes[0]
