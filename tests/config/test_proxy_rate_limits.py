"""Issue 21, finding 4: the sign-in limits hold where the site is deployed. Behind docker-compose's proxy
(`NUM_PROXIES=1`: the app sees the proxy's address, the proxy adds the client's to X-Forwarded-For) one client's
failures never lock out another client, and a forged X-Forwarded-For does not escape the per-address limit;
served directly (`NUM_PROXIES=0`) the header is ignored. Per-account limits count the account, whether it is
named by its username or its e-mail, in any letter case (the token endpoint and the site's sign-in alike)."""

import secrets

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PROXY = "172.18.0.3"  # docker-compose's proxy, as the app sees it


@pytest.fixture(autouse=True)
def clean_limits(settings):
    # Counts live in the cache (Redis in CI, kept between runs): every test starts from none.
    cache.clear()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    yield
    cache.clear()


def an_address() -> str:
    return f"198.51.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


def through_proxy(client: str, forged: str | None = None) -> dict[str, str]:
    """What the app receives from the proxy: its own address as the peer, the client's appended to whatever
    X-Forwarded-For the client sent (a proxy that appends, the worst case; Caddy replaces it)."""
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": f"{forged}, {client}" if forged else client}


def directly(client: str, forged: str | None = None) -> dict[str, str]:
    return {"REMOTE_ADDR": client, **({"HTTP_X_FORWARDED_FOR": forged} if forged else {})}


def account(username: str = "", password: str = "a-long-passphrase"):
    username = username or f"ana-{secrets.token_hex(3)}"
    return get_user_model().objects.create_user(username=username, email=f"{username}@example.org", password=password)


def token(login: str, password: str, meta: dict[str, str]) -> int:
    return APIClient().post("/api/auth/token/", {"username": login, "password": password}, format="json", **meta)


def sign_in(login: str, password: str, meta: dict[str, str]):
    return Client().post("/accounts/login/", {"login": login, "password": password}, **meta)


# The token endpoint


def test_4_behind_the_proxy_one_clients_failures_do_not_lock_out_another_clients_token(settings):
    settings.NUM_PROXIES = 1
    settings.TOKEN_RATE_LIMITS = {"account": "1000/min", "address": "3/min"}
    guesser, user = an_address(), account()
    assert [token(f"nobody-{n}", "guess", through_proxy(guesser)).status_code for n in range(3)] == [400] * 3
    assert token("nobody", "guess", through_proxy(guesser)).status_code == 429
    answer = token(user.username, "a-long-passphrase", through_proxy(an_address()))
    assert answer.status_code == 200 and answer.json()["token"]


def test_4_behind_the_proxy_a_forged_forwarded_for_does_not_escape_the_address_limit(settings):
    settings.NUM_PROXIES = 1
    settings.TOKEN_RATE_LIMITS = {"account": "1000/min", "address": "3/min"}
    guesser = an_address()
    answers = [token(f"nobody-{n}", "guess", through_proxy(guesser, forged=an_address())).status_code for n in range(4)]
    assert answers == [400, 400, 400, 429]


def test_4_served_directly_a_forged_forwarded_for_is_ignored_by_the_token_limit(settings):
    settings.NUM_PROXIES = 0
    settings.TOKEN_RATE_LIMITS = {"account": "1000/min", "address": "3/min"}
    guesser = an_address()
    answers = [token(f"nobody-{n}", "guess", directly(guesser, forged=an_address())).status_code for n in range(4)]
    assert answers == [400, 400, 400, 429]
    assert token("nobody", "guess", directly(an_address(), forged=guesser)).status_code == 400


def test_4_the_username_and_the_email_share_one_token_budget(settings):
    settings.TOKEN_RATE_LIMITS = {"account": "4/min", "address": "1000/min"}
    user = account()
    logins = [user.username, user.email.upper(), user.username.upper(), f" {user.email} "]
    assert [token(login, "guess", directly(an_address())).status_code for login in logins] == [400] * 4
    assert token(user.email, "a-long-passphrase", directly(an_address())).status_code == 429
    assert token(user.username, "a-long-passphrase", directly(an_address())).status_code == 429
    assert token(account().email, "a-long-passphrase", directly(an_address())).status_code == 200


