"""With Redis as the cache, a signed-in user is read from their copy held there (`config.viewer_cache`: the
user row without the password, the session auth hash, their player and league roles), so a warm page reads
nothing from the database for its viewer. These tests commit for real (a transactional database), as a
deployment does: every change to the user, their player or their memberships shows on the next request, a
reader's copy made before a change is never served after it, and Redis down reads the database."""

import os
from unittest import mock

import factory
import pytest
import redis
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from config import shared_cache, viewer_cache
from league import services
from league.models import Membership, Role, Visibility
from tests.factories import MembershipFactory, PlayerFactory, UserFactory
from tests.site.conftest import another_process

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL); CI runs it"),
]

PASSWORD = "a-long-secret-1"


@pytest.fixture
def world(redis_site_world):
    assert viewer_cache.held()
    return redis_site_world


def _signed_in(user) -> Client:
    user.set_password(PASSWORD)
    user.save()
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def _viewer(client: Client, url: str = "/leagues/"):
    """The request's user, evaluated (as the page saw them)."""
    response = client.get(url)
    assert response.status_code in (200, 302, 403, 404)
    user = response.wsgi_request.user
    return user if user.is_authenticated else None


def _held(user) -> tuple | None:
    return cache.get(viewer_cache._keys(user.pk)[1])


def _urls(world) -> dict[str, str]:
    return {
        "league": f"/leagues/{world.base.league.slug}/",
        "event": f"/events/{world.finished_game.event_id}/",
        "player": f"/players/{world.base.players[0].pk}/",
    }


@pytest.mark.parametrize(("page", "queries"), [("league", 0), ("event", 0), ("player", 1)])
def test_a_warm_signed_in_page_reads_no_database_for_its_viewer(world, django_assert_num_queries, page, queries):
    client = _signed_in(world.base.users["member"])
    url = _urls(world)[page]
    assert client.get(url).status_code == 200  # the viewer copied to Redis, the page cached for them
    another_process()
    assert client.get(url).status_code == 200  # the league's state and the page from Redis
    # The league and event pages: the session, the viewer, the league's state and the page, all from Redis.
    # The player page reads its player's row (and who may see it) in its one query.
    with django_assert_num_queries(queries):
        response = client.get(url)
    assert response.status_code == 200 and response.wsgi_request.user.username == "member"


def test_the_copy_holds_the_viewers_roles_and_player_but_never_the_password(world):
    member = world.base.users["member"]
    client = _signed_in(member)
    user = _viewer(client)
    assert user is not None
    _, held = _held(member)
    assert held["extras"] == {
        "_player_id_cache": member.player.pk,
        "_league_roles_cache": {world.base.league.pk: Role.PLAYER},
        "_join_notice_pending": False,
    }
    assert "password" not in held["fields"]
    stored = get_user_model().objects.get(pk=member.pk).password
    assert stored not in repr(held)
    served = _viewer(client)  # from the copy: the password is left deferred, read only if asked for
    assert "password" in served.get_deferred_fields()
    served.first_name = "Mem"
    served.save()  # a profile edit through the served user writes the fields it holds, never the password
    assert get_user_model().objects.get(pk=member.pk).password == stored
    assert _viewer(client).first_name == "Mem"  # and the save retired the copy
    assert _viewer(client).check_password(PASSWORD)


def test_a_deactivated_user_is_signed_out_on_the_next_request(world):
    member = world.base.users["member"]
    client = _signed_in(member)
    assert _viewer(client) is not None
    assert _viewer(client) is not None  # served from the copy
    member.is_active = False
    member.save()  # as the admin does; the copy's token is retired once this commits
    assert _viewer(client) is None
    assert _viewer(client) is None


def test_a_password_changed_elsewhere_signs_out_every_other_session_on_the_next_request(world):
    member = world.base.users["member"]
    client = _signed_in(member)
    assert _viewer(client) is not None and _viewer(client) is not None  # the second from the copy
    member.set_password("another-long-secret-2")
    member.save()
    assert _viewer(client) is None
    again = Client()
    assert again.login(username="member", password="another-long-secret-2")
    assert _viewer(again) is not None and _viewer(again) is not None


