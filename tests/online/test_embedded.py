"""The embedded default (`make run` without Redis): a Celery worker process beside the server takes
tasks from kombu's filesystem transport, so delayed tasks run later and in another process."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def embedded_env(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL", "CI")}
    env.update(
        EMBEDDED_BROKER_DIR=str(tmp_path / "broker"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_SETTINGS_MODULE="config.settings.base",
    )
    return env


def run_python(code: str, env: dict) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout


def test_embedded_settings_use_a_worker_on_the_filesystem_broker(tmp_path):
    out = run_python(
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.CELERY_BROKER_URL, s.CELERY_TASK_ALWAYS_EAGER, s.DATABASES['default']['OPTIONS']['transaction_mode'])",
        embedded_env(tmp_path),
    )
    assert out.split() == ["atomicfile://", "False", "IMMEDIATE"]  # config.broker: whole messages only


@pytest.mark.timeout(120)
def test_a_worker_process_takes_a_delayed_task_from_the_embedded_broker(tmp_path):
    env = embedded_env(tmp_path)
    broker = tmp_path / "broker"
    run_python("import django; django.setup(); from config.celery import ping; ping.apply_async(countdown=1)", env)
    assert len(list(broker.glob("*.msg"))) == 1  # sent, not run in-process
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "--loglevel", "INFO"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        lines = []
        while time.monotonic() < deadline:  # bounded wait on the worker's own report
            line = worker.stdout.readline()
            lines.append(line)
            if not line and worker.poll() is not None:
                raise AssertionError("the worker stopped: " + "".join(lines))
            if "config.ping" in line and "succeeded" in line:
                break
        else:
            raise AssertionError("".join(lines))
        assert not list(broker.glob("*.msg"))  # consumed
    finally:
        worker.terminate()
        worker.wait(timeout=30)
