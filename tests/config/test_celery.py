"""A task runs through a real worker (on Redis when configured) and in-process without a broker."""

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
