"""The Celery app. Without `REDIS_URL` tasks run in-process (eager), so no broker is needed."""

import os

from celery import Celery

from config.broker import register as register_broker

register_broker()  # `atomicfile://`, the embedded broker (config.broker)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("sabacc")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="config.ping")
def ping(value: str = "pong") -> str:
    """A task that only answers: proves the worker, the broker and the result backend."""
    return value
