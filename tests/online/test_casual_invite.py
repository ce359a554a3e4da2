"""A casual game's share link is its key (QA walk: a stranger joined by guessing the table's number). Each casual
table has an unguessable invite token; seeing or joining it before it starts needs the token, on the page and in
the API alike, unless one is its host or seated; a wrong or missing token answers exactly as a missing table; the
token is shown to the host and the seated players only; a signed-out friend with the link is told whose game it is
and signs in or up back to it; existing tables got tokens in a migration. (The token kept out of the logs:
tests/config/test_log_redaction.py.)"""

import importlib
import re

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from config.errors import ConflictError
from games.online import services
from games.online.models import OnlineSeat, OnlineTable, TableStatus
from games.online.permissions import NO_SUCH_TABLE, NoSuchTable
from tests.factories import UserFactory
from tests.league.conftest import client_for

pytestmark = pytest.mark.django_db


def _seats() -> list[tuple[int, int | None]]:
    return sorted(OnlineSeat.objects.values_list("table_id", "user_id"))


@pytest.fixture
def rey(world):
    return UserFactory(username="rey")


@pytest.fixture
def game(rey, scheduled) -> OnlineTable:
    return services.casual_open(actor=rey, seats=4)


def test_each_casual_game_gets_its_own_unguessable_token(rey, scheduled):
    first, second = services.casual_open(actor=rey), services.casual_open(actor=rey)
    assert len(first.invite) >= 22 and len(second.invite) >= 22 and first.invite != second.invite


def test_the_api_refuses_a_join_without_the_right_token_as_if_the_table_were_missing(game):
    stranger = UserFactory(username="stranger")
    api = client_for(stranger)
    before = _seats()
    missing = api.post("/api/tables/999999/join/", {}, format="json")
    assert missing.status_code == 404
    for body in ({}, {"invite": "guessed"}, {"invite": game.invite[:-1]}, {"invite": game.invite.upper()}):
        answer = api.post(f"/api/tables/{game.pk}/join/", body, format="json")
        assert answer.status_code == 404, body
        assert answer.json() == missing.json() and answer.json()["detail"] == NO_SUCH_TABLE  # tells nothing
        assert api.get(f"/api/tables/{game.pk}/").json() == missing.json()
    assert api.get(f"/api/tables/{game.pk}/?invite=wrong").status_code == 404
    assert _seats() == before  # a refused join writes nothing
    seen = api.get(f"/api/tables/{game.pk}/?invite={game.invite}")
    assert seen.status_code == 200
    # The friend with the link sees whose game it is, but is not handed the token back.
    assert seen.json()["table"]["host"] == "rey" and seen.json()["table"]["invite"] is None
    joined = api.post(f"/api/tables/{game.pk}/join/", {"invite": game.invite}, format="json")
    assert joined.status_code == 200, joined.content
    assert joined.json()["you"]["seat"] == 1 and joined.json()["table"]["invite"] == game.invite  # seated: shown


def test_the_service_itself_needs_the_token_except_from_the_host(game, rey):
    stranger = UserFactory(username="stranger")
    with pytest.raises(NoSuchTable):
        services.seat_take(actor=stranger, table=game)
    with pytest.raises(NoSuchTable):
        services.seat_take(actor=stranger, table=game, invite="nope")
    services.seat_leave(actor=rey, table=game)
    services.seat_take(actor=rey, table=game)  # the host sits again without the link
    assert set(game.seats.values_list("user__username", flat=True)) == {"rey"}


def test_the_host_and_seated_players_get_the_share_link_others_never_do(game, rey, client):
    host_state = client_for(rey).get(f"/api/tables/{game.pk}/").json()
    link = host_state["table"]["invite_link"]
    assert link == f"http://testserver/tables/{game.pk}/?invite={game.invite}"
    assert host_state["table"]["host"] == "rey"  # "rey's game": the API names its host too
    client.force_login(rey)
    page = client.get(reverse("online-table", args=[game.pk])).content.decode()
    assert f'value="{link}"' in page and "data-share-link" in page
    # A site admin may watch any casual game, but is not its host nor seated: no token for them.
    admin = UserFactory(username="admin-watcher", is_staff=True)
    admin_state = client_for(admin).get(f"/api/tables/{game.pk}/").json()
    assert admin_state["table"]["invite"] is None and admin_state["table"]["invite_link"] is None
    watcher = Client()
    watcher.force_login(admin)
    assert game.invite not in watcher.get(reverse("online-table", args=[game.pk])).content.decode()
    # Once it starts, the link no longer lets anyone in: it is shown to nobody.
    services.table_start(actor=rey, table=game)
    assert client_for(rey).get(f"/api/tables/{game.pk}/").json()["table"]["invite"] is None


def test_the_page_takes_the_link_once_keeps_it_in_the_session_and_joins_with_it(game):
    friend = UserFactory(username="finn")
    browser = Client()
    browser.force_login(friend)
    table_url = reverse("online-table", args=[game.pk])
    assert browser.get(table_url).status_code == 404  # the number alone shows nothing
    assert browser.get(f"{table_url}?invite=wrong").status_code == 404
    assert browser.post(reverse("online-do", args=[game.pk, "join"])).status_code == 404
    opened = browser.get(f"{table_url}?invite={game.invite}")
    assert opened.status_code == 302 and opened["Location"] == table_url  # the token leaves the address bar
    page = browser.get(table_url)
    assert page.status_code == 200 and game.invite not in page.content.decode()  # not seated: not shown
    assert browser.get(reverse("online-fragment", args=[game.pk])).status_code == 200
    joined = browser.post(reverse("online-do", args=[game.pk, "join"]))
    assert joined.status_code == 302 and game.seats.filter(user=friend).exists()
    assert game.invite in browser.get(table_url).content.decode()  # seated now: the link to pass on


