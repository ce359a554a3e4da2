"""The cache, the Celery broker and the result backend all use the one Redis database this run was given (under
pytest-xdist each worker has its own: tests/conftest.py), and subprocesses inherit the same one."""

import os

from django.conf import settings
from django.core.cache import cache

from config.celery import app


def test_every_redis_user_agrees_on_the_runs_database():
    url = os.environ.get("REDIS_URL", "")
    assert url == settings.REDIS_URL
    if url:
        assert app.conf.broker_url == app.conf.result_backend == url
        assert cache._servers == [url]
    else:
        assert app.conf.broker_url == "memory://localhost/" and app.conf.task_always_eager
