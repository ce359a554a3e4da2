"""Issue 23: players join leagues on their own: the join setting, the invite code (rotated, revoked), requests
approved or declined, e-mail invites that join on sign-up, and refusals that write nothing."""

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client, TestCase

from config.errors import ApplicationError, ConflictError
from league.models import AuditEntry, EmailInvite, JoinMode, JoinRequest, League, Membership, Player, Visibility
from league.services import joining
from tests.factories import MembershipFactory, PlayerFactory, UserFactory


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()
    yield
    cache.clear()


def snapshot():
    return (
        list(Membership.objects.values_list("pk", "league_id", "player_id", "role")),
        list(Player.objects.values_list("pk", "user_id")),
        list(JoinRequest.objects.values_list("pk", "status")),
        AuditEntry.objects.count(),
    )


def code_league(world, visibility=Visibility.PUBLIC):
    League.objects.filter(pk=world.league.pk).update(visibility=visibility)
    world.league.refresh_from_db()
    return joining.join_settings_update(actor=world.users["organiser"], league=world.league, join_mode=JoinMode.CODE)


def test_existing_leagues_are_invite_only_and_a_code_league_gets_a_code(world):
    assert world.league.join_mode == JoinMode.INVITE and world.league.join_code == ""
    league = code_league(world)
    assert league.join_mode == JoinMode.CODE and len(league.join_code) >= 16
    assert AuditEntry.objects.filter(action="league.join_settings", league=league).exists()


def test_join_settings_refuse_an_unknown_mode_and_write_nothing(world):
    before = snapshot()
    with pytest.raises(ApplicationError, match="join_mode"):
        joining.join_settings_update(actor=world.users["organiser"], league=world.league, join_mode="open")
    assert snapshot() == before
    assert League.objects.get(pk=world.league.pk).join_mode == JoinMode.INVITE


def test_a_new_user_joins_by_code_with_a_new_player_and_twice_is_harmless(world):
    league = code_league(world)
    newcomer = UserFactory(username="newcomer")
    membership = joining.join_with_code(user=newcomer, slug=league.slug, code=league.join_code)
    assert membership.player.user == newcomer and membership.role == "player"
    version = League.objects.get(pk=league.pk).data_version
    again = joining.join_with_code(user=newcomer, slug=league.slug, code=league.join_code)
    assert again.pk == membership.pk
    assert League.objects.get(pk=league.pk).data_version == version  # the second time writes nothing
    assert Membership.objects.filter(league=league, player__user=newcomer).count() == 1
    assert Player.objects.filter(user=newcomer).count() == 1
    assert AuditEntry.objects.filter(action="membership.join", league=league).count() == 1


def test_a_user_with_a_player_joins_with_that_player(world):
    league = code_league(world)
    outsider = world.users["outsider"]
    own = Player.objects.get(user=outsider)
    membership = joining.join_with_code(user=outsider, slug=league.slug, code=league.join_code)
    assert membership.player == own


@pytest.mark.parametrize("case", ["wrong", "rotated", "revoked", "invite_only", "missing"])
def test_a_wrong_or_old_code_looks_like_a_missing_league_and_writes_nothing(world, case):
    league = code_league(world, Visibility.MEMBERS)
    code, slug = league.join_code, league.slug
    if case == "wrong":
        code = code[:-1] + ("A" if code[-1] != "A" else "B")
    elif case == "rotated":
        joining.join_code_rotate(actor=world.users["organiser"], league=league)
    elif case == "revoked":
        joining.join_code_revoke(actor=world.users["organiser"], league=league)
    elif case == "invite_only":
        joining.join_settings_update(actor=world.users["organiser"], league=league, join_mode=JoinMode.INVITE)
    else:
        slug = "no-such-league"
    before = snapshot()
    with pytest.raises(joining.JoinNotFound) as found:
        joining.join_with_code(user=UserFactory(), slug=slug, code=code)
    with pytest.raises(joining.JoinNotFound) as missing:
        joining.join_with_code(user=UserFactory(), slug="no-such-league", code="x")
    assert (found.value.message, found.value.status_code) == (missing.value.message, missing.value.status_code)
    assert snapshot()[:3] == before[:3]


def test_rotating_makes_a_new_code_and_the_old_link_stops(world):
    league = code_league(world)
    old = league.join_code
    league = joining.join_code_rotate(actor=world.users["organiser"], league=league)
    assert league.join_code != old
    with pytest.raises(joining.JoinNotFound):
        joining.join_with_code(user=UserFactory(), slug=league.slug, code=old)
    assert joining.join_with_code(user=UserFactory(), slug=league.slug, code=league.join_code)
    assert AuditEntry.objects.filter(action="league.join_code_rotate").exists()


def request_league(world, visibility=Visibility.PUBLIC):
    League.objects.filter(pk=world.league.pk).update(visibility=visibility)
    world.league.refresh_from_db()
    return joining.join_settings_update(actor=world.users["organiser"], league=world.league, join_mode=JoinMode.REQUEST)


