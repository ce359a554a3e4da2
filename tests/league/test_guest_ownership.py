"""Issue 21, finding 2: a guest (an unclaimed player) belongs to the leagues it plays in and to the organiser who
entered it. Another league's organiser may not add it as a member, read its claim code or rename it, on the API,
the pages or through the service; they enter their own guest or add the person's account."""

import pytest

from config.errors import ForbiddenError
from league import services
from league.models import Membership, Role
from tests.factories import LeagueFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.league.conftest import client_for
from tests.manage.conftest import page_client


@pytest.fixture
def leagues(db):
    """Public league A with its guest, and league B whose organiser (any signed-in user may create one) is not
    A's; and an organiser of both."""
    league_a, league_b = LeagueFactory(name="League A"), LeagueFactory(name="League B")
    organiser_a, organiser_b, both = (UserFactory(username=name) for name in ("org-a", "org-b", "org-both"))
    MembershipFactory(league=league_a, player=PlayerFactory(user=organiser_a), role=Role.ORGANISER)
    MembershipFactory(league=league_b, player=PlayerFactory(user=organiser_b), role=Role.ORGANISER)
    both_player = PlayerFactory(user=both)
    MembershipFactory(league=league_a, player=both_player, role=Role.ORGANISER)
    MembershipFactory(league=league_b, player=both_player, role=Role.ORGANISER)
    guest = services.player_create(actor=organiser_a, display_name="Guest of A")
    services.membership_add(actor=organiser_a, league=league_a, player=guest)
    return {
        "a": league_a,
        "b": league_b,
        "org_a": organiser_a,
        "org_b": organiser_b,
        "both": both,
        "guest": guest,
    }


def test_2_another_leagues_organiser_may_not_add_its_guest_by_the_api(leagues):
    guest = leagues["guest"]
    response = client_for(leagues["org_b"]).post(
        "/api/memberships/", {"league": leagues["b"].slug, "player": guest.pk}, format="json"
    )
    assert response.status_code == 403, response.content
    assert "Enter your own guest" in response.json()["detail"]
    assert not Membership.objects.filter(league=leagues["b"], player=guest).exists()


def test_2_the_service_refuses_it_too(leagues):
    with pytest.raises(ForbiddenError):
        services.membership_add(actor=leagues["org_b"], league=leagues["b"], player=leagues["guest"])
    assert not Membership.objects.filter(league=leagues["b"], player=leagues["guest"]).exists()


def test_2_an_organiser_of_both_leagues_may_add_the_guest_to_the_other(leagues):
    guest = leagues["guest"]
    response = client_for(leagues["both"]).post(
        "/api/memberships/", {"league": leagues["b"].slug, "player": guest.pk}, format="json"
    )
    assert response.status_code == 201, response.content


def test_2_a_guest_in_no_league_is_added_only_by_whoever_entered_it(leagues):
    loose = services.player_create(actor=leagues["org_a"], display_name="Loose guest")
    refused = client_for(leagues["org_b"]).post(
        "/api/memberships/", {"league": leagues["b"].slug, "player": loose.pk}, format="json"
    )
    assert refused.status_code == 403, refused.content
    added = client_for(leagues["org_a"]).post(
        "/api/memberships/", {"league": leagues["a"].slug, "player": loose.pk}, format="json"
    )
    assert added.status_code == 201, added.content


def test_2_a_registered_player_may_still_be_added_by_any_organiser(leagues):
    account = PlayerFactory(user=UserFactory(username="someone"))
    MembershipFactory(league=leagues["a"], player=account)
    response = client_for(leagues["org_b"]).post(
        "/api/memberships/", {"league": leagues["b"].slug, "player": account.pk}, format="json"
    )
    assert response.status_code == 201, response.content


def test_2_another_leagues_organiser_may_not_rename_the_guest_nor_read_its_code(leagues):
    guest = leagues["guest"]
    client = client_for(leagues["org_b"])
    client.post("/api/memberships/", {"league": leagues["b"].slug, "player": guest.pk}, format="json")  # refused
    assert client.patch(f"/api/players/{guest.pk}/", {"display_name": "Mine now"}, format="json").status_code == 403
    assert client.get(f"/api/players/{guest.pk}/").json()["claim_code"] is None
    page = page_client(leagues["org_b"]).get(f"/players/{guest.pk}/")
    assert page.status_code == 200
    assert guest.claim_code not in page.content.decode()
    guest.refresh_from_db()
    assert guest.display_name == "Guest of A"


def test_2_the_guests_leagues_organisers_read_its_code_on_the_api_as_on_the_pages(leagues):
    """The API and the pages agree: an organiser of the guest's league who did not enter it sees the code in
    both (the API showed it only to the one who entered it)."""
    guest = leagues["guest"]
    assert client_for(leagues["both"]).get(f"/api/players/{guest.pk}/").json()["claim_code"] == guest.claim_code
    members = page_client(leagues["both"]).get(f"/manage/leagues/{leagues['a'].slug}/members/")
    assert guest.claim_code in members.content.decode()
    player_page = page_client(leagues["both"]).get(f"/players/{guest.pk}/")
    assert guest.claim_code in player_page.content.decode()


def test_2_the_takeover_of_the_audit_no_longer_works(leagues):
    """The audit's steps: add A's guest to B, then read its code on B's members page to claim it."""
    guest = leagues["guest"]
    organiser_b = client_for(leagues["org_b"])
    organiser_b.post("/api/memberships/", {"league": leagues["b"].slug, "player": guest.pk}, format="json")
    members = page_client(leagues["org_b"]).get(f"/manage/leagues/{leagues['b'].slug}/members/")
    assert guest.claim_code not in members.content.decode()
    assert not Membership.objects.filter(league=leagues["b"], player=guest).exists()
