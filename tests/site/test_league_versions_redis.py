"""With Redis as the cache, the league and event pages read their league's state (version, visibility, slug)
from the copy held in Redis (`league.services.versions`, `league.page_stamps`), not from PostgreSQL. These
tests commit for real (a transactional database), as a deployment does: a write is seen at once by a process
that did not make it, a reader's stale fill never wins over a newer write, and Redis down still serves pages
from the database. The database path (no Redis, or inside a transaction) is what the rest of tests/site runs."""

import os
from unittest import mock

import pytest
import redis
from django.test import Client

from league import page_cache, page_stamps, services
from league.models import League, Visibility
from league.services import versions
from tests.factories import EventFactory
from tests.site.conftest import another_process

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL); CI runs it"),
]


@pytest.fixture
def world(redis_site_world):
    assert versions.redis_versions()
    return redis_site_world


def _held(league_id: int):
    raw = versions.client().get(versions.version_key(league_id))
    return versions.decode(raw) if raw else None


def _get(url: str, client: Client | None = None):
    return (client or Client()).get(url)


def test_a_warm_page_reads_no_database_and_a_write_elsewhere_shows_at_once(world, django_assert_num_queries):
    base = world.base
    urls = [f"/leagues/{base.league.slug}/", f"/events/{world.finished_game.event_id}/"]
    for url in urls:
        assert "Han the Bold" not in _get(url).content.decode()
        with django_assert_num_queries(0):  # the league's state from Redis, the page from the cache
            assert _get(url).status_code == 200
    version = League.objects.get(pk=base.league.pk).data_version
    assert _held(base.league.pk)[0] == version
    # The write, as in another process: this one is not told (its memory is not cleared by the commit).
    with mock.patch.object(page_stamps, "forget"):
        services.player_update(actor=base.users["admin"], player=base.players[0], display_name="Han the Bold")
    assert _held(base.league.pk)[0] > version  # copied after the commit
    for url in urls:
        assert "Han the Bold" in _get(url).content.decode()
        with django_assert_num_queries(0):
            assert "Han the Bold" in _get(url).content.decode()


def test_a_league_made_members_only_closes_at_once_and_a_moved_slug_leaves_the_old_address(world):
    base = world.base
    url, event_url = f"/leagues/{base.league.slug}/", f"/events/{world.finished_game.event_id}/"
    member = Client()
    member.force_login(base.users["member"])
    for client in (Client(), member):
        assert _get(url, client).status_code == 200
        assert _get(event_url, client).status_code == 200
    with mock.patch.object(page_stamps, "forget"):
        services.league_update(actor=base.users["organiser"], league=base.league, visibility=Visibility.MEMBERS)
    assert _get(url).status_code == 404
    assert _get(event_url).status_code == 404
    assert _get(url, member).status_code == 200
    assert _get(event_url, member).status_code == 200
    with mock.patch.object(page_stamps, "forget"):
        services.league_update(actor=base.users["organiser"], league=base.league, slug="renamed-league")
    assert _get(url, member).status_code == 404
    assert _get("/leagues/renamed-league/", member).status_code == 200


def test_a_reader_filling_after_a_newer_write_never_wins(world):
    base = world.base
    league_id = base.league.pk
    stale_row = page_stamps._row(page_stamps.LEAGUE_BY_SLUG, [base.league.slug])  # read before the write
    versions.client().delete(versions.version_key(league_id))  # no copy: the write's step sets one
    services.league_update(actor=base.users["organiser"], league=base.league, visibility=Visibility.MEMBERS)
    newer = _held(league_id)
    assert newer[0] > stale_row[3] and newer[1] == Visibility.MEMBERS
    # The reader's fill lands after the write's copy: SET NX leaves it.
    versions.fill(league_id, versions.encode(stale_row[3], stale_row[1], stale_row[2], stale_row[4]))
    assert _held(league_id) == newer
    # Two writes' after-commit steps run out of order: the older one can't move the copy back.
    assert not versions.store(league_id, (stale_row[3], stale_row[1], stale_row[2], stale_row[4]))
    assert _held(league_id) == newer
    another_process()
    assert _get(f"/leagues/{base.league.slug}/").status_code == 404


def test_every_copy_expires_so_a_lost_update_heals(world):
    base = world.base
    _get(f"/leagues/{base.league.slug}/")  # a reader's fill
    assert 0 < versions.client().ttl(versions.version_key(base.league.pk)) <= versions.VERSION_TTL
    services.league_update(actor=base.users["organiser"], league=base.league, name="Renamed")  # a writer's copy
    assert 0 < versions.client().ttl(versions.version_key(base.league.pk)) <= versions.VERSION_TTL


def test_with_redis_down_pages_read_the_database_and_writes_still_commit(world, django_assert_max_num_queries):
    base = world.base
    url = f"/leagues/{base.league.slug}/"
    assert _get(url).status_code == 200
    down = mock.patch.object(versions, "client", side_effect=redis.ConnectionError("Redis is down"))
    with down, mock.patch.object(page_cache, "cache") as cache:
        cache.get.side_effect = cache.set.side_effect = redis.ConnectionError("Redis is down")
        another_process()
        services.player_update(actor=base.users["admin"], player=base.players[0], display_name="Han the Bold")
        response = _get(url)
        assert response.status_code == 200 and "Han the Bold" in response.content.decode()
        services.league_update(actor=base.users["organiser"], league=base.league, visibility=Visibility.MEMBERS)
        assert _get(url).status_code == 404  # who may see it, read from the database
    assert League.objects.get(pk=base.league.pk).visibility == Visibility.MEMBERS


def test_a_deleted_event_is_not_served_from_a_process_that_remembers_its_league(world):
    event = EventFactory(season=world.base.season, name="Short-lived night")
    url = f"/events/{event.pk}/"
    assert "Short-lived night" in _get(url).content.decode()
    event.delete()  # no service: the admin's way
    assert _get(url).status_code == 404