def test_request_then_approve_makes_a_member_and_tells_the_player(world):
    league = request_league(world)
    user = UserFactory(username="asker", email="asker@example.com")
    request = joining.join_request_create(user=user, league=league)
    assert joining.join_request_create(user=user, league=league).pk == request.pk  # asking twice: one request
    assert not Membership.objects.filter(league=league, player__user=user).exists()
    with TestCase.captureOnCommitCallbacks(execute=True):
        membership = joining.join_request_approve(actor=world.users["organiser"], request=request)
    assert membership.player.user == user
    assert JoinRequest.objects.get(pk=request.pk).status == "approved"
    assert [m.to for m in mail.outbox] == [["asker@example.com"]] and "approved" in mail.outbox[0].body
    assert joining.join_notices(user=user) == [f"You are now a member of {league.name}."]
    assert joining.join_notices(user=user) == []
    with pytest.raises(ConflictError):
        joining.join_request_approve(actor=world.users["organiser"], request=request)


def test_declining_writes_nothing_else(world):
    league = request_league(world)
    user = UserFactory(username="asker")
    request = joining.join_request_create(user=user, league=league)
    memberships = list(Membership.objects.values_list("pk", flat=True))
    players = list(Player.objects.values_list("pk", "user_id"))
    audits = AuditEntry.objects.count()
    version = League.objects.get(pk=league.pk).data_version
    joining.join_request_decline(actor=world.users["organiser"], request=request)
    assert League.objects.get(pk=league.pk).data_version == version
    assert list(Membership.objects.values_list("pk", flat=True)) == memberships
    assert list(Player.objects.values_list("pk", "user_id")) == players
    assert AuditEntry.objects.count() == audits + 1
    assert JoinRequest.objects.get(pk=request.pk).status == "declined"


def test_approving_can_hand_over_a_guest_of_that_league_only(world):
    league = request_league(world)
    user = UserFactory(username="han-for-real")
    request = joining.join_request_create(user=user, league=league)
    stranger = MembershipFactory(league=world.other_league, player=PlayerFactory(display_name="Stranger")).player
    before = snapshot()
    with pytest.raises(ApplicationError, match="not a guest"):
        joining.join_request_approve(actor=world.users["organiser"], request=request, guest=stranger)
    assert snapshot() == before
    han = world.players[0]
    membership = joining.join_request_approve(actor=world.users["organiser"], request=request, guest=han)
    assert membership.player == han and Player.objects.get(pk=han.pk).user == user
    assert Membership.objects.filter(league=league, player__user=user).count() == 1


def test_asking_is_refused_where_the_league_does_not_take_requests_and_writes_nothing(world):
    before = snapshot()
    with pytest.raises(ApplicationError, match="not taking requests"):
        joining.join_request_create(user=UserFactory(), league=world.league)
    assert snapshot() == before


def test_a_hidden_league_cannot_be_asked_and_looks_missing(world):
    league = request_league(world, Visibility.MEMBERS)
    with pytest.raises(joining.JoinNotFound):
        joining.join_request_create(user=UserFactory(), league=league)


def test_email_invite_joins_on_sign_up(world, settings):
    league = world.league
    with TestCase.captureOnCommitCallbacks(execute=True):
        invite = joining.email_invite_create(actor=world.users["organiser"], league=league, email="new@example.com")
    assert mail.outbox[-1].to == ["new@example.com"]
    assert f"/join/invite/{invite.pk}/{invite.token}/" in mail.outbox[-1].body
    client = Client()
    page = client.get(f"/join/invite/{invite.pk}/{invite.token}/")
    assert page.status_code == 200 and "Sign up" in page.content.decode()
    response = client.post(
        f"/accounts/signup/?next=/join/invite/{invite.pk}/{invite.token}/",  # as the page's "Sign up and join"
        {
            "username": "invited",
            "email": "new@example.com",
            "password1": "s3cret-Pass-99",
            "password2": "s3cret-Pass-99",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Membership.objects.filter(league=league, player__user__username="invited").exists()
    assert EmailInvite.objects.get(pk=invite.pk).accepted_by.username == "invited"
    # Where sign-up lands (the link again): a welcome to the league just joined, not "a member already".
    landed = client.get(response.url).content.decode()
    assert response.url == f"/join/invite/{invite.pk}/{invite.token}/"
    assert f"<h1>Welcome to {league.name}</h1>" in landed and "already" not in landed
    assert "already" in client.get(response.url).content.decode()  # a later visit: a member already
    # Someone else following the used link finds nothing.
    with pytest.raises(joining.JoinNotFound):
        joining.email_invite_accept(user=UserFactory(), pk=invite.pk, token=invite.token)


def test_email_invite_refuses_a_bad_address_and_writes_nothing(world):
    before = snapshot()
    with pytest.raises(ApplicationError, match="e-mail"):
        joining.email_invite_create(actor=world.users["organiser"], league=world.league, email="not-an-address")
    assert snapshot() == before and not EmailInvite.objects.exists()


def test_code_link_for_a_members_only_league_works_for_an_outsider_and_joins_on_sign_in(world):
    league = code_league(world, Visibility.MEMBERS)
    outsider = world.users["outsider"]
    outsider.set_password("pw-123-long-enough")
    outsider.save()
    client = Client()
    link = f"/join/{league.slug}/{league.join_code}/"
    assert client.get(link).status_code == 200
    wrong = client.get(f"/join/{league.slug}/{league.join_code}x/")
    missing = client.get(f"/join/no-such-league/{league.join_code}/")
    assert wrong.status_code == missing.status_code == 404
    assert league.name not in wrong.content.decode()
    response = client.post("/accounts/login/", {"login": "outsider", "password": "pw-123-long-enough"})
    assert response.status_code == 302
    assert Membership.objects.filter(league=league, player__user=outsider).exists()
