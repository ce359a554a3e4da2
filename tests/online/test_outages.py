"""The cache and the event channel are savings, never requirements: with either failing, the table's pages, its
hands and its live stream answer as usual (the README's promise), and an event that cannot go out is passed over."""

import pytest
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client

from config import events
from games.engine import Game
from games.online import services
from tests.online.test_stream import next_state, open_stream


class BrokenCache(LocMemCache):
    """A cache whose server is gone: every call fails as Redis's client does when it cannot connect."""

    def _fail(self, *args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    get = set = add = delete = get_many = set_many = delete_many = incr = touch = has_key = get_or_set = _fail


@pytest.fixture
def cache_down(settings):
    """Call it to take the cache down (after signing in: logging in itself is not this module's subject)."""

    def down() -> None:
        settings.CACHES = {"default": {"BACKEND": f"{__name__}.BrokenCache"}}

    return down


def finish_a_hand(table, scheduled) -> None:
    for _ in range(50):
        table.refresh_from_db()
        if Game.from_json(table.state).hands_played:
            return
        scheduled.run(scheduled.last("turn_timeout"))
    raise AssertionError("the hand did not end")


@pytest.mark.django_db
def test_the_hands_page_answers_with_the_cache_down(humans, heads_up, scheduled, cache_down):
    finish_a_hand(heads_up, scheduled)
    viewer = Client()
    viewer.force_login(humans[1])
    cache_down()
    page = viewer.get(f"/tables/{heads_up.pk}/hands/")
    assert page.status_code == 200 and b"Hand 1" in page.content
    history = viewer.get(f"/tables/{heads_up.pk}/hands/history.json")
    assert history.status_code == 200 and [h["number"] for h in history.json()["hands"]] == [1]


def test_the_stream_falls_back_to_polling_with_the_event_channel_and_the_cache_down(
    transactional_db, settings, world, humans, open_table, cache_down
):
    table = open_table(seats=2)
    client = Client()
    client.force_login(humans[0])
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there: subscribing and publishing fail
    cache_down()
    response, chunks = open_stream(client, f"/tables/{table.pk}/events/")
    try:
        _, first = next_state(chunks)
        assert first["version"] == table.version
        services.seat_take(actor=humans[0], table=table)  # its event cannot be published either
        _, second = next_state(chunks)
        assert second["version"] == table.version + 1
    finally:
        response._iterator.close()


def test_a_failing_subscriber_or_channel_never_fails_the_publisher(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    heard = []

    def broken(message):
        raise RuntimeError("a bug in a subscriber")

    stop_broken = events.subscribe_local("outage-test", broken)
    stop_heard = events.subscribe_local("outage-test", heard.append)
    try:
        events.publish_now("outage-test", {"n": 1})
    finally:
        stop_broken()
        stop_heard()
    assert heard == [{"topic": "outage-test", "n": 1}]
