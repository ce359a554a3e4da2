"""Events go out only after the transaction commits, in-process and over Redis."""

import json

import pytest
import redis
from django.db import transaction

from config import events


@pytest.mark.django_db(transaction=True)
def test_event_is_delivered_after_commit_and_not_on_rollback(settings):
    settings.REDIS_URL = ""
    received = []
    unsubscribe = events.subscribe_local("table.1", received.append)
    try:
        with transaction.atomic():
            events.publish("table.1", {"hand": 3})
            assert received == []  # not before the commit
        assert received == [{"topic": "table.1", "hand": 3}]
        with pytest.raises(RuntimeError), transaction.atomic():
            events.publish("table.1", {"hand": 4})
            raise RuntimeError("rolled back")
        assert received == [{"topic": "table.1", "hand": 3}]
    finally:
        unsubscribe()


@pytest.mark.django_db(transaction=True)
def test_event_goes_out_on_redis_pub_sub_when_configured(settings):
    settings.REDIS_URL = settings.REDIS_URL or "redis://127.0.0.1:6379/0"
    client = redis.Redis.from_url(settings.REDIS_URL)
    pubsub = client.pubsub()
    pubsub.subscribe(events.CHANNEL_PREFIX + "league.7")
    assert pubsub.get_message(timeout=5)["type"] == "subscribe"
    events.publish("league.7", {"standings": "recomputed"})
    message = pubsub.get_message(timeout=5)
    pubsub.close()
    assert message is not None and message["type"] == "message"
    assert json.loads(message["data"]) == {"topic": "league.7", "standings": "recomputed"}
