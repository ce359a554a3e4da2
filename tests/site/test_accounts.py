"""Accounts through the site: sign up, sign in and out, password reset, rate limits (also for the admin
sign-in), the profile page and claiming a guest player."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from league.models import Player
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_visitor_signs_up_and_is_signed_in():
    client = Client()
    page = client.get("/accounts/signup/")
    assert page.status_code == 200 and 'class="stack-form"' in page.content.decode()  # allauth in our layout
    response = client.post(
        "/accounts/signup/",
        {
            "username": "rey",
            "email": "rey@example.org",
            "password1": "kyber-crystal-42",
            "password2": "kyber-crystal-42",
        },
    )
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="rey").exists()
    home = client.get("/").content.decode()
    assert "Welcome, rey" in home and "Welcome back" not in home and 'action="/accounts/logout/"' in home


def test_a_sign_up_with_a_short_password_says_why_and_creates_nobody():
    response = Client().post(
        "/accounts/signup/", {"username": "finn", "email": "finn@example.org", "password1": "abc", "password2": "abc"}
    )
    assert response.status_code == 200 and "too short" in response.content.decode()
    assert not get_user_model().objects.filter(username="finn").exists()


def test_sign_in_by_username_or_email_and_sign_out_by_post_only():
    user = UserFactory(username="poe", email="poe@example.org")
    user.set_password("black-one-77")
    user.save()
    client = Client()
    assert client.post("/accounts/login/", {"login": "poe@example.org", "password": "black-one-77"}).status_code == 302
    assert "_auth_user_id" in client.session
    client.get("/accounts/logout/")  # a GET shows the confirmation, it signs nobody out
    assert "_auth_user_id" in client.session
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session
    assert client.post("/accounts/login/", {"login": "poe", "password": "black-one-77"}).status_code == 302


def test_failed_sign_ins_are_rate_limited_with_a_429_in_the_layout(settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "3/m/ip,3/5m/key"}
    user = UserFactory(username="kylo")
    user.set_password("right-password-1")
    user.save()
    client = Client()
    statuses = [client.post("/accounts/login/", {"login": "kylo", "password": "wrong"}).status_code for _ in range(4)]
    assert statuses[:3] == [200, 200, 200] and statuses[3] == 429
    refused = client.post("/accounts/login/", {"login": "kylo", "password": "right-password-1"})
    assert refused.status_code == 429 and "Too many failed login attempts" in refused.content.decode()
    assert "<header" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_admin_sign_in_goes_through_the_site_sign_in_and_its_rate_limit(settings):
    response = Client().get("/admin/login/?next=/admin/league/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")
    assert Client().get("/admin/").url.startswith("/admin/login/")
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": "2/m/ip,2/5m/key"}
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    admin.set_password("admin-password-9")
    admin.save()
    client = Client()
    for _ in range(2):
        client.post("/accounts/login/?next=/admin/", {"login": "root", "password": "nope"})
    assert client.post("/accounts/login/?next=/admin/", {"login": "root", "password": "nope"}).status_code == 429


def test_a_signed_in_non_admin_gets_a_403_from_the_admin_and_an_admin_gets_in():
    page = _signed_in(UserFactory(username="member")).get("/admin/login/?next=/admin/")
    assert page.status_code == 403 and "not one" in page.content.decode() and "<header" in page.content.decode()
    admin = _signed_in(UserFactory(username="boss", is_staff=True, is_superuser=True))
    assert admin.get("/admin/login/?next=/admin/").url == "/admin/"
    assert admin.get("/admin/").status_code == 200
    assert admin.get("/admin/login/?next=https://evil.example/").url == "/admin/"


def test_a_password_reset_mails_a_link_that_sets_a_new_password():
    user = UserFactory(username="jyn", email="jyn@example.org")
    client = Client()
    assert client.post("/accounts/password/reset/", {"email": "jyn@example.org"}).status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["jyn@example.org"]
    link = next(word for word in mail.outbox[0].body.split() if "/accounts/password/reset/key/" in word)
    path = link.split("testserver", 1)[-1]
    form = client.get(path, follow=True)
    assert form.status_code == 200
    done = client.post(form.redirect_chain[-1][0], {"password1": "stardust-rogue-1", "password2": "stardust-rogue-1"})
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password("stardust-rogue-1")


def test_the_profile_page_needs_a_sign_in_and_creates_then_renames_the_player():
    assert Client().get("/accounts/profile/").url.startswith("/accounts/login/")
    user = UserFactory(username="bodhi")
    client = _signed_in(user)
    assert "has no player yet" in client.get("/accounts/profile/").content.decode()
    assert client.post("/accounts/profile/", {"display_name": "Bodhi"}).status_code == 302
    assert Player.objects.get(user=user).display_name == "Bodhi"
    client.post("/accounts/profile/", {"display_name": "Bodhi Rook"})
    assert Player.objects.get(user=user).display_name == "Bodhi Rook"
    blank = client.post("/accounts/profile/", {"display_name": "   "})
    assert blank.status_code == 200 and "required" in blank.content.decode()
    assert Player.objects.get(user=user).display_name == "Bodhi Rook"


def test_a_user_claims_a_guest_from_the_organisers_link():
    guest = PlayerFactory(display_name="Cassian")
    user = UserFactory(username="cassian")
    client = _signed_in(user)
    page = client.get(f"/claim/{guest.claim_code}/").content.decode()
    assert "guest player <strong>Cassian</strong>" in page and f'value="{guest.claim_code}"' in page
    response = client.post("/claim/", {"code": guest.claim_code})
    assert response.status_code == 302 and response.url == f"/players/{guest.pk}/"
    guest.refresh_from_db()
    assert guest.user == user
    assert client.get("/me/").url == f"/players/{guest.pk}/"


def test_a_wrong_or_used_claim_code_says_what_is_wrong_and_changes_nothing():
    guest = PlayerFactory(display_name="Saw")
    client = _signed_in(UserFactory(username="saw"))
    wrong = client.post("/claim/", {"code": "not-a-code"})
    assert wrong.status_code == 400 and "No guest player has this claim code" in wrong.content.decode()
    guest.refresh_from_db()
    assert guest.user is None
    taken = PlayerFactory(display_name="Taken", user=UserFactory(username="owner"))
    used = client.post("/claim/", {"code": taken.claim_code})
    assert used.status_code == 400 and "already linked" in used.content.decode()
    assert Client().get(f"/claim/{guest.claim_code}/").url.startswith("/accounts/login/")


def test_the_header_shows_who_is_signed_in_with_their_player_and_a_sign_out_form():
    player = PlayerFactory(display_name="Jyn", user=UserFactory(username="jyn-erso"))
    html = _signed_in(player.user).get("/leagues/").content.decode()
    assert ">jyn-erso</a>" in html and 'href="/me/"' in html
    assert '<form class="inline" method="post" action="/accounts/logout/">' in html
    anonymous = Client().get("/leagues/").content.decode()
    # Both ways in come back to the page they were taken from (a friend on a league's or a game's page).
    assert (
        'href="/accounts/login/?next=/leagues/"' in anonymous and 'href="/accounts/signup/?next=/leagues/"' in anonymous
    )
    home = Client().get("/").content.decode()
    assert 'href="/accounts/login/"' in home and 'href="/accounts/signup/"' in home  # home is where both land anyway
