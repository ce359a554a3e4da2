"""Secrets in a link (a real-cards seat's hand-over, a join code, an e-mail invite, a password reset in the path; a
casual game's invite token in the query string) never reach a log line: not uvicorn's access log, not
`runserver`'s, not Django's "Not Found" warning for a wrong guess (config/log_redaction.py)."""

import http.client
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from config.log_redaction import LOGGERS, RedactSecrets, redact
from tests.config.test_deployment_proxy import free_port, image_command
from tests.config.test_settings import HIDDEN_FROM_SUBPROCESS, ROOT


@pytest.mark.parametrize(
    ("path", "kept"),
    [
        ("/tabletop/QX7K/seat/s3cr3t-Tok_en/", "/tabletop/QX7K/seat/…/"),
        ("/tabletop/QX7K/seat/s3cr3t?next=/x/", "/tabletop/QX7K/seat/…?next=/x/"),
        ("/join/outer-rim/AB12CD/", "/join/outer-rim/…/"),
        ("/join/invite/41/9f8e7d6c5b4a/", "/join/invite/41/…/"),
        ("/accounts/password/reset/key/1z-abc-def/", "/accounts/password/reset/key/…/"),
        ('127.0.0.1:5 - "GET /join/invite/41/9f8e HTTP/1.1" 404', '127.0.0.1:5 - "GET /join/invite/41/… HTTP/1.1" 404'),
        # A casual game's share link carries its invite token in the query string.
        ("/tables/7/?invite=Ab-_12xyz", "/tables/7/?invite=…"),
        ("/api/tables/7/?format=json&invite=Ab-_12xyz", "/api/tables/7/?format=json&invite=…"),
        ("/tables/7/?invite=Ab12&hand=2", "/tables/7/?invite=…&hand=2"),
        ('"GET /tables/7/?invite=Ab12 HTTP/1.1" 302', '"GET /tables/7/?invite=… HTTP/1.1" 302'),
        ("/accounts/login/?next=/tables/7/%3Finvite%3DAb12", "/accounts/login/?next=/tables/7/%3Finvite%3D…"),
    ],
)
def test_a_secret_bearing_path_keeps_its_shape_and_loses_its_secret(path, kept):
    assert redact(path) == kept


@pytest.mark.parametrize(
    "path",
    [
        "/tabletop/QX7K/",
        "/tabletop/QX7K/seat-player/",
        "/join/",
        "/api/join/invite/",
        "/accounts/password/reset/key/done/",
        "/leagues/outer-rim/",
        "/tables/3/act/",
        "/tables/3/?invited=yes",
        "/tables/3/?uninvite=1",
        "plain",
    ],
)
def test_other_paths_are_left_as_they_are(path):
    assert redact(path) == path


def test_the_filter_rewrites_a_records_message_and_arguments_and_drops_nothing():
    record = logging.LogRecord(
        "django.request", logging.WARNING, __file__, 1, "Not Found: %s", ("/join/a/SECRET/",), None
    )
    assert RedactSecrets().filter(record) is True
    assert record.getMessage() == "Not Found: /join/a/…/"


def test_the_settings_put_the_filter_on_every_logger_that_writes_request_paths():
    for name in LOGGERS:
        assert any(isinstance(f, RedactSecrets) for f in logging.getLogger(name).filters), name


@pytest.mark.django_db
def test_a_wrong_invite_guess_is_logged_without_its_token(client):
    lines: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        response = client.get("/join/invite/999999/GUESSEDTOKEN123/")
    finally:
        logger.removeHandler(handler)
    assert response.status_code == 404
    assert lines and all("GUESSEDTOKEN123" not in line for line in lines), lines
    assert any("/join/invite/999999/…/" in line for line in lines), lines


def test_uvicorn_as_the_image_runs_it_writes_no_secret_to_its_access_log(tmp_path):
    """The Dockerfile's command on a free port, its output captured: each request's access line names the path up
    to its secret."""
    port = free_port()
    command = image_command()
    command[command.index("--host") + 1] = "127.0.0.1"
    command[command.index("--port") + 1] = str(port)
    env = {key: value for key, value in os.environ.items() if key not in HIDDEN_FROM_SUBPROCESS}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.base")
    output = tmp_path / "uvicorn.log"
    with output.open("w") as sink:
        server = subprocess.Popen(
            [str(Path(sys.executable).with_name("uvicorn")), *command[1:]],
            cwd=ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        # uvicorn says "Application startup complete" before it listens, and "Uvicorn running on" once it does.
        while "Uvicorn running on" not in output.read_text():
            assert server.poll() is None and time.monotonic() < deadline, output.read_text()
            time.sleep(0.1)
        for path in (
            "/join/invite/not-a-number/SECRETINVITE1/",
            "/join/invite/7/SECRETINVITE2/extra/",
            "/tables/not-a-number/?invite=SECRETINVITE3",  # a share link's token in a query string
        ):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", path)
            assert connection.getresponse().status == 404
            connection.close()
        deadline = time.monotonic() + 10
        while output.read_text().count('"GET /') < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=10)
    log = output.read_text()
    assert log.count('"GET /join/invite/') == 2, log  # the access lines are there...
    assert "/join/invite/not-a-number/…/" in log and "/join/invite/7/…/extra/" in log, log
    assert '"GET /tables/not-a-number/?invite=… ' in log, log
    assert "SECRETINVITE" not in log, log  # ...without the secrets
