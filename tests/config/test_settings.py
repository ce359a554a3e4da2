"""Settings boot embedded and on the real services; production refuses unsafe setups."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import django; django.setup(); from django.conf import settings; from config.celery import app; "
    "print(settings.DATABASES['default']['ENGINE']); print(app.conf.broker_url); "
    "print(settings.CACHES['default']['BACKEND']); print(app.conf.task_always_eager)"
)

HIDDEN_FROM_SUBPROCESS = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}


def run(env_overrides: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in HIDDEN_FROM_SUBPROCESS}
    env.update(env_overrides)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_embedded_default_boots_on_sqlite_with_in_process_celery():
    result = run({"DJANGO_SETTINGS_MODULE": "config.settings.base"}, "-c", PROBE)
    assert result.returncode == 0, result.stderr
    engine, broker, cache, eager = result.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert broker == "memory://localhost/"
    assert cache.endswith("LocMemCache")
    assert eager == "True"


def test_postgres_and_redis_configuration_boots():
    result = run(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres",
            "REDIS_URL": "redis://127.0.0.1:6379/3",
        },
        "-c",
        PROBE,
    )
    assert result.returncode == 0, result.stderr
    engine, broker, cache, eager = result.stdout.split()
    assert engine == "django.db.backends.postgresql"
    assert broker == "redis://127.0.0.1:6379/3"
    assert cache.endswith("RedisCache")
    assert eager == "False"


def test_manage_check_passes_on_the_default_settings():
    result = run({"DJANGO_SETTINGS_MODULE": "config.settings.base"}, "manage.py", "check")
    assert result.returncode == 0, result.stderr


def test_production_refuses_to_start_without_secret_key():
    result = run({"DJANGO_SETTINGS_MODULE": "config.settings.production"}, "manage.py", "check")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_production_refuses_to_start_with_debug_on():
    result = run(
        {"DJANGO_SETTINGS_MODULE": "config.settings.production", "SECRET_KEY": "x" * 60, "DEBUG": "true"},
        "manage.py",
        "check",
    )
    assert result.returncode != 0
    assert "DEBUG is on" in result.stderr


def test_production_rejects_a_debug_value_it_cannot_read():
    result = run(
        {"DJANGO_SETTINGS_MODULE": "config.settings.production", "SECRET_KEY": "x" * 60, "DEBUG": "maybe"},
        "manage.py",
        "check",
    )
    assert result.returncode != 0
    assert "is not a yes/no value" in result.stderr


def test_production_check_deploy_is_clean():
    secret = "k3Y-" + "".join(chr(ord("a") + (i * 7) % 26) for i in range(60))
    result = run(
        {"DJANGO_SETTINGS_MODULE": "config.settings.production", "SECRET_KEY": secret, "ALLOWED_HOSTS": "example.org"},
        "manage.py",
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert result.returncode == 0, result.stdout + result.stderr
