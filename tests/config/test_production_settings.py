"""Item 8 of the hardening issue: safe defaults. Production refuses a weak key and boots clean with a good
one; DEBUG is off and "testserver" is not an allowed host unless asked for; only staff create leagues on
production by default; demo_data refuses to run on production settings unless forced."""

import secrets

import pytest
from django.core.management import CommandError, call_command
from django.core.management.utils import get_random_secret_key

from tests.config.test_settings import run

GOOD_KEY = secrets.token_urlsafe(50)
PROBE = (
    "import django; django.setup(); from django.conf import settings; "
    "print(settings.DEBUG, settings.LEAGUE_CREATORS, settings.API_BROWSABLE, ','.join(settings.ALLOWED_HOSTS))"
)


@pytest.mark.parametrize(
    "key",
    [
        "x",
        "short-but-random-" + secrets.token_hex(8),
        "x" * 60,
        "dev-only-not-secret-5f0c1e9b2a7d4c3e8b6a1f0d9c2e7b4a3f6d8c1e",
        "abcde" * 10,
        "abcdefghij" * 6,
        "0123456789abcdef" * 4,
    ],
    ids=[
        "one-character",
        "under-50",
        "one-letter-repeated",
        "the-development-key",
        "five-letters-repeated",
        "ten-letters-repeated",
        "a-hex-alphabet-repeated",
    ],
)
def test_8_production_refuses_a_weak_secret_key(key):
    result = run({"DJANGO_SETTINGS_MODULE": "config.settings.production", "SECRET_KEY": key}, "manage.py", "check")
    assert result.returncode != 0
    assert "SECRET_KEY is too weak" in result.stderr


def test_21_9_production_refuses_a_key_django_marks_insecure():
    key = "django-insecure-" + secrets.token_urlsafe(50)
    result = run({"DJANGO_SETTINGS_MODULE": "config.settings.production", "SECRET_KEY": key}, "manage.py", "check")
    assert result.returncode != 0
    assert "SECRET_KEY starts with 'django-insecure-'" in result.stderr


@pytest.mark.parametrize(
    "key",
    [secrets.token_urlsafe(50), secrets.token_hex(25), secrets.token_hex(32), get_random_secret_key()],
    ids=["token-urlsafe-50", "fifty-hex-digits", "openssl-rand-hex-32", "django-get-random-secret-key"],
)
def test_21_9_production_accepts_keys_made_the_usual_ways(key):
    result = run({"DJANGO_SETTINGS_MODULE": "config.settings.production", "SECRET_KEY": key}, "manage.py", "check")
    assert result.returncode == 0, result.stderr


def test_8_production_boots_clean_with_a_good_key():
    env = {"DJANGO_SETTINGS_MODULE": "config.settings.production", "SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "a.org"}
    result = run(env, "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    probe = run(env, "-c", PROBE)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split() == ["False", "staff", "False", "a.org"]


def test_8_development_defaults_debug_off_and_no_testserver_host():
    probe = run({"DJANGO_SETTINGS_MODULE": "config.settings.base"}, "-c", PROBE)
    assert probe.returncode == 0, probe.stderr
    debug, creators, browsable, hosts = probe.stdout.split()
    assert (debug, creators, browsable) == ("False", "anyone", "False")
    assert "testserver" not in hosts.split(",")
    asked = run({"DJANGO_SETTINGS_MODULE": "config.settings.base", "DEBUG": "true"}, "-c", PROBE)
    assert asked.stdout.split()[:3] == ["True", "anyone", "True"]


def test_8_the_makefile_turns_debug_on_for_run_and_test_only():
    from pathlib import Path

    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    assert "DEBUG=true $(BIN)/python manage.py runserver" in makefile
    assert "DEBUG=true $(BIN)/pytest" in makefile
    serve = makefile.split("\nserve:")[1].split("\n\n")[0]
    assert "DEBUG=true" not in serve


@pytest.mark.django_db
def test_8_demo_data_refuses_production_settings_unless_forced(settings, capsys):
    from django.contrib.auth import get_user_model

    settings.IS_PRODUCTION = True
    with pytest.raises(CommandError, match="publicly known passwords"):
        call_command("demo_data")
    assert not get_user_model().objects.exists()
    call_command("demo_data", "--force")
    assert get_user_model().objects.exists()


def test_21_4_production_believes_x_forwarded_proto_only_with_a_proxy_in_front():
    probe = "import django; django.setup(); from django.conf import settings; print(settings.SECURE_PROXY_SSL_HEADER)"
    env = {"DJANGO_SETTINGS_MODULE": "config.settings.production", "SECRET_KEY": GOOD_KEY}
    behind = run({**env, "NUM_PROXIES": "1"}, "-c", probe)
    assert behind.stdout.strip() == "('HTTP_X_FORWARDED_PROTO', 'https')", behind.stderr
    direct = run({**env, "NUM_PROXIES": "0"}, "-c", probe)
    assert direct.stdout.strip() == "None", direct.stderr
