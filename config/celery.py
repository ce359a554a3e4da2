"""The Celery app. Without `REDIS_URL` tasks run in-process (eager), so no broker is needed."""

import functools
import logging
import os

from celery import Celery
from celery.worker.consumer import Consumer as CeleryConsumer

from config.broker import register as register_broker

logger = logging.getLogger(__name__)


def keep_unacked_when_disconnected() -> None:
    """A worker whose Redis connection is already closed (Redis stopped, or restarted empty) tries at shutdown or
    reconnection to put its unacknowledged messages back, builds a new connection pool from the closed connection,
    and stops with "Unrecoverable error: AttributeError ... 'hostname'" (kombu's redis `QoS.restore_unacked`; the
    same failure as celery/kombu#582). Then there is nothing to restore through: the messages stay in Redis's
    unacked set, which the visibility timeout brings back, and a table's lost work is sent again by the sweep."""
    from kombu.transport import redis as kombu_redis

    restore = kombu_redis.QoS.restore_unacked
    if getattr(restore, "keeps_unacked", False):
        return

    def restore_unacked(self, client=None):
        channel = self.channel
        if client is None and channel._pool is None and getattr(channel.connection, "client", None) is None:
            logger.warning(
                "broker connection closed: %d unacknowledged message(s) left to come back", len(self._delivered)
            )
            self._delivered.clear()
            return None
        return restore(self, client)

    restore_unacked.keeps_unacked = True
    kombu_redis.QoS.restore_unacked = restore_unacked


class Consumer(CeleryConsumer):
    """The worker's consumer (`CELERY_WORKER_CONSUMER`), trying the broker again every second or two while it is
    away instead of kombu's 2, 4, 6 ... up to 30 s: a Redis back after 25 s is found within 2 s, not 10."""

    def ensure_connected(self, conn):
        conn.ensure_connection = functools.partial(
            conn.ensure_connection, interval_start=1, interval_step=1, interval_max=2
        )
        return super().ensure_connected(conn)


register_broker()  # `atomicfile://`, the embedded broker (config.broker)
keep_unacked_when_disconnected()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("sabacc")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="config.ping")
def ping(value: str = "pong") -> str:
    """A task that only answers: proves the worker, the broker and the result backend."""
    return value
