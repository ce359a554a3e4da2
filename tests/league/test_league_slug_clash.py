"""Issue 21, finding 6: creating a league whose address a members-only league holds must not reveal it. A taken
address, held by a league the creator can see or by one hidden from them, gives the new league the next free
address (`<slug>-2`, ...): the same answer and the same work either way, naming no league."""

import pytest

from league.models import League, Role, Visibility
from tests.factories import LeagueFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.league.conftest import client_for


@pytest.fixture
def taken(db):
    LeagueFactory(slug="hush", name="Secret hush league", visibility=Visibility.MEMBERS)
    LeagueFactory(slug="open", name="Open league", visibility=Visibility.PUBLIC)
    return client_for(UserFactory(username="newcomer"))


def _create(client, slug):
    response = client.post("/api/leagues/", {"name": "My league", "slug": slug}, format="json")
    return response.status_code, response.json()


def test_6_a_slug_held_by_a_hidden_league_answers_as_one_held_by_a_visible_league(taken):
    hidden_status, hidden_body = _create(taken, "hush")
    visible_status, visible_body = _create(taken, "open")
    assert (hidden_status, visible_status) == (201, 201)
    assert (hidden_body["slug"], visible_body["slug"]) == ("hush-2", "open-2")
    assert "Secret" not in str(hidden_body)
    shape = {key: value for key, value in hidden_body.items() if key not in ("id", "slug", "created_at")}
    assert shape == {key: value for key, value in visible_body.items() if key not in ("id", "slug", "created_at")}
    assert League.objects.get(slug="hush").name == "Secret hush league"  # untouched


def test_6_an_address_taken_twice_gets_the_next_number_and_a_free_one_is_kept(taken):
    LeagueFactory(slug="hush-2", visibility=Visibility.MEMBERS)
    assert _create(taken, "hush")[1]["slug"] == "hush-3"
    assert _create(taken, "quiet")[1]["slug"] == "quiet"


def test_6_a_long_address_stays_within_80_characters(taken):
    long = "x" * 80
    LeagueFactory(slug=long, visibility=Visibility.MEMBERS)
    assert _create(taken, long)[1]["slug"] == "x" * 78 + "-2"


def test_6_a_slug_from_the_name_is_freed_the_same_way(taken):
    response = taken.post("/api/leagues/", {"name": "Hush"}, format="json")
    assert response.status_code == 201 and response.json()["slug"] == "hush-2"


def test_6_renaming_an_address_onto_a_hidden_league_is_refused_as_onto_a_visible_one(taken):
    organiser = UserFactory(username="owner")
    mine = LeagueFactory(slug="mine")
    MembershipFactory(league=mine, player=PlayerFactory(user=organiser), role=Role.ORGANISER)
    client = client_for(organiser)
    onto_hidden = client.patch("/api/leagues/mine/", {"slug": "hush"}, format="json")
    onto_visible = client.patch("/api/leagues/mine/", {"slug": "open"}, format="json")
    assert onto_hidden.status_code == onto_visible.status_code == 409
    assert onto_hidden.json()["detail"].replace("hush", "<x>") == onto_visible.json()["detail"].replace("open", "<x>")
    assert "Secret" not in onto_hidden.json()["detail"]
