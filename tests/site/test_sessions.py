"""Sessions read from the cache (`config.sessions`, the engine with Redis) keep Django's auth exact: signing
out ends the session for every process, a password change or a deactivated account signs the user out, and a
cache that fails neither breaks a signed-in page nor lets an ended session live on."""

from unittest import mock

import pytest
from django.core.cache import caches
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PAGE = "/leagues/"


@pytest.fixture(autouse=True)
def cached_sessions(settings):
    settings.SESSION_ENGINE = "config.sessions"


def _user():
    user = UserFactory()
    user.set_password("a-long-secret-1")
    user.save()
    return user


def _signed_in(client: Client) -> bool:
    response = client.get(PAGE)
    assert response.status_code == 200
    return response.wsgi_request.user.is_authenticated


def _twin(client: Client) -> Client:
    """Another browser tab (or another process's request) with the same session cookie."""
    other = Client()
    other.cookies = client.cookies.__class__(client.cookies)
    return other


def test_signing_out_ends_the_session_in_the_cache_and_the_database():
    user = _user()
    client = Client()
    assert client.login(username=user.username, password="a-long-secret-1")
    twin = _twin(client)
    assert _signed_in(client) and _signed_in(twin)
    key = client.session.session_key
    assert client.post("/accounts/logout/").status_code == 302
    assert not _signed_in(twin)
    from django.contrib.sessions.models import Session

    assert not Session.objects.filter(session_key=key).exists()
    assert caches["default"].get(f"django.contrib.sessions.cached_db{key}") is None


@pytest.mark.parametrize("change", ["password", "deactivated"])
def test_a_password_change_or_a_deactivated_account_signs_the_user_out(change):
    user = _user()
    client = Client()
    assert client.login(username=user.username, password="a-long-secret-1")
    assert _signed_in(client)
    if change == "password":
        user.set_password("another-long-secret-2")
    else:
        user.is_active = False
    user.save()
    assert not _signed_in(client)


def test_with_the_cache_down_pages_render_signed_in_and_signing_out_fails_without_a_trace():
    user = _user()
    client = Client(raise_request_exception=False)
    assert client.login(username=user.username, password="a-long-secret-1")
    cache = caches["default"]
    down = ConnectionError("Redis is down")
    with (
        mock.patch.object(cache, "get", side_effect=down),
        mock.patch.object(cache, "set", side_effect=down),
        mock.patch.object(cache, "delete", side_effect=down),
        mock.patch.object(cache, "has_key", side_effect=down),
    ):
        assert _signed_in(client)  # read from the database
        assert client.post("/accounts/logout/").status_code == 500  # not ended: its copy could not be dropped
    assert _signed_in(client)  # the session as it was, in the cache and the database
    assert client.post("/accounts/logout/").status_code == 302
    assert not _signed_in(client)
