"""A player's display name shows on every page (standings, tables, results): a name with an invisible character
(a zero-width space) or one that turns the text around it (a right-to-left override) could pass for another
player's or garble the page, so it is refused with the character named, through the service and the API, and
nothing is written. Real-cards tables refuse the same names (`config.inputs.refuse_hidden_characters`)."""

import re

import pytest

from config.errors import ApplicationError
from league import services
from league.models import Player, Role
from tests.factories import LeagueFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.league.conftest import client_for

HIDDEN = [("\u202eHan", "U+202E"), ("Ha\u200bn", "U+200B"), ("Han\u2066", "U+2066"), ("Ha\tn", "U+0009")]


@pytest.mark.parametrize(("name", "named"), HIDDEN)
def test_the_service_refuses_a_name_with_a_hidden_character(db, name, named):
    organiser = UserFactory()
    before = Player.objects.count()
    with pytest.raises(ApplicationError) as refused:
        services.player_create(actor=organiser, display_name=name)
    assert named in str(refused.value) and refused.value.extra == {"field": "display_name"}
    assert Player.objects.count() == before


@pytest.mark.parametrize(("name", "named"), HIDDEN)
def test_a_rename_to_such_a_name_is_refused_and_the_old_name_stays(db, name, named):
    organiser = UserFactory()
    guest = services.player_create(actor=organiser, display_name="Han")
    with pytest.raises(ApplicationError, match=re.escape(named)):
        services.player_update(actor=organiser, player=guest, display_name=name)
    guest.refresh_from_db()
    assert guest.display_name == "Han"


def test_the_api_answers_400_naming_the_character(db):
    organiser = UserFactory()
    MembershipFactory(league=LeagueFactory(), player=PlayerFactory(user=organiser), role=Role.ORGANISER)
    before = Player.objects.count()
    response = client_for(organiser).post("/api/players/", {"display_name": "\u202eHan"}, format="json")
    assert response.status_code == 400, response.content
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in response.json()["detail"]
    assert Player.objects.count() == before


def test_ordinary_names_pass_accents_and_scripts_included(db):
    organiser = UserFactory()
    for name in ("Ósk Þór", "李小龍", "Zoë-Ann O'Neil", "Han 🚀"):
        assert services.player_create(actor=organiser, display_name=name).display_name == name
