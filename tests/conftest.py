"""Suite-wide checks: in CI the real PostgreSQL and Redis must be there, or the run fails."""

import fcntl
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
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
    _flush_by_delete()
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


def _flush_by_delete() -> None:
    """On PostgreSQL the flush after each transactional test (the browser, worker and concurrency tests) empties the
    tables with `DELETE` instead of one `TRUNCATE` of every table: a `TRUNCATE` gives each of the 40 tables and its
    indexes new files, about half a second however little they hold, where deleting the few rows a test leaves takes
    a hundredth (measured in `docs/testing.md`). Every table is still emptied in one transaction (the foreign keys are
    checked at its commit, as Django makes them `DEFERRABLE INITIALLY DEFERRED`) and post_migrate still runs after,
    so the next test starts from the same state; Django's own SQLite flush deletes the same way. A flush that must
    restart the sequences or cascade keeps the `TRUNCATE`."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    operations = type(connection.ops)
    truncate = operations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]

    operations.sql_flush = sql_flush


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


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory, worker_id):
    """`copy(path)` puts at `path` a SQLite database with every migration applied, as `manage.py migrate` leaves the
    embedded default (`make run`'s). The tests that start the embedded stack in other processes (the embedded game,
    the casual games, the supervisor) copy it instead of migrating their own: one SQLite migration takes 10 to 15 s
    of CPU and up to a minute on this busy machine. It is made once per run, by the first xdist worker to need it,
    in the run's own temporary folder (so never from an older checkout's migrations); the others wait on a lock."""
    root = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        root = root.parent  # the run's folder, shared by its workers
    template, lock = root / "migrated-embedded.sqlite3", root / "migrated-embedded.lock"
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if not template.exists():
            building = root / f"migrated-embedded-{worker_id}.sqlite3"
            env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL", "CI")}
            env.update(DATABASE_URL=f"sqlite:///{building}", DJANGO_SETTINGS_MODULE="config.settings.base")
            done = subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
                env=env,
                cwd=Path(__file__).resolve().parent.parent,
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            assert done.returncode == 0, f"migrate exited {done.returncode}:\n{done.stderr[-3000:]}"
            assert not Path(f"{building}-wal").exists()  # its last connection closed: everything is in the file
            building.rename(template)

    def copy(path: Path) -> Path:
        with sqlite3.connect(template) as source, sqlite3.connect(path) as target:
            source.backup(target)
        source.close()
        target.close()
        return path

    return copy


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
