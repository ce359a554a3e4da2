"""Issue 21, finding 9: the control room's actions ask who may before reading any input. A member who does not
organise the league hears 403 for every action, whatever they send, never a 400 that names a field or a player."""

import pytest
from rest_framework.test import APIClient

from config.errors import ForbiddenError
from tournaments import actions, services
from tournaments.models import Registration


@pytest.fixture
def registered(night, tournament):
    for player in night.players[:4]:
        services.tournament_register(actor=night.organiser, tournament=tournament, player=player)
    return tournament


@pytest.mark.parametrize("action", actions.ACTIONS)
def test_9_every_action_refuses_a_non_organiser_before_reading_input(night, registered, action):
    before = Registration.objects.filter(tournament=registered).count()
    with pytest.raises(ForbiddenError):
        actions.run_action(actor=night.member, tournament=registered, action=action, data={"name": "Sneaky"})
    assert Registration.objects.filter(tournament=registered).count() == before


def test_9_an_unknown_action_is_refused_to_a_non_organiser_as_forbidden(night, registered):
    with pytest.raises(ForbiddenError):
        actions.run_action(actor=night.member, tournament=registered, action="no-such-action", data={})


def test_9_the_deal_answers_403_not_a_400_naming_a_player(night, registered):
    client = APIClient()
    client.force_authenticate(night.member)
    response = client.post(
        f"/api/tournaments/{registered.pk}/actions/", {"action": "deal", "stacks": {}}, format="json"
    )
    assert response.status_code == 403, response.content
    assert "player" not in response.json()["detail"]


def test_9_the_organiser_still_hears_what_is_wrong_with_the_input(night, registered):
    with pytest.raises(Exception) as refused:
        actions.run_action(actor=night.organiser, tournament=registered, action="deal", data={"stacks": {}})
    assert not isinstance(refused.value, ForbiddenError)
    assert "chip count of player" in str(refused.value)


@pytest.mark.parametrize(
    ("body", "field"),
    [({"action": "register", "player": -1}, "player"), ({"action": "eliminate", "player": "4.0"}, "player")],
)
def test_the_organisers_wrong_input_gets_the_apis_one_error_shape(night, registered, body, field):
    """Not DRF's bare `{"player": [...]}`: `detail` naming the field, `code` and `extra.fields` (`validated`)."""
    client = APIClient()
    client.force_authenticate(night.organiser)
    before = Registration.objects.filter(tournament=registered).count()
    response = client.post(f"/api/tournaments/{registered.pk}/actions/", body, format="json")
    assert response.status_code == 400, response.content
    answer = response.json()
    assert answer["code"] == "invalid" and f"{field}:" in answer["detail"], answer
    assert list(answer["extra"]["fields"]) == [field]
    assert Registration.objects.filter(tournament=registered).count() == before
