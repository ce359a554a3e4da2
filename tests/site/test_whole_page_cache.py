"""The league, player and event pages are cached whole (`league.page_cache.serve_page`), per state of the data
they show and kind of viewer: every viewer still gets their own CSRF token, name, highlighted row, organiser
controls and "My tables", and a members-only league's pages reach its members only, cached or not."""

import re
import time
from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import connection
from django.http import HttpResponse
from django.test import Client, RequestFactory, TestCase

from league import page_cache, page_stamps, services
from league.models import BuyInPolicy, Visibility
from tests.factories import EventFactory, PlayerFactory, SeasonFactory, UserFactory
from tests.site.conftest import build_site_world

pytestmark = pytest.mark.django_db

HX_TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')


def _get(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def _signed_in(user, *, enforce_csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=enforce_csrf)
    client.force_login(user)
    return client


def _standings_row(html: str, name: str) -> str:
    table = html.split('id="standings-table"', 1)[1].split("</table>", 1)[0]
    return next(row for row in table.split("<tr") if f">{name}</a>" in row)


def test_two_signed_in_users_get_their_own_name_token_and_row_from_warm_pages(site_world):
    world = site_world.base
    han, lando = world.players[:2]
    first, second = UserFactory(username="first-pilot"), UserFactory(username="second-pilot")
    han.user, lando.user = first, second
    han.save(update_fields=["user"])
    lando.save(update_fields=["user"])
    url = f"/leagues/{world.league.slug}/?season={world.season.pk}"
    clients = {"first": _signed_in(first, enforce_csrf=True), "second": _signed_in(second, enforce_csrf=True)}
    for _ in range(2):  # rendered, then from the cache
        pages = {name: _get(client, url) for name, client in clients.items()}
        assert "first-pilot" in pages["first"] and "second-pilot" not in pages["first"]
        assert "second-pilot" in pages["second"] and "first-pilot" not in pages["second"]
        assert "aria-current" in _standings_row(pages["first"], "Han")
        assert "aria-current" not in _standings_row(pages["first"], "Lando")
        assert "aria-current" in _standings_row(pages["second"], "Lando")
        assert "aria-current" not in _standings_row(pages["second"], "Han")
        tokens = {name: HX_TOKEN.search(page).group(1) for name, page in pages.items()}
        assert tokens["first"] != tokens["second"]
        assert "page-cache:" not in pages["first"] + pages["second"]
    # Each page's token is its viewer's own: the other's is refused, their own signs them out.
    refused = clients["first"].post("/accounts/logout/", {"csrfmiddlewaretoken": tokens["second"]})
    assert refused.status_code == 403
    signed_out = clients["first"].post("/accounts/logout/", {"csrfmiddlewaretoken": tokens["first"]})
    assert signed_out.status_code == 302


def test_anonymous_visitors_share_a_cached_page_but_never_a_csrf_token(site_world, django_assert_num_queries, settings):
    settings.PAGE_STAMP_MAX_AGE = 0
    url = f"/events/{site_world.finished_game.event_id}/"
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    page = _get(first, url)
    with django_assert_num_queries(1):  # the event's league: who may see it, its data version
        cached = _get(second, url)
    tokens = HX_TOKEN.search(page).group(1), HX_TOKEN.search(cached).group(1)
    assert tokens[0] != tokens[1]
    assert HX_TOKEN.sub("", page) == HX_TOKEN.sub("", cached)
    login = {"login": "nobody", "password": "wrong"}
    assert first.post("/accounts/login/", {**login, "csrfmiddlewaretoken": tokens[1]}).status_code == 403
    assert second.post("/accounts/login/", {**login, "csrfmiddlewaretoken": tokens[1]}).status_code != 403


def test_an_organiser_sees_the_controls_and_an_anonymous_visitor_not_both_cached(site_world):
    world = site_world.base
    pages = {
        "league": (f"/leagues/{world.league.slug}/", 'data-action="edit-league"'),
        "event": (f"/events/{site_world.finished_game.event_id}/", 'data-action="record-result"'),
    }
    organiser, anonymous = _signed_in(world.users["organiser"]), Client()
    for _ in range(2):
        for url, control in pages.values():
            assert control in _get(organiser, url)
            assert control not in _get(anonymous, url)
            assert control not in _get(_signed_in(world.users["member"]), url)


def test_a_guests_claim_code_shows_to_who_may_edit_them_only_cached_or_not(site_world):
    world = site_world.base
    guest = world.players[0]  # entered without a user: a guest
    url = f"/players/{guest.pk}/"
    organiser, member, anonymous = _signed_in(world.users["organiser"]), _signed_in(world.users["member"]), Client()
    for _ in range(2):
        assert guest.claim_code in _get(organiser, url)
        assert guest.claim_code not in _get(member, url)
        assert guest.claim_code not in _get(anonymous, url)


@pytest.mark.parametrize("page", ["league", "event", "player"])
def test_a_members_only_leagues_pages_reach_its_members_only_cached_or_not(page):
    site = build_site_world()
    world = site.base
    world.league.visibility = Visibility.MEMBERS
    world.league.save(update_fields=["visibility"])
    url = {
        "league": f"/leagues/{world.league.slug}/",
        "event": f"/events/{site.finished_game.event_id}/",
        "player": f"/players/{world.players[0].pk}/",  # Han plays in this league only
    }[page]
    member = _signed_in(world.users["member"])
    for _ in range(2):  # rendered for the member, then cached: still closed to the others
        assert member.get(url).status_code == 200
        assert Client().get(url).status_code == 404
        assert _signed_in(world.users["outsider"]).get(url).status_code == 404
        assert _signed_in(world.users["admin"]).get(url).status_code == 200


def test_my_tables_show_on_my_own_player_page_only_and_afresh(site_world):
    world = site_world.base
    me = world.users["member"]
    url = f"/players/{me.player.pk}/"
    mine, anonymous = _signed_in(me), Client()
    for _ in range(2):
        own = _get(mine, url)
        assert 'id="my-tables"' in own and "page-cache:" not in own
        assert 'id="my-tables"' not in _get(anonymous, url)
        assert 'id="my-tables"' not in _get(_signed_in(world.users["organiser"]), url)


def test_a_page_with_messages_to_show_is_rendered_for_its_viewer_alone(site_world):
    url = f"/leagues/{site_world.base.league.slug}/"
    _get(Client(), url)  # cached
    told = Client()
    storage = CookieStorage(RequestFactory().get("/"))
    told.cookies["messages"] = storage._encode([Message(constants.SUCCESS, "The night is saved.")])
    assert "The night is saved." in _get(told, url)
    assert "The night is saved." not in _get(Client(), url)
    assert "The night is saved." not in _get(told, url)  # shown once


def test_a_page_holding_a_real_csrf_token_is_never_stored():
    request = RequestFactory().get("/somewhere/")
    request.user = AnonymousUser()
    renders = []

    def render(csrf_token) -> str:
        renders.append(csrf_token)
        return '<input type="hidden" name="csrfmiddlewaretoken" value="a-real-token">'

    for _ in range(2):
        response = page_cache.serve_page(request, name="test", stamps=["x"], parts=[1], render=render)
        assert isinstance(response, HttpResponse)
    assert renders == [page_cache.CSRF_SLOT, page_cache.CSRF_SLOT]  # rendered both times: never cached


def test_the_page_stamps_read_the_models_own_tables():
    assert {name: model._meta.db_table for name, model in page_stamps.TABLES.items()} == {
        name: name for name in page_stamps.TABLES
    }


def test_a_site_admin_editing_a_buy_in_policy_changes_the_league_page(site_world):
    world = site_world.base
    policy = BuyInPolicy.objects.create(name="House", buy_in=450)
    world.league.buy_in_policy = policy
    world.league.save(update_fields=["buy_in_policy"])
    url = f"/leagues/{world.league.slug}/"
    assert "450 credits" in _get(Client(), url)
    admin = _signed_in(world.users["admin"])
    fields = {"name": "House", "buy_in": 600, "max_rebuys": 0, "rebuy_amount": 0, "addon_amount": 0}
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = admin.post(f"/admin/league/buyinpolicy/{policy.pk}/change/", fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert "600 credits" in _get(Client(), url)


def test_a_player_in_no_league_is_seen_by_whoever_entered_them_only(db):
    author = UserFactory(username="author")
    guest = PlayerFactory(display_name="Loose guest", created_by=author)
    SeasonFactory()  # a public league the guest is not in
    EventFactory()
    url = f"/players/{guest.pk}/"
    for _ in range(2):
        assert _signed_in(author).get(url).status_code == 200
        assert Client().get(url).status_code == 404


PAGE_URLS = {
    "league": lambda site: f"/leagues/{site.base.league.slug}/",
    "event": lambda site: f"/events/{site.finished_game.event_id}/",
    "player": lambda site: f"/players/{site.base.players[0].pk}/",
}


@pytest.mark.parametrize("page", list(PAGE_URLS))
def test_anonymous_visitors_in_a_burst_cost_no_query_and_signed_in_users_one(
    site_world, settings, django_assert_num_queries, page
):
    settings.PAGE_STAMP_MAX_AGE = 60
    url = PAGE_URLS[page](site_world)
    _get(Client(), url)
    with django_assert_num_queries(0):  # the league's state, read less than PAGE_STAMP_MAX_AGE ago
        _get(Client(), url)
    member = _signed_in(site_world.base.users["member"])
    _get(member, url)
    session = 1 if settings.SESSION_ENGINE.endswith(".db") else 0  # with Redis, read from the cache
    # (the session,) the user, their player and roles, then the league's state; the player page reads their
    # player and roles in the query of the page's player and leagues
    # (The embedded default, SQLite, has no arrays: there the player page's first read takes the ORM's four
    # queries, `page_stamps._player_portable`, where PostgreSQL takes one.)
    portable = 3 if page == "player" and connection.vendor != "postgresql" else 0
    with django_assert_num_queries(session + (2 if page == "player" else 3) + portable):
        _get(member, url)


@pytest.mark.parametrize("page", list(PAGE_URLS))
def test_a_write_shows_to_anonymous_visitors_at_once_however_long_they_may_be_remembered(site_world, settings, page):
    settings.PAGE_STAMP_MAX_AGE = 60
    world = site_world.base
    han = world.players[0]
    url = PAGE_URLS[page](site_world)
    assert "Han the Bold" not in _get(Client(), url)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.player_update(actor=world.users["admin"], player=han, display_name="Han the Bold")
    assert "Han the Bold" in _get(Client(), url)


def test_a_league_made_members_only_closes_to_anonymous_visitors_within_the_max_age(site_world, settings):
    settings.PAGE_STAMP_MAX_AGE = 60
    world = site_world.base
    url = f"/leagues/{world.league.slug}/"
    _get(Client(), url)
    world.league.visibility = Visibility.MEMBERS
    world.league.save(update_fields=["visibility"])  # no service: nothing tells this process
    assert Client().get(url).status_code == 200  # remembered for PAGE_STAMP_MAX_AGE at most
    later = time.monotonic() + 61
    with mock.patch("league.page_stamps.time.monotonic", return_value=later):
        assert Client().get(url).status_code == 404
