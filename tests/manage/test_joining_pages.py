"""Issue 23 on the organisers' joining page and the public pages: who may use it, what each form does, and
refusals that write nothing."""

import pytest
from django.core.cache import cache

from league.models import AuditEntry, JoinMode, JoinRequest, League, Membership, Player
from league.services import joining
from tests.factories import MembershipFactory, PlayerFactory, UserFactory
from tests.manage.conftest import page_client, user_of


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()
    yield
    cache.clear()


def url(world):
    return f"/manage/leagues/{world.league.slug}/joining/"


@pytest.mark.parametrize(("role", "status"), [("player", 403), ("other_organiser", 403), ("organiser", 200)])
def test_only_organisers_open_the_joining_page(world, role, status):
    assert page_client(user_of(world, role)).get(url(world)).status_code == status
    response = page_client(user_of(world, role)).post(url(world), {"action": "mode", "join_mode": "code"})
    assert League.objects.get(pk=world.league.pk).join_mode == ("code" if status == 200 else "invite")
    assert response.status_code == (302 if status == 200 else status)


def test_the_page_rotates_and_revokes_the_link(world):
    organiser = page_client(world.users["organiser"])
    organiser.post(url(world), {"action": "mode", "join_mode": "code"})
    first = League.objects.get(pk=world.league.pk).join_code
    assert first in organiser.get(url(world)).content.decode()
    organiser.post(url(world), {"action": "rotate"})
    second = League.objects.get(pk=world.league.pk).join_code
    assert second and second != first
    organiser.post(url(world), {"action": "revoke"})
    assert League.objects.get(pk=world.league.pk).join_code == ""
    assert "revoked" in organiser.get(url(world)).content.decode()


def test_approving_with_another_leagues_guest_is_refused_and_writes_nothing(world):
    league = joining.join_settings_update(actor=world.users["organiser"], league=world.league, join_mode="request")
    asker = UserFactory()
    request = joining.join_request_create(user=asker, league=league)
    stranger = MembershipFactory(league=world.other_league, player=PlayerFactory(display_name="Stranger")).player
    before = (Membership.objects.count(), AuditEntry.objects.count(), list(Player.objects.values_list("pk", "user")))
    response = page_client(world.users["organiser"]).post(
        url(world), {"action": "approve", "request": request.pk, "guest": stranger.pk}
    )
    assert response.status_code == 400
    after = (Membership.objects.count(), AuditEntry.objects.count(), list(Player.objects.values_list("pk", "user")))
    assert after == before and JoinRequest.objects.get(pk=request.pk).status == "pending"
    bad = page_client(world.users["organiser"]).post(url(world), {"action": "approve", "request": "x"})
    assert bad.status_code == 400


def test_public_league_page_says_how_to_join(world):
    outsider = page_client(world.users["outsider"])
    page = outsider.get(f"/leagues/{world.league.slug}/").content.decode()
    assert "Invite only: ask an organiser." in page
    joining.join_settings_update(actor=world.users["organiser"], league=world.league, join_mode=JoinMode.REQUEST)
    page = outsider.get(f"/leagues/{world.league.slug}/").content.decode()
    assert "Ask to join" in page
    assert outsider.post(f"/leagues/{world.league.slug}/ask/").status_code == 302
    assert JoinRequest.objects.filter(user=world.users["outsider"], status="pending").exists()
    member_page = page_client(world.users["member"]).get(f"/leagues/{world.league.slug}/").content.decode()
    assert "Ask to join" not in member_page


def test_requests_in_a_members_only_league_come_with_a_warning_that_nobody_can_ask(world):
    """Outsiders cannot see a members-only league's page, so "by request" there admits nobody: the page says so."""
    organiser = page_client(world.users["organiser"])
    organiser.post(url(world), {"action": "mode", "join_mode": "request"})
    assert 'id="request-hidden-warning"' not in organiser.get(url(world)).content.decode()  # a public league
    League.objects.filter(pk=world.league.pk).update(visibility="members")
    page = organiser.get(url(world)).content.decode()
    assert 'id="request-hidden-warning"' in page and "nobody can ask to join" in page
