"""Suite-wide checks: in CI the real PostgreSQL and Redis must be there, or the run fails."""

import os

import pytest
from hypothesis import settings as hypothesis_settings

# CI explores the same examples every run (a failure there is reproducible, never luck);
# local runs keep exploring new ones.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
hypothesis_settings.register_profile("dev", print_blob=True)


def _ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def pytest_sessionstart(session: pytest.Session) -> None:
    hypothesis_settings.load_profile("ci" if _ci() else "dev")
    if not _ci():
        return
    missing = [name for name in ("DATABASE_URL", "REDIS_URL") if not os.environ.get(name)]
    if missing:
        raise pytest.UsageError(f"CI=true but {', '.join(missing)} is not set: CI runs on PostgreSQL and Redis.")
    if not os.environ["DATABASE_URL"].startswith(("postgres://", "postgresql://")):
        raise pytest.UsageError("CI=true but DATABASE_URL is not a PostgreSQL URL.")
    import redis

    try:
        redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=3).ping()
    except Exception as exc:
        raise pytest.UsageError(f"CI=true but Redis at REDIS_URL cannot be reached: {exc}") from exc
