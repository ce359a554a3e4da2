"""Database connections are pooled and bounded (issue: under uvicorn every request opened a PostgreSQL connection;
100 requests left 56-70 idle ones behind and 50 concurrent clients ran PostgreSQL out of connections).

A live uvicorn server serves 30 sequential requests that read the database (`/healthz`); after each one the test
lists the server's connections to the test database. With the pool they are one small set, the same after every
request; with Django's per-thread persistent connections the set grows with each request (each ASGI request runs in
a new thread), and with CONN_MAX_AGE=0 each request opens and closes its own (none stays to be reused)."""

import urllib.request

import pytest
from django.conf import settings
from django.db import connection

from tests.processes import uvicorn_server

REQUESTS = 30


def _pool_max() -> int:
    """The most connections one server process may hold (without a pool: Django's one, were it reused)."""
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool") or {}
    return pool.get("max_size", 1)


@pytest.fixture
def asgi_server():
    """uvicorn (one process) on this test's database, as docker-compose.yml runs the site."""
    with uvicorn_server() as address:
        yield address


def _server_connections() -> frozenset[int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return frozenset(pid for (pid,) in cursor.fetchall())


@pytest.mark.django_db(transaction=True)
def test_sequential_requests_to_a_live_asgi_server_reuse_a_bounded_set_of_connections(asgi_server):
    if connection.vendor != "postgresql":  # outside CI only: under CI a skip fails the run (tests/conftest.py)
        pytest.skip("the pool is PostgreSQL's; SQLite keeps its file connections as they are")
    before = _server_connections()
    seen: list[frozenset[int]] = []
    for _ in range(REQUESTS):
        with urllib.request.urlopen(f"{asgi_server}/healthz", timeout=10) as response:
            assert response.status == 200
        seen.append(_server_connections() - before)
    assert all(seen), "a request's connection was closed instead of going back to the pool"
    opened = frozenset().union(*seen)
    assert len(opened) <= _pool_max(), f"{len(opened)} connections for {REQUESTS} requests"


def test_postgresql_pools_with_conn_max_age_zero_and_compose_stays_under_max_connections():
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.postgresql":
        assert "pool" not in database.get("OPTIONS", {})
        return
    pool = database["OPTIONS"]["pool"]
    assert database["CONN_MAX_AGE"] == 0
    assert 0 < pool["min_size"] <= pool["max_size"]
    # docker-compose.yml runs 2 uvicorn workers, a Celery worker (its parent and 2 children) and beat, one pool
    # each: together under PostgreSQL's default max_connections (100) less the 3 it keeps for superusers.
    assert 6 * pool["max_size"] < 97
