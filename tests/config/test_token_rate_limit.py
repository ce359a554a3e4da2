"""Item 7 of the hardening issue: password guessing on /api/auth/token/ is limited by account and by address,
with 429 and Retry-After; a right password is refused too while the limit holds."""

import secrets

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient


def fresh_address() -> str:
    # Throttle counts live in the shared cache (Redis in CI): a fresh address and username per test run.
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


@pytest.fixture(autouse=True)
def fast_hasher(settings):
    # Every attempt hashes a password; the default hasher is slow on purpose, and that is not what is tested.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def attempt(username, password, address):
    return APIClient().post(
        "/api/auth/token/", {"username": username, "password": password}, format="json", REMOTE_ADDR=address
    )


@pytest.mark.django_db
def test_7_wrong_passwords_on_one_account_are_limited_whatever_the_address(settings):
    settings.TOKEN_RATE_LIMITS = {"account": "5/min", "address": "1000/min"}
    username = f"ana-{secrets.token_hex(4)}"
    get_user_model().objects.create_user(username=username, password="a-long-passphrase")
    answers = [attempt(username, f"guess-{n}", fresh_address()).status_code for n in range(5)]
    assert answers == [400] * 5
    refused = attempt(username.upper(), "a-long-passphrase", fresh_address())
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "throttled" in refused.json()["detail"].lower() or "request" in refused.json()["detail"].lower()
    other = f"bob-{secrets.token_hex(4)}"
    get_user_model().objects.create_user(username=other, password="another-passphrase")
    assert attempt(other, "another-passphrase", fresh_address()).status_code == 200


@pytest.mark.django_db
def test_7_guesses_from_one_address_are_limited_whatever_the_account(settings):
    settings.TOKEN_RATE_LIMITS = {"account": "1000/min", "address": "20/min"}
    address = fresh_address()
    answers = [attempt(f"user-{secrets.token_hex(4)}", "guess", address).status_code for _ in range(20)]
    assert answers == [400] * 20
    refused = attempt(f"user-{secrets.token_hex(4)}", "guess", address)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert attempt(f"user-{secrets.token_hex(4)}", "guess", fresh_address()).status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("body", ["[" * 10_000 + "]" * 10_000, '{"username": ' + "[" * 10_000 + "]" * 10_000 + "}"])
def test_21_5_deeply_nested_json_to_the_token_endpoint_answers_400_not_500(body):
    # The account limit reads the username from the body: through the API's guarded parser, not DRF's default.
    response = APIClient(raise_request_exception=False).post(
        "/api/auth/token/", body, content_type="application/json", REMOTE_ADDR=fresh_address()
    )
    assert response.status_code == 400
    assert "nested deeper" in response.json()["detail"]
