"""The Celery app. Without `REDIS_URL` tasks run in-process (eager), so no broker is needed."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("sabacc")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="config.ping")
def ping(value: str = "pong") -> str:
    """A task that only answers: proves the worker, the broker and the result backend."""
    return value
