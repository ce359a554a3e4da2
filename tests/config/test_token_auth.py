"""A user trades a username and password for an API token, and the token authenticates."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient


@pytest.mark.django_db
def test_token_is_issued_for_good_credentials_and_authenticates():
    get_user_model().objects.create_user(username="ana", password="a-long-passphrase")
    client = APIClient()
    refused = client.post("/api/auth/token/", {"username": "ana", "password": "wrong"}, format="json")
    assert refused.status_code == 400
    issued = client.post("/api/auth/token/", {"username": "ana", "password": "a-long-passphrase"}, format="json")
    assert issued.status_code == 200
    token = issued.json()["token"]

    anonymous = APIClient().post("/api/players/", {"display_name": "Guest"}, format="json")
    assert anonymous.status_code == 401
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = client.get("/api/players/")
    assert me.status_code == 200
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert bad.get("/api/players/").status_code == 401