def test_changing_your_password_keeps_this_session_and_ends_the_others(world):
    member = world.base.users["member"]
    client = _signed_in(member)
    other = Client()
    assert other.login(username="member", password=PASSWORD)
    assert _viewer(client) and _viewer(other) and _viewer(other)  # both copies made and served
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": PASSWORD, "password1": "another-long-secret-2", "password2": "another-long-secret-2"},
    )
    assert response.status_code == 302
    assert _viewer(other) is None  # its copy, made for the old password, is retired
    assert _viewer(client) is not None and _viewer(client) is not None


def test_a_session_whose_hash_is_not_the_copys_is_decided_by_django(world):
    """A copy made for one password never vouches for a session made under another (a stolen old cookie)."""
    member = world.base.users["member"]
    client = _signed_in(member)
    assert _viewer(client) is not None
    session = client.session
    session["_auth_user_hash"] = "0" * 64
    session.save()
    assert _viewer(client) is None


def test_a_revoked_role_takes_effect_on_the_next_request(world):
    base = world.base
    organiser = base.users["organiser"]
    manage = f"/manage/leagues/{base.league.slug}/"
    client = _signed_in(organiser)
    assert client.get(manage).status_code == 200
    assert client.get(manage).status_code == 200  # from the copy
    membership = Membership.objects.get(league=base.league, player__user=organiser)
    MembershipFactory(league=base.league, player=PlayerFactory(display_name="Heir"), role=Role.ORGANISER)
    services.membership_update(actor=base.users["admin"], membership=membership, role=Role.PLAYER)
    assert client.get(manage).status_code in (403, 404)
    assert _viewer(client).is_authenticated
    assert _viewer(client)._league_roles_cache == {base.league.pk: Role.PLAYER}


def test_a_granted_role_and_a_removed_membership_take_effect_on_the_next_request(world, settings):
    base = world.base
    member = base.users["member"]
    client = _signed_in(member)
    manage = f"/manage/leagues/{base.league.slug}/"
    assert client.get(manage).status_code in (403, 404)
    membership = Membership.objects.get(league=base.league, player__user=member)
    services.membership_update(actor=base.users["admin"], membership=membership, role=Role.ORGANISER)
    assert client.get(manage).status_code == 200
    services.league_update(actor=base.users["organiser"], league=base.league, visibility=Visibility.MEMBERS)
    url = f"/leagues/{base.league.slug}/"
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200
    services.membership_remove(actor=base.users["admin"], membership=membership)
    assert client.get(url).status_code == 404  # no longer a member of a members-only league


def test_claiming_a_guest_player_shows_on_the_next_request(world):
    base = world.base
    newcomer = UserFactory(username="newcomer")
    client = _signed_in(newcomer)
    assert _viewer(client)._player_id_cache is None
    assert _viewer(client)._player_id_cache is None  # from the copy
    guest = base.players[0]
    services.player_claim(user=newcomer, player=guest, claim_code=guest.claim_code)
    viewer = _viewer(client)
    assert viewer._player_id_cache == guest.pk
    assert viewer._league_roles_cache == {base.league.pk: Role.PLAYER}


def test_a_player_moved_to_another_user_leaves_the_first(world):
    base = world.base
    member, outsider = base.users["member"], base.users["outsider"]
    client = _signed_in(member)
    player = member.player
    assert _viewer(client)._player_id_cache == player.pk
    outsider.player.delete()
    player.user = outsider  # the admin's way
    player.save()
    assert _viewer(client)._player_id_cache is None
    assert _viewer(_signed_in(outsider))._player_id_cache == player.pk


