"""The tests that start the app's own processes (a Celery worker, the supervisor, a uvicorn server): where they
run, the embedded stack's environment, a uvicorn on the test's database, and bounded waits on a condition or on a
line the process prints."""

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def embedded_env(tmp_path: Path, **settings: str) -> dict:
    """The environment of `make run`'s embedded stack under `tmp_path` (a SQLite database and the filesystem
    broker, no Redis), with these settings added."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL", "CI")}
    env.update(
        EMBEDDED_BROKER_DIR=str(tmp_path / "broker"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_SETTINGS_MODULE="config.settings.base",
    )
    env.update(settings)
    return env


def wait_for(condition: Callable[[], Any], seconds: float = 60.0, what: str = "the condition") -> Any:
    """`condition()`'s first true value, asked every 0.2 s for at most `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"not within {seconds:.0f} s: {what}")


def wait_for_line(process: subprocess.Popen, seconds: float, wanted: Callable[[str], bool], what: str) -> None:
    """Read `process`'s output (text) until a line is `wanted`, for at most `seconds` (checked between lines);
    a process that stops first, or no such line in time, fails with what it printed."""
    deadline = time.monotonic() + seconds
    lines = []
    while time.monotonic() < deadline:  # bounded wait on the process's own report
        line = process.stdout.readline()
        lines.append(line)
        if not line and process.poll() is not None:
            raise AssertionError(f"the process stopped before {what}: " + "".join(lines))
        if wanted(line):
            return
    raise AssertionError(f"not within {seconds:.0f} s: {what}: " + "".join(lines))


@contextlib.contextmanager
def uvicorn_server(**settings: str) -> Iterator[str]:
    """uvicorn (one process, ASGI, as docker-compose.yml runs the site) on this test's database, with these
    settings added to the environment: its address while it runs, stopped after."""
    from django.conf import settings as django_settings

    database = django_settings.DATABASES["default"]
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    login = database["USER"] + (f":{database['PASSWORD']}" if database.get("PASSWORD") else "")
    env["DATABASE_URL"] = f"postgres://{login}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    env.update(settings)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = []
        for line in server.stderr:  # bounded by the process: it either reports it is up or exits
            lines.append(line)
            if "Uvicorn running on" in line:
                break
        else:
            raise AssertionError("uvicorn did not start: " + "".join(lines))
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)
