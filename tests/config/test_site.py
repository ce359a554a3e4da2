"""The health check and the home page."""

import os
import re

import pytest
from django.db import connection


@pytest.mark.django_db
def test_healthz_reports_database_up(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["status"] == "up"


@pytest.mark.django_db
def test_healthz_reports_a_stopped_broker_as_down(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # a port nothing listens on
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["broker"]["status"] == "down"
    assert body["database"]["status"] == "up"


@pytest.mark.django_db
def test_healthz_reports_the_embedded_folder_broker_of_make_run(client, settings, tmp_path):
    """`make run` sends tasks through files in EMBEDDED_BROKER_DIR to the worker beside it: not "in-process"."""
    settings.REDIS_URL = ""
    settings.EMBEDDED_BROKER_DIR = str(tmp_path)
    body = client.get("/healthz").json()
    assert body["broker"] == {"status": "up", "mode": "embedded folder"}
    settings.EMBEDDED_BROKER_DIR = str(tmp_path / "gone")  # tasks could not be written: the site is not healthy
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["broker"] == {"status": "down", "mode": "embedded folder"}
    settings.EMBEDDED_BROKER_DIR = ""
    assert client.get("/healthz").json()["broker"] == {"status": "not configured", "mode": "in-process"}


@pytest.mark.django_db
def test_healthz_reports_a_configured_broker_as_up_when_it_answers(client, settings):
    if not settings.REDIS_URL:
        settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    response = client.get("/healthz")
    assert response.json()["broker"]["status"] == "up"


@pytest.mark.django_db
def test_suite_runs_on_the_database_it_was_given():
    url = os.environ.get("DATABASE_URL", "")
    if os.environ.get("CI", "").lower() == "true" or url.startswith("postgres"):
        assert connection.vendor == "postgresql"
    else:
        assert connection.vendor == "sqlite"


@pytest.mark.django_db
def test_home_page_uses_the_layout_and_local_htmx(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/vendor/htmx-2.0.11.min.js" in html
    assert "/static/css/site.css" in html
    assert "cdn" not in html.lower()


@pytest.mark.django_db
def test_static_files_are_served(client):
    response = client.get("/static/vendor/htmx-2.0.11.min.js")
    assert response.status_code == 200
    assert b"htmx" in b"".join(response.streaming_content)


@pytest.mark.django_db
def test_api_docs_load_without_a_cdn(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert "cdn.jsdelivr" not in response.content.decode()
    schema = client.get("/api/schema/")
    assert schema.status_code == 200


@pytest.mark.django_db
def test_the_api_docs_tell_a_newcomer_how_to_sign_in_and_lead_back_to_the_site(client):
    """The docs' first lines (the schema's description, shown by Swagger UI and Redoc): how to get a token and
    send it, the error shape, and links back, so a reader who came from the footer is not stranded."""
    description = client.get("/api/schema/?format=json").json()["info"]["description"]
    assert "`POST /api/auth/token/`" in description and "`Authorization: Token <token>`" in description
    assert "**Authorize**" in description and "[Sign up](/accounts/signup/)" in description
    assert '`{"detail": ..., "code": ..., "extra": {...}}`' in description
    assert "[Back to the site](/)" in description and "[How to play](/rules/)" in description


@pytest.mark.django_db
def test_the_redoc_page_loads_nothing_from_another_site(client):
    """drf-spectacular's Redoc page links Google Fonts: offline those fail in the console, online they tell a third
    party who reads the docs. Ours keeps the local Redoc bundle and no address outside the site in the page (the
    bundle's own footer logo is out of reach: docs/api.md)."""
    html = client.get("/api/redoc/").content.decode()
    assert "/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js" in html
    assert not re.findall(r'(?:href|src)="(?:https?:)?//', html)
    assert "googleapis" not in html and "gstatic" not in html


@pytest.mark.django_db
def test_healthz_reports_a_database_that_refuses_queries_as_down(client, monkeypatch):
    from django.db import OperationalError
    from django.db.backends.utils import CursorWrapper

    def refuse(self, sql, params=None):
        raise OperationalError("connection refused")

    monkeypatch.setattr(CursorWrapper, "execute", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == {"status": "down", "error": "OperationalError"}