def test_4_an_unknown_name_is_counted_by_its_normalised_text(settings):
    settings.TOKEN_RATE_LIMITS = {"account": "2/min", "address": "1000/min"}
    assert token("Ghost", "guess", directly(an_address())).status_code == 400
    assert token(" gHOST ", "guess", directly(an_address())).status_code == 400
    assert token("ghost", "guess", directly(an_address())).status_code == 429
    assert token("ghost2", "guess", directly(an_address())).status_code == 400


def test_4_a_username_that_is_another_accounts_email_counts_against_both(settings):
    # Typing "ana@example.org" tries ana's password and that of whoever took it as a username: both are charged,
    # so a second account made to look like ana's e-mail gives no second budget for guessing ana's password.
    settings.TOKEN_RATE_LIMITS = {"account": "3/min", "address": "1000/min"}
    ana = account()
    account(username=ana.email)
    assert [token(ana.email, "guess", directly(an_address())).status_code for _ in range(3)] == [400] * 3
    assert token(ana.username, "a-long-passphrase", directly(an_address())).status_code == 429


# The site's sign-in (allauth)


def test_4_behind_the_proxy_one_clients_failed_sign_ins_do_not_lock_out_another_client(settings):
    settings.NUM_PROXIES = 1
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "3/m/ip,1000/5m/key"}
    guesser, user = an_address(), account()
    assert [sign_in(f"nobody-{n}", "guess", through_proxy(guesser)).status_code for n in range(3)] == [200] * 3
    assert sign_in("nobody", "guess", through_proxy(guesser)).status_code == 429
    assert sign_in(user.username, "a-long-passphrase", through_proxy(an_address())).status_code == 302


def test_4_behind_the_proxy_a_forged_forwarded_for_does_not_escape_the_sign_in_limit(settings):
    settings.NUM_PROXIES = 1
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "3/m/ip,1000/5m/key"}
    guesser = an_address()
    statuses = [sign_in(f"nobody-{n}", "guess", through_proxy(guesser, forged=an_address())) for n in range(4)]
    assert [response.status_code for response in statuses] == [200, 200, 200, 429]


def test_4_served_directly_a_forged_forwarded_for_is_ignored_by_the_sign_in_limit(settings):
    settings.NUM_PROXIES = 0
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "3/m/ip,1000/5m/key"}
    guesser = an_address()
    statuses = [sign_in(f"nobody-{n}", "guess", directly(guesser, forged=an_address())) for n in range(4)]
    assert [response.status_code for response in statuses] == [200, 200, 200, 429]


def test_4_the_username_and_the_email_share_one_sign_in_budget(settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "1000/m/ip,4/5m/key"}
    user = account()
    logins = [user.username, user.email.upper(), user.username.upper(), user.email]
    assert [sign_in(login, "guess", directly(an_address())).status_code for login in logins] == [200] * 4
    refused = sign_in(user.email, "a-long-passphrase", directly(an_address()))
    assert refused.status_code == 429 and "_auth_user_id" not in refused.client.session
    assert sign_in(user.username, "a-long-passphrase", directly(an_address())).status_code == 429
    other = account()
    assert sign_in(other.email.upper(), "a-long-passphrase", directly(an_address())).status_code == 302


def test_4_a_sign_in_by_an_email_that_is_another_accounts_username_counts_against_both(settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "1000/m/ip,3/5m/key"}
    ana = account()
    account(username=ana.email)
    assert [sign_in(ana.email, "guess", directly(an_address())).status_code for _ in range(3)] == [200] * 3
    assert sign_in(ana.username, "a-long-passphrase", directly(an_address())).status_code == 429


def test_4_a_password_reset_clears_the_accounts_failed_sign_ins_however_they_were_typed(settings, mailoutbox):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "1000/m/ip,2/5m/key"}
    ana = account()
    EmailAddress.objects.create(user=ana, email=ana.email, primary=True, verified=True)
    for login in (ana.username, ana.email.upper()):
        assert sign_in(login, "guess", directly(an_address())).status_code == 200
    assert sign_in(ana.username, "a-long-passphrase", directly(an_address())).status_code == 429
    client = Client()
    assert client.post("/accounts/password/reset/", {"email": ana.email}).status_code == 302
    link = next(word for word in mailoutbox[0].body.split() if "/accounts/password/reset/key/" in word)
    form = client.get(link.split("testserver", 1)[-1], follow=True)
    new = {"password1": "stardust-rogue-1", "password2": "stardust-rogue-1"}
    assert client.post(form.redirect_chain[-1][0], new).status_code == 302
    assert sign_in(ana.email, "stardust-rogue-1", directly(an_address())).status_code == 302
