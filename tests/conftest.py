"""Suite-wide checks: in CI the real PostgreSQL and Redis must be there, or the run fails."""

import os
from urllib.parse import urlsplit, urlunsplit

import pytest
from hypothesis import settings as hypothesis_settings

# CI explores the same examples every run (a failure there is reproducible, never luck);
# local runs keep exploring new ones.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
hypothesis_settings.register_profile("dev", print_blob=True)


def _ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def pytest_configure(config: pytest.Config) -> None:
    _fast_password_hasher()
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1... under pytest-xdist (`make test` runs two)
    if worker and os.environ.get("REDIS_URL"):
        _own_redis_database(int(worker.removeprefix("gw")))


def _fast_password_hasher() -> None:
    """Passwords hashed with MD5 in this process (Django's advice for test suites): the default PBKDF2 takes about
    a third of a second per hash on purpose (a second on this busy machine), and the suite hashes hundreds (every
    demo account, sign-in, sign-up and `set_password`). No test is about the hasher's cost; signing in, the rate
    limits and the session hash work the same. The others stay listed so a hash made elsewhere still checks.
    Servers started as subprocesses (the embedded stack, a second uvicorn) keep the default."""
    from django.conf import global_settings, settings

    md5 = "django.contrib.auth.hashers.MD5PasswordHasher"
    settings.PASSWORD_HASHERS = [md5, *(name for name in global_settings.PASSWORD_HASHERS if name != md5)]


def _own_redis_database(index: int) -> None:
    """Each xdist worker has its own Redis database (REDIS_URL's number plus the worker's index), as it has its own
    test database: its Celery queue, cache, keys and the cache.clear() some tests do never reach another worker's.
    Settings read REDIS_URL before any conftest runs, so the settings derived from it are pointed there too, before
    the cache or the Celery app are first used; subprocesses (a worker, a second server) inherit the environment.
    Pub/sub channels are server-wide: a stream woken by another worker's table re-reads its own and sends nothing."""
    from django.conf import settings
    from django.core.cache import caches

    from config.celery import app

    parts = urlsplit(os.environ["REDIS_URL"])
    url = urlunsplit(parts._replace(path=f"/{int(parts.path.strip('/') or 0) + index}"))
    assert not app.configured and "settings" not in caches.__dict__, "Redis was used before the worker's was chosen"
    os.environ["REDIS_URL"] = settings.REDIS_URL = url
    settings.CELERY_BROKER_URL = settings.CELERY_RESULT_BACKEND = url
    settings.CACHES["default"]["LOCATION"] = url


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


@pytest.fixture(autouse=True)
def fresh_page_stamps():
    """What a process remembers of leagues for anonymous visitors' pages (`league.page_stamps`, a tenth of a
    second) and its copies of whole pages (`league.page_cache`) belong to one test's data: each test starts as
    a new process would."""
    from league import page_cache, page_stamps

    page_stamps.forget()
    page_cache._front.clear()


_skipped: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped:
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI every test runs: a skip there means a service or tool is missing, so the run fails."""
    if _ci() and _skipped and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter) -> None:
    if _ci() and _skipped:
        terminalreporter.write_line(
            f"CI=true: {len(_skipped)} test(s) skipped, which CI counts as a failure:", red=True
        )
        for nodeid in _skipped:
            terminalreporter.write_line(f"  {nodeid}", red=True)
