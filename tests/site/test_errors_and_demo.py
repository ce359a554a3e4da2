"""Error pages in the site layout (never a debug page with DEBUG off), the favicon, and the demo's accounts."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league import permissions
from league.demo import DEMO_ADMIN, DEMO_LEAGUE, DEMO_ORGANISER, DEMO_PASSWORD, DEMO_PLAYER
from league.models import League, Player, Role
from tournaments.demo import load_demo_data

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/seasons/%0A/", "/api/buy-in-policies/s%C2%A9%0A/", "/api/no-such-thing/"])
def test_an_api_address_no_route_matches_is_a_json_404(settings, path):
    # Schemathesis found these answering the site's HTML page where the API documents JSON.
    settings.DEBUG = False
    response = Client().get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["detail"]  # says why, as every API refusal does


def test_a_404_is_the_styled_page_in_the_layout(settings):
    settings.DEBUG = False
    response = Client().get("/no/such/page/")
    html = response.content.decode()
    assert response.status_code == 404 and "Page not found" in html and '<header class="site-header">' in html
    assert "Traceback" not in html and "URLconf" not in html


@pytest.mark.parametrize("path", ["/tables/play/", "/tabletop/open/"])
def test_a_form_only_address_opened_directly_is_the_styled_page_saying_so(settings, path):
    # A person who types or bookmarks a button's address got Django's empty 405 before.
    settings.DEBUG = False
    response = Client().get(path)
    html = response.content.decode()
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert "Not a page to open" in html and "only takes a form" in html and '<header class="site-header">' in html


def test_an_api_405_stays_json(settings):
    from tests.factories import UserFactory

    settings.DEBUG = False
    client = Client()
    client.force_login(UserFactory(username="caller"))
    response = client.get("/api/tabletop/ABCDEF/step/")
    assert response.status_code == 405 and response["Content-Type"] == "application/json"
    assert "GET" in response.json()["detail"]


def test_a_403_is_the_styled_page_with_the_reason(settings):
    from tests.factories import UserFactory

    settings.DEBUG = False
    client = Client()
    client.force_login(UserFactory(username="plain"))
    response = client.get("/admin/login/")
    assert response.status_code == 403 and "Not allowed" in response.content.decode()


def test_a_500_is_the_styled_page_and_no_debug_page(settings, monkeypatch):
    settings.DEBUG = False

    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("league.pages.public_running_events", broken)
    client = Client(raise_request_exception=False)
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 500 and "Something went wrong on our side" in html
    assert '<header class="site-header">' in html and "RuntimeError" not in html and "a bug" not in html


def test_the_favicon_is_served():
    response = Client().get("/favicon.ico")
    assert response.status_code == 301 and response.url.endswith("/static/favicon.svg")
    assert Client().get(response.url).status_code == 200


def test_the_demo_has_one_account_per_role_and_prints_them():
    out = io.StringIO()
    load_demo_data(out)
    printed = out.getvalue()
    users = get_user_model().objects
    organiser, player, admin = (users.get(username=name) for name in (DEMO_ORGANISER, DEMO_PLAYER, DEMO_ADMIN))
    for name in (DEMO_ORGANISER, DEMO_PLAYER, DEMO_ADMIN):
        assert name in printed and users.get(username=name).check_password(DEMO_PASSWORD)
    assert DEMO_PASSWORD in printed
    league = League.objects.get(slug=DEMO_LEAGUE)
    assert not organiser.is_staff and permissions.can_manage_league(organiser, league)
    assert admin.is_staff and permissions.can_manage_league(admin, league)
    assert not player.is_staff and not permissions.can_manage_league(player, league)
    han = Player.objects.get(user=player)
    assert han.display_name == "Han" and han.event_results.count() >= 3
    # What `make run` prints of the two accounts is true of the data (a newcomer compared it with the README).
    seasons = set(han.event_results.values_list("event__season_id", flat=True))
    assert len(seasons) == 2 and "with two seasons of results, a ledger and charts" in printed
    organised = League.objects.filter(memberships__player__user=organiser, memberships__role=Role.ORGANISER)
    assert organised.count() == 3 and "organiser of the three demo leagues (not a site admin)" in printed
    again = io.StringIO()
    load_demo_data(again)
    assert DEMO_PLAYER in again.getvalue() and Player.objects.filter(user=player).count() == 1


def test_the_demos_running_tournament_is_on_the_pages():
    load_demo_data(io.StringIO())
    from league.models import EventKind, EventStatus

    cup = (
        League.objects.get(slug=DEMO_LEAGUE)
        .seasons.get(name="Season 2")
        .events.get(status=EventStatus.RUNNING, kind=EventKind.TOURNAMENT, name="Beskar Cup")
    )
    client = Client()
    assert f'href="/events/{cup.pk}/">{cup.name}</a>' in client.get("/").content.decode()
    assert f'href="/events/{cup.pk}/">{cup.name}</a>' in client.get(f"/leagues/{DEMO_LEAGUE}/").content.decode()
    event = client.get(f"/events/{cup.pk}/").content.decode()
    assert "Final table" in event and "Running</span>" in event
    game = cup.games.exclude(replay_document=None).get()
    assert "Hand 1 of" in client.get(f"/games/{game.pk}/").content.decode()
