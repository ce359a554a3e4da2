"""The Celery app. Without `REDIS_URL` tasks run in-process (eager), so no broker is needed."""

import functools
import logging
import os

from celery import Celery, signals
from celery.worker.consumer import Consumer as CeleryConsumer

from config.broker import register as register_broker

logger = logging.getLogger(__name__)


def survive_a_closed_redis_connection() -> None:
    """kombu's Redis channel, once its connection is closed (Redis stopped, or back empty), builds a new connection
    pool from the closed connection when asked to ack a task that finished meanwhile or to put its unacknowledged
    messages back, and the worker stops with "Unrecoverable error: AttributeError ... 'hostname'" (or "... 'client'";
    the same failure as celery/kombu#582). Here such a channel raises Redis's ConnectionError instead, which the
    worker logs and passes over like any lost connection, and puts nothing back: the messages stay in Redis's unacked
    set, which the visibility timeout brings back (a task is safe to run twice), and the sweep resends lost work."""
    from kombu.transport import redis as kombu_redis
    from redis.exceptions import ConnectionError as RedisConnectionError

    if getattr(kombu_redis.Channel._connparams, "closed_raises", False):
        return
    connparams, restore = kombu_redis.Channel._connparams, kombu_redis.QoS.restore_unacked

    def closed(channel) -> bool:
        return getattr(channel.connection, "client", None) is None

    def _connparams(self, asynchronous=False):
        if closed(self):
            raise RedisConnectionError("this channel's broker connection is closed")
        return connparams(self, asynchronous=asynchronous)

    def restore_unacked(self, client=None):
        if client is None and self.channel._pool is None and closed(self.channel):
            logger.warning(
                "broker connection closed: %d unacknowledged message(s) left to come back", len(self._delivered)
            )
            self._delivered.clear()
            return None
        return restore(self, client)

    _connparams.closed_raises = True
    kombu_redis.Channel._connparams = _connparams
    kombu_redis.QoS.restore_unacked = restore_unacked


class Consumer(CeleryConsumer):
    """The worker's consumer (`CELERY_WORKER_CONSUMER`), trying the broker again every second or two while it is
    away instead of kombu's 2, 4, 6 ... up to 30 s: a Redis back after 25 s is found within 2 s, not 10."""

    def ensure_connected(self, conn):
        conn.ensure_connection = functools.partial(
            conn.ensure_connection, interval_start=1, interval_step=1, interval_max=2
        )
        return super().ensure_connected(conn)


def close_database_connections(**kwargs) -> None:
    """The worker's parent, before it forks its pool processes: no connection or connection pool is inherited (what
    Celery's Django fixup does itself unless `CELERY_DB_REUSE_MAX` is set, as it is here)."""
    from django.conf import settings
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        connection.close()
        if hasattr(connection, "close_pool") and connection.settings_dict.get("OPTIONS", {}).get("pool"):
            connection.close_pool()
    # A worker's task waits at most this long for a pooled connection (a request waits DB_POOL_TIMEOUT): after the
    # database ended the pool's connections, psycopg_pool tries again after 1, 2, 4 ... s, and a task waiting on it
    # held its table up; timed out, the task is retried with a fresh pool (below). The fault bench's tables resumed
    # 12 s after `pg_terminate_backend` with 30 s here, 1.5 s with 3 s.
    for database in settings.DATABASES.values():
        pool = database.get("OPTIONS", {}).get("pool")
        if isinstance(pool, dict):
            pool["timeout"] = min(float(pool.get("timeout", 30)), settings.WORKER_DB_POOL_TIMEOUT)


def give_back_database_connections(sender=None, **kwargs) -> None:
    """Around every task, what Django does around every request (`close_old_connections`): a connection goes back to
    the process's pool (PostgreSQL, `CONN_MAX_AGE` 0) or is kept for `CONN_MAX_AGE` (SQLite), and one that failed is
    dropped. Celery's own fixup closed every connection and the whole pool around every task instead, so each bot
    decision opened a new PostgreSQL connection (`CELERY_DB_REUSE_MAX`, config/settings/base.py, turns that off).
    Not for a task run in-process (eager): it runs inside its caller's request or transaction."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections, connections

    close_old_connections()
    if kwargs.get("state") in (None, "SUCCESS"):
        return
    # A task that failed or is retried (a server restart, `pg_terminate_backend`: the pool's other connections may be
    # ended too) leaves a fresh pool, as Celery's fixup left after every task: kept, the fault bench's tables resumed
    # 12 s after their connections were ended instead of 2 s.
    for connection in connections.all(initialized_only=True):
        connection.close()
        if hasattr(connection, "close_pool") and connection.settings_dict.get("OPTIONS", {}).get("pool"):
            connection.close_pool()


register_broker()  # `atomicfile://`, the embedded broker (config.broker)
survive_a_closed_redis_connection()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("sabacc")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
signals.worker_init.connect(close_database_connections, weak=False)
signals.task_prerun.connect(give_back_database_connections, weak=False)
signals.task_postrun.connect(give_back_database_connections, weak=False)


@app.task(name="config.ping")
def ping(value: str = "pong") -> str:
    """A task that only answers: proves the worker, the broker and the result backend."""
    return value