def test_a_signed_out_friend_with_the_link_is_told_whose_game_it_is_and_signs_in_back_to_it(game):
    friend = UserFactory(username="poe")
    friend.set_password("black-one-77")
    friend.save()
    browser = Client()
    table_url = reverse("online-table", args=[game.pk])
    assert browser.get(table_url).status_code == 404
    wrong = browser.get(f"{table_url}?invite=wrong")
    assert wrong.status_code == 404 and "rey" not in wrong.content.decode()
    page = browser.get(f"{table_url}?invite={game.invite}")
    text = page.content.decode()
    assert page.status_code == 200 and "rey's game" in text and "1 of 4 seats taken" in text
    sign_in = f"{reverse('account_login')}?next=%2Ftables%2F{game.pk}%2F"
    assert f'href="{sign_in}"' in text and f'href="{reverse("account_signup")}?next=%2Ftables%2F{game.pk}%2F"' in text
    assert game.invite not in text  # the way back needs no token in any address: the session keeps it
    signed_in = browser.post(sign_in, {"login": "poe", "password": "black-one-77"})
    assert signed_in.status_code == 302 and signed_in["Location"] == table_url
    assert browser.get(table_url).status_code == 200
    assert browser.post(reverse("online-do", args=[game.pk, "join"])).status_code == 302
    assert game.seats.filter(user=friend).exists()


def test_the_headers_sign_up_on_the_invite_page_also_comes_back_to_the_table(game):
    """A friend who taps the header's Sign up (not the page's own button) still lands at the table, seat free."""
    browser = Client()
    table_url = reverse("online-table", args=[game.pk])
    page = browser.get(f"{table_url}?invite={game.invite}").content.decode()
    header = re.search(r'<nav class="user-nav".*?</nav>', page, re.S).group(0)
    sign_up = re.search(r'href="([^"]*/accounts/signup/[^"]*)"', header).group(1)
    assert sign_up == f"{reverse('account_signup')}?next=/tables/{game.pk}/" and game.invite not in sign_up
    data = {
        "username": "chewie",
        "email": "chewie@example.org",
        "password1": "wookiee-life-42",
        "password2": "wookiee-life-42",
    }
    signed_up = browser.post(sign_up, data)
    assert signed_up.status_code == 302 and signed_up["Location"] == table_url
    assert browser.get(table_url).status_code == 200  # the session kept the link
    assert browser.post(reverse("online-do", args=[game.pk, "join"])).status_code == 302
    assert game.seats.filter(user__username="chewie").exists()


def test_a_friend_signed_in_too_late_is_told_the_game_started_and_how_to_play_not_no_such_table(game, rey):
    """The link was right but the host started without them: a page that says so and offers Play now, not a 404;
    a wrong token still answers as a missing table, and the late friend gets no seat and sees no cards."""
    late = UserFactory(username="bb8")
    browser = Client()
    browser.force_login(late)
    table_url = reverse("online-table", args=[game.pk])
    services.table_start(actor=rey, table=game)
    page = browser.get(f"{table_url}?invite={game.invite}")
    text = page.content.decode()
    assert page.status_code == 200 and "rey's game" in text and "has started: it no longer takes seats" in text
    assert "Ask rey for the link of their next game" in text and "data-play-now" in text
    assert f'href="{reverse("online-lobby")}#play-now"' in text and "sign in to see it" not in text
    assert 'class="mine"' not in text and "data-act-form" not in text  # no table, no cards
    assert browser.get(f"{table_url}?invite=wrong").status_code == 404
    assert not game.seats.filter(user=late).exists()
    again = browser.get(table_url).content.decode()  # the session kept the right link: the same page, not a 404
    assert "has started: it no longer takes seats" in again


def test_a_finished_game_says_it_is_over_to_a_seated_player_and_closing_twice_says_closed(game, rey):
    friend = UserFactory(username="rose")
    services.seat_take(actor=friend, table=game, invite=game.invite)
    services.table_close(actor=rey, table=game)
    game.refresh_from_db()
    assert game.status == TableStatus.FINISHED
    for who in (friend, rey):
        with pytest.raises(ConflictError, match="The game is over") as refused:
            services.seat_take(actor=who, table=game, invite=game.invite)
        assert "already have a seat" not in str(refused.value)
    with pytest.raises(ConflictError, match="already closed") as again:
        services.table_close(actor=rey, table=game)
    assert "Only a running or paused" not in str(again.value)


def test_the_migration_gives_every_existing_casual_game_a_token_and_league_tables_none(game, open_table):
    league_table = open_table(seats=2)
    OnlineTable.objects.filter(pk=game.pk).update(invite="")
    migration = importlib.import_module("games.migrations.0018_casual_table_invite")
    migration.give_tokens(apps, None)
    game.refresh_from_db()
    league_table.refresh_from_db()
    assert len(game.invite) >= 22 and league_table.invite == ""


@pytest.mark.parametrize("seats", ["4.0", " 4 ", "4.5", "+4", "4e0", ""])
def test_the_casual_api_reads_seats_as_digits_only(rey, scheduled, seats):
    before = OnlineTable.objects.count()
    answer = client_for(rey).post("/api/tables/casual/", {"seats": seats}, format="json")
    assert answer.status_code == 400, answer.content
    assert "seats" in answer.json()["extra"]["fields"] and answer.json()["code"] == "invalid"
    assert OnlineTable.objects.count() == before


def test_the_casual_api_still_takes_seats_as_a_number_or_a_string_of_digits(rey, scheduled):
    for seats in (3, "3"):
        answer = client_for(rey).post("/api/tables/casual/", {"seats": seats}, format="json")
        assert answer.status_code == 201 and answer.json()["table"]["seat_count"] == 3