def test_a_copy_read_before_a_change_is_never_served_after_it(world):
    member = world.base.users["member"]
    client = _signed_in(member)
    assert _viewer(client) is not None
    stale = _held(member)  # what a slow reader read before the change, under the token it read first
    member.is_active = False
    member.save()
    cache.set(viewer_cache._keys(member.pk)[1], stale, viewer_cache.TTL)  # its fill lands after the change
    assert _viewer(client) is None


def test_every_copy_expires_so_a_lost_retirement_heals(world):
    member = world.base.users["member"]
    client = _signed_in(member)
    _viewer(client)
    key = cache.make_key(viewer_cache._keys(member.pk)[1])
    assert 0 < shared_cache.client().ttl(key) <= viewer_cache.TTL


def test_with_redis_down_the_user_is_read_from_the_database(world):
    member = world.base.users["member"]
    client = _signed_in(member)
    assert _viewer(client) is not None
    unreachable = redis.ConnectionError("Redis is down")
    with mock.patch.object(viewer_cache, "cache") as down, mock.patch.object(shared_cache, "client") as client_down:
        down.get_many.side_effect = down.set.side_effect = client_down.side_effect = unreachable
        assert _viewer(client).username == "member"
        member.is_active = False
        member.save()  # its retirement fails (logged); the copy can't be read either
        assert _viewer(client) is None


def test_inside_a_transaction_the_user_is_read_from_the_database(world):
    from django.db import transaction

    member = world.base.users["member"]
    client = _signed_in(member)
    assert _viewer(client) is not None
    with transaction.atomic():
        get_user_model().objects.filter(pk=member.pk).update(is_active=False)  # no signal: only the database knows
        assert _viewer(client) is None
        transaction.set_rollback(True)


def test_a_wrong_hint_of_whose_session_it_is_changes_nothing(world):
    """The process remembers whose each session is, to read the session and the user in one go; a hint that
    names someone else (or a session since signed out) is checked against the session read with it."""
    member, outsider = world.base.users["member"], world.base.users["outsider"]
    client = _signed_in(member)
    assert _viewer(client).username == "member"
    key = client.session.session_key
    assert viewer_cache._session_users[key] == member.pk
    _viewer(_signed_in(outsider))  # the outsider's copy is in Redis, ready to be read with the session
    viewer_cache._session_users[key] = outsider.pk
    assert _viewer(client).username == "member"
    assert _viewer(client).username == "member"
    assert client.post("/accounts/logout/").status_code == 302
    viewer_cache._session_users[key] = member.pk
    anonymous = Client()
    anonymous.cookies["sessionid"] = key  # the signed-out session's old cookie
    assert _viewer(anonymous) is None


@pytest.mark.parametrize("page", ["league", "event"])
def test_a_warm_signed_in_page_makes_one_redis_round_trip_as_an_anonymous_one_does(world, page):
    """The session, the viewer's token and copy, and the league's state come in one MGET."""
    url = _urls(world)[page]
    member = _signed_in(world.base.users["member"])
    for client in (Client(), member, Client(), member):
        assert client.get(url).status_code == 200
    sent = []
    real = redis.Redis.execute_command

    def counted(self, *args, **options):
        sent.append(args[0])
        return real(self, *args, **options)

    with mock.patch.object(redis.Redis, "execute_command", counted):
        for client in (Client(), member):
            sent.clear()
            response = client.get(url)
            assert response.status_code == 200
            assert sent == ["GET"] if client is not member else sent == ["MGET"]
    assert response.wsgi_request.user.username == "member"


def test_a_deleted_league_leaves_its_members_roles_at_once(world, django_assert_max_num_queries):
    base = world.base
    organiser = base.users["other_organiser"]
    league = base.other_league  # no seasons: a league the admin may delete
    MembershipFactory.create_batch(30, league=league, player=factory.SubFactory(PlayerFactory))
    client = _signed_in(organiser)
    assert _viewer(client)._league_roles_cache == {league.pk: Role.ORGANISER}
    with django_assert_max_num_queries(20):  # not one lookup per member: the cascade's own reads and one more
        league.delete()  # the admin's way
    assert _viewer(client)._league_roles_cache == {}
