"""The tests that start the app's own processes (a Celery worker, the supervisor): where they run, the embedded
stack's environment, and bounded waits on a condition or on a line the process prints."""

import os
import subprocess
import time
from collections.abc import Callable
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
