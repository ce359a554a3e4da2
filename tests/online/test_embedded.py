"""The embedded default (`make run` without Redis): a Celery worker process beside the server takes
tasks from kombu's filesystem transport, so delayed tasks run later and in another process."""

import subprocess
import sys

import pytest

from tests.processes import ROOT, embedded_env, wait_for_line


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
        wait_for_line(worker, 60, lambda line: "config.ping" in line and "succeeded" in line, "the ping succeeded")
        assert not list(broker.glob("*.msg"))  # consumed
    finally:
        worker.terminate()
        worker.wait(timeout=30)
