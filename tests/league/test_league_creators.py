"""Item 4 of the hardening issue: who may create a league is a site setting, LEAGUE_CREATORS ("anyone" signed
in, or "staff" only), enforced by the API, the service and the predicate the pages ask."""

import pytest
from django.test import Client

from config.errors import ForbiddenError
from league import permissions
from league.models import League
from league.services import league_create
from tests.league.conftest import client_for


def create(user, slug="new-league"):
    return client_for(user).post("/api/leagues/", {"name": "New league", "slug": slug}, format="json")


def test_4_with_league_creators_staff_a_signed_in_user_cannot_create_a_league(world, settings):
    settings.LEAGUE_CREATORS = "staff"
    outsider = world.users["outsider"]
    assert permissions.can_create_league(outsider) is False
    response = create(outsider)
    assert response.status_code == 403
    assert "site admins" in response.json()["detail"]
    with pytest.raises(ForbiddenError):
        league_create(actor=outsider, name="Through the service")
    assert not League.objects.filter(name__in=["New league", "Through the service"]).exists()
    assert permissions.can_create_league(world.users["admin"]) is True
    assert create(world.users["admin"]).status_code == 201


def test_4_with_league_creators_anyone_a_signed_in_user_creates_and_organises_a_league(world, settings):
    settings.LEAGUE_CREATORS = "anyone"
    outsider = world.users["outsider"]
    assert permissions.can_create_league(outsider) is True
    response = create(outsider)
    assert response.status_code == 201
    league = League.objects.get(slug="new-league")
    assert permissions.can_manage_league(outsider, league)


@pytest.mark.parametrize("creators", ["anyone", "staff"])
def test_4_anonymous_users_never_create_leagues(world, settings, creators):
    settings.LEAGUE_CREATORS = creators
    assert permissions.can_create_league(None) is False
    assert create(None).status_code == 401
    assert not League.objects.filter(slug="new-league").exists()


def test_the_creator_manages_the_new_league_at_once_on_the_same_user_object(world):
    """The roles read earlier on a user object (cached for the request) gain the league it has just created,
    so the same request (the demo loader, a page that creates then opens a table) may manage it."""
    outsider = world.users["outsider"]
    assert not permissions.can_manage_league(outsider, world.league)  # reads and caches the roles
    league = league_create(actor=outsider, name="Fresh league")
    assert permissions.can_manage_league(outsider, league)


@pytest.mark.parametrize("creators", ["anyone", "staff"])
def test_the_pages_tell_a_signed_in_user_how_to_get_a_league_of_their_own(world, settings, creators):
    """A newcomer looking for their own league: with "anyone" the Leagues page links the form; with "staff" the
    Leagues page, the organiser page and the refused form each say whom to ask, never a bare refusal."""
    settings.LEAGUE_CREATORS = creators
    browser = Client()
    browser.force_login(world.users["outsider"])
    leagues = browser.get("/leagues/").content.decode()
    dashboard = browser.get("/manage/").content.decode()
    form = browser.get("/manage/leagues/new/")
    ask = "only its admins start leagues: ask one to start yours and make you its organiser"
    if creators == "anyone":
        assert '<p id="own-league">A league of your own? <a href="/manage/leagues/new/">Start one</a>' in leagues
        assert ask not in leagues and ask not in dashboard and form.status_code == 200
    else:
        assert ask in leagues and 'href="/manage/leagues/new/"' not in leagues
        assert ask in dashboard and "New league" not in dashboard
        assert form.status_code == 403 and "ask one to start yours and make you its organiser" in form.content.decode()
    assert 'id="own-league"' not in Client().get("/leagues/").content.decode()  # signed out: sign up first
