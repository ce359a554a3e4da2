"""A guest named like an existing player (trimmed, any case) is flagged before saving: the members page and the
control room show a warning and an "add anyway" button, the API answers 409 (code duplicate_name) unless
`confirm_duplicate` is true. A refusal writes nothing; page and API agree."""

import pytest

from league.models import AuditEntry, Membership, Player
from tests.league.conftest import client_for

from .conftest import page_client


def counts():
    return Player.objects.count(), Membership.objects.count(), AuditEntry.objects.count()


@pytest.mark.parametrize("typed", ["Han", "  han ", "HAN"])
def test_the_members_page_flags_a_namesake_and_adds_only_when_confirmed(world, typed):
    organiser = page_client(world.users["organiser"])
    url = f"/manage/leagues/{world.league.slug}/members/guest/"
    before = counts()
    response = organiser.post(url, {"display_name": typed})
    page = response.content.decode()
    assert response.status_code == 409
    assert f"A player named Han is already in {world.league.name}" in page
    assert 'name="confirm_duplicate" value="true"' in page and "anyway" in page
    assert counts() == before
    response = organiser.post(url, {"display_name": typed, "confirm_duplicate": "true"})
    assert response.status_code == 302
    assert Player.objects.filter(display_name__iexact="han").count() == 2


def test_a_new_name_is_added_at_once_and_a_name_only_in_another_league_is_not_flagged(world):
    organiser = page_client(world.users["organiser"])
    url = f"/manage/leagues/{world.league.slug}/members/guest/"
    assert organiser.post(url, {"display_name": "Ahsoka"}).status_code == 302
    assert organiser.post(url, {"display_name": "Other"}).status_code == 302  # Other plays in another league


def test_the_api_refuses_a_namesake_with_409_unless_confirmed(world):
    api = client_for(world.users["organiser"])
    before = counts()
    response = api.post("/api/players/", {"display_name": " leia "}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "duplicate_name" and "A player named Leia is already" in body["detail"]
    assert body["extra"]["namesakes"] == [world.players[2].pk]
    assert counts() == before
    response = api.post("/api/players/", {"display_name": "Leia", "confirm_duplicate": True}, format="json")
    assert response.status_code == 201
    assert api.post("/api/players/", {"display_name": "Ahsoka"}, format="json").status_code == 201


def test_the_api_flags_only_players_the_organiser_can_see(world, settings):
    api = client_for(world.users["organiser"])
    # "Out" has no league: the organiser cannot see them, so the name is free for a guest.
    assert api.post("/api/players/", {"display_name": "Out"}, format="json").status_code == 201
