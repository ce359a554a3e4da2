"""Without Redis (the embedded default's local-memory cache, one per process: the worker's writes would never
reach the web process's copy) no user is copied to the cache: every signed-in request reads them as Django
does, so a deactivated account is signed out on its next request in any process."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config import viewer_cache
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def local_memory(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"


def test_without_a_shared_cache_the_user_is_read_from_the_database_every_time():
    assert not viewer_cache.held()
    user = UserFactory()
    client = Client()
    client.force_login(user)
    assert client.get("/leagues/").wsgi_request.user.is_authenticated
    with CaptureQueriesContext(connection) as context:
        response = client.get("/leagues/")
    assert response.wsgi_request.user.is_authenticated
    assert any('FROM "auth_user"' in query["sql"] for query in context.captured_queries)
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)  # no signal: only the database knows
    assert not client.get("/leagues/").wsgi_request.user.is_authenticated
