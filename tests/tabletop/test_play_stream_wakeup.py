"""On the embedded default (no Redis) a phone's stream served by the same process as the tap hears of the step
at once: the announcement wakes it (`config.events`' local subscribers), it does not wait for the next poll."""

import threading
import time

import pytest
from django.test import Client
from django.urls import reverse

from games.online import stream
from games.tabletop import services
from tests.tabletop.helpers import started_table


@pytest.mark.django_db(transaction=True)  # the stream reads on its own, outside the test's transaction
def test_a_step_wakes_the_phones_stream_without_waiting_for_a_poll(settings, monkeypatch):
    settings.REDIS_URL = ""
    settings.ONLINE_STREAM_KEEPALIVE_SECONDS = 120
    monkeypatch.setattr(stream, "POLL_SECONDS", 120.0)  # a poll would come far too late for this test
    table, host, ann, _ = started_table(has_dice=False)
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    table.refresh_from_db()
    client = Client()
    client.force_login(ann)
    answer = client.get(reverse("tabletop-events", args=[table.code]), HTTP_LAST_EVENT_ID=str(table.version))
    chunks = iter(answer.streaming_content)
    assert next(chunks).startswith(b"retry:")
    got: list[tuple[float, bytes]] = []
    reader = threading.Thread(target=lambda: got.append((time.monotonic(), next(chunks))), daemon=True)
    reader.start()
    time.sleep(0.3)  # the stream is waiting now
    started = time.monotonic()
    services.realtable_step(actor=host, table=table, step={"step": "dice", "by": "site"})
    reader.join(timeout=10)
    assert got, "the stream did not hear the step within 10 s"
    answer._iterator.close()
    table.refresh_from_db()
    at, message = got[0]
    assert message.decode().startswith(f"id: {table.version}\n")
    assert at - started < 5
