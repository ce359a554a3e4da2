"""A task runs through a real worker (on Redis when configured) and in-process without a broker."""

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings

from config.celery import app, ping


def test_task_runs_in_process_without_a_broker(monkeypatch):
    def no_broker(*args, **kwargs):
        raise AssertionError("an in-process task must not reach the broker")

    monkeypatch.setattr(app.amqp, "send_task_message", no_broker)
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        assert ping.delay("in-process").get(timeout=5) == "in-process"
    finally:
        app.conf.task_always_eager = previous


def test_task_runs_through_a_real_worker():
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        with start_worker(app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
            result = ping.delay("through-worker")
            assert result.get(timeout=30) == "through-worker"
            # With REDIS_URL set (always in CI) the message went over Redis, not the memory transport.
            assert app.conf.broker_url == (settings.REDIS_URL or "memory://localhost/")
    finally:
        app.conf.task_always_eager = previous


def closed_channel():
    """A Redis channel as the consumer leaves it when Redis went away: holding a delivered message, no pool, no
    connection."""
    from kombu import Connection

    channel = Connection(settings.REDIS_URL or "redis://127.0.0.1:6379/0").channel()

    class Message:
        _raw = {"body": "{}"}
        delivery_info = {"exchange": "", "routing_key": "nowhere"}

    channel.qos._delivered["lost-tag"] = Message()
    channel._pool, channel.connection.client = None, None
    return channel


def test_a_worker_whose_redis_connection_is_closed_keeps_its_unacked_messages_instead_of_crashing():
    """The fault bench's "Unrecoverable error: AttributeError ... hostname": restoring unacked messages through a
    connection already closed (Redis gone) must not stop the worker (config.celery)."""
    channel = closed_channel()
    channel.qos.restore_unacked_once()  # raised AttributeError: 'NoneType' object has no attribute 'hostname'
    assert not channel.qos._delivered


def test_acking_through_a_closed_redis_connection_is_a_connection_error_the_worker_passes_over():
    """A task finishing after Redis went away acks through its old channel: "Unrecoverable error: AttributeError
    ... 'client'" stopped the worker; a connection error is logged and passed over (kombu's ack_log_error)."""
    import logging

    from kombu.transport.redis import get_redis_error_classes

    channel = closed_channel()
    connection_errors = get_redis_error_classes()[0]  # what a Redis worker passes over
    with pytest.raises(connection_errors):
        channel.qos.ack("lost-tag")
    channel.connection = None  # the channel closed as well
    with pytest.raises(connection_errors):
        channel.qos.ack("lost-tag")

    class Message:
        delivery_tag = "lost-tag"

        def ack(self, multiple=False):
            channel.qos.ack("lost-tag")

    from kombu.message import Message as KombuMessage

    KombuMessage.ack_log_error(Message(), logging.getLogger("test"), connection_errors)  # logged, not raised
    channel.qos._delivered.clear()
    channel.qos.restore_unacked_once()  # now, not from kombu's finalizer at exit (its log stream closed by then)


def test_with_the_broker_down_sending_an_online_task_gives_up_at_once(tmp_path):
    """Redis down: a request's after-commit send fails fast and is passed over (the sweep sends the work again);
    it held the request for 19 s subscribing to the task's result before it failed."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import time, django; django.setup(); from games.online import schedule; t = time.monotonic(); "
        "sent = schedule.send('bot_act', [1, 0, 1], 1); print(sent, time.monotonic() - t)"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("EMBEDDED_BROKER_DIR", "CI")}
    env.update(
        REDIS_URL="redis://127.0.0.1:1/0",  # nothing listens there
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_SETTINGS_MODULE="config.settings.base",
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=60,
    )
    sent, seconds = done.stdout.split()
    assert sent == "False" and float(seconds) < 3, done.stderr[-2000:]


def test_the_worker_tries_a_broker_that_went_away_every_second_or_two():
    """kombu's default waits 2, 4, 6 ... up to 30 s between attempts: a Redis back after 25 s was found 10 s late."""
    from config.celery import Consumer

    assert app.conf.worker_consumer == "config.celery:Consumer" and app.conf.broker_connection_max_retries is None
    asked = []

    class Connection:
        def ensure_connection(self, *args, **kwargs):
            asked.append(kwargs)
            return self

    consumer = Consumer.__new__(Consumer)  # only what ensure_connected reads
    consumer.app, consumer.first_connection_attempt, consumer.broker_connection_retry_attempt = app, False, 0
    consumer.ensure_connected(Connection())
    assert asked and asked[0]["interval_max"] <= 2 and asked[0]["interval_start"] <= 1
