"""A small league with finished and running events, a game with a replay, and users of every role."""

import datetime
from dataclasses import dataclass

import pytest
from django.core.cache import cache
from django.test import TestCase
from django.utils import timezone

from games.demo import bot_replay
from games.models import Game, Table
from games.services import result_record
from league.models import EventKind, EventStatus
from tests.factories import EventFactory
from tests.league.conftest import World, build_world, friday_freezeout, world  # noqa: F401 (fixtures)


@dataclass
class SiteWorld:
    base: World
    finished_game: Game
    replay_game: Game
    running_event: object


def build_site_world() -> SiteWorld:
    base = build_world()
    organiser = base.users["organiser"]
    han, lando, leia = base.players[:3]
    with TestCase.captureOnCommitCallbacks(execute=True):
        finished = result_record(
            actor=organiser,
            event=base.event,
            seats=[{"player": han.pk, "buy_in": 450}, {"player": lando.pk, "buy_in": 450}],
            hands=[{str(han.pk): 30, str(lando.pk): -30}, {str(han.pk): -100, str(lando.pk): 100}],
        )
        base.event.status = EventStatus.FINISHED
        base.event.save(update_fields=["status"])
        running = EventFactory(
            season=base.season,
            name="Running cup",
            kind=EventKind.TOURNAMENT,
            status=EventStatus.RUNNING,
            starts_at=timezone.now() - datetime.timedelta(hours=1),
        )
        table = Table.objects.create(event=running, name="Final table", number=1)
        replayed = result_record(
            actor=organiser,
            event=running,
            seats=[{"player": p.pk, "buy_in": 450} for p in (han, lando, leia)],
            replay=bot_replay([p.display_name for p in (han, lando, leia)], seed="site-tests"),
            table=table,
        )
    from league.services import standings_recompute

    standings_recompute(league_id=base.league.pk)
    return SiteWorld(base, finished, replayed, running)


@pytest.fixture
def site_world(db) -> SiteWorld:
    return build_site_world()


@pytest.fixture
def redis_site_world(settings) -> SiteWorld:
    """The site world for the tests of the Redis path: nothing remembered per process (its default there)."""
    settings.PAGE_STAMP_MAX_AGE = 0
    return build_site_world()


def another_process() -> None:
    """What a web process holds in memory, gone: the next request is as one in a process that did not write."""
    from league import page_cache, page_stamps

    page_stamps.forget()
    page_stamps._slug_leagues.clear()
    page_stamps._event_leagues.clear()
    page_cache._front.clear()


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """Rate-limit counters live in the cache (Redis when configured): each test starts from zero."""
    cache.clear()
    yield
    cache.clear()
