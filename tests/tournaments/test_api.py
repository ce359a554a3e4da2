from datetime import timedelta

from django.utils import timezone
from rest_framework.test import APIClient

from league.models import Visibility
from tournaments import services


def test_the_clock_endpoint_shows_the_level_time_left_and_next_break(night, tournament):
    client = APIClient()
    url = f"/api/tournaments/{tournament.pk}/clock/"
    before = client.get(url)
    assert before.status_code == 200
    assert before.json()["started"] is False and before.json()["level"] is None
    for player in night.players[:6]:
        services.tournament_register(actor=night.organiser, tournament=tournament, player=player)
    services.tournament_publish_seed(actor=night.organiser, tournament=tournament)
    services.tournament_draw(actor=night.organiser, tournament=tournament)
    started = timezone.now() - timedelta(minutes=12)
    services.tournament_clock_start(actor=night.organiser, tournament=tournament, now=started)
    body = client.get(url).json()
    assert body["level_number"] == 2 and body["level"]["big_blind"] == 20
    assert body["next_level"]["is_break"] is True
    assert 470 <= body["seconds_left"] <= 480 and body["next_break_in"] == body["seconds_left"]
    assert body["paused"] is False


def test_a_members_only_league_hides_its_tournament_clock(night, tournament):
    night.league.visibility = Visibility.MEMBERS
    night.league.save()
    assert APIClient().get(f"/api/tournaments/{tournament.pk}/clock/").status_code == 404
    member = APIClient()
    member.force_authenticate(night.member)
    assert member.get(f"/api/tournaments/{tournament.pk}/clock/").status_code == 200


def test_the_clock_endpoint_is_in_the_openapi_schema(db):
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/tournaments/{id}/clock/" in schema["paths"]
