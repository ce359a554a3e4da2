"""The default cache when it is Redis, shared by every process (web servers and workers): what may be held
there because a write in any process can retire it. The embedded default (a local-memory cache per process)
is not shared, so what needs sharing is not held at all there."""

import threading
from typing import Any

from django.conf import settings
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from django.db import connection

# The process's connection pools and clients, by server and options: shared by every cache object of the process.
_pools: dict[tuple, Any] = {}
_clients: dict[int, Any] = {}
_made = threading.Lock()


class _OneClientPerPool(RedisCacheClient):
    """Django's Redis cache client, with one connection pool per server for the whole process and one `redis.Redis`
    per pool. Django makes a cache object per thread and per ASGI request (`caches` is context-local), each with
    pools of its own, so under uvicorn every request opened a new connection to Redis (a TCP connect and the
    handshake: more than the GETs it then sent); and a new `redis.Redis` for every cache call. Both are safe to
    share between threads (each command takes a connection from the pool); after a fork the pool makes new
    connections (redis-py checks the process id)."""

    def _get_connection_pool(self, write):
        index = self._get_connection_pool_index(write)
        key = (self._servers[index], self._pool_class, repr(sorted(self._pool_options.items(), key=str)))
        pool = _pools.get(key)
        if pool is None:
            with _made:
                pool = _pools.get(key)
                if pool is None:
                    pool = _pools[key] = self._pool_class.from_url(self._servers[index], **self._pool_options)
        return pool

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        made = _clients.get(id(pool))
        if made is None:
            with _made:
                made = _clients.get(id(pool))
                if made is None:
                    made = _clients[id(pool)] = self._client(connection_pool=pool)
        return made


class RedisCache(DjangoRedisCache):
    """The cache with `REDIS_URL` (`CACHES`): Django's Redis cache, with one client per connection pool."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _OneClientPerPool


def redis_cache() -> bool:
    """Whether the default cache is Redis."""
    from django.core.cache import caches

    return isinstance(caches["default"], DjangoRedisCache)


_database: list[str] = []


def database_id() -> str:
    """What names this database, made anew or not: PostgreSQL's oid of it (a database dropped and created
    again under the same name, with its ids starting over, never meets the copies of the one before)."""
    if not _database:
        name = str(settings.DATABASES["default"]["NAME"])
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
                name = f"{name}.{cursor.fetchone()[0]}"
        _database.append(name)
    return _database[0]


def client():
    """The raw Redis client of the default cache (values are what the caller stores, not pickled by Django),
    made once per cache connection (as `RedisCache` keeps its own, whatever the configured class)."""
    from django.core.cache import cache

    backend = cache._cache
    made = getattr(backend, "_league_versions_client", None)
    if made is None:
        made = backend._league_versions_client = backend.get_client(write=True)
    return made
