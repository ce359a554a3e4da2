"""A tournament's league event follows it: running from the clock's start, finished only by Complete (the
organiser's event page and the API refuse finishing it by hand meanwhile), and counted on the league page by the
players in its field; an event's players also count while they sit at its online table."""

import pytest
from django.test import Client

from config.errors import ConflictError
from games.online import services as online
from league import services as league_services
from league.models import AuditEntry, EventKind, EventStatus
from league.pages import league_events
from tests.factories import EventFactory
from tests.tournaments.conftest import drawn
from tournaments import services

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def players_shown(night, event) -> int:
    return next(shown.players for shown in league_events(league=night.league, season=None) if shown.pk == event.pk)


def test_the_event_runs_from_the_clock_start_not_before(night, tournament):
    drawn(night, tournament, clock=False)
    night.event.refresh_from_db()
    assert night.event.status == EventStatus.PLANNED  # registration and late seats stay open until the clock
    services.tournament_clock_start(actor=night.organiser, tournament=tournament)
    night.event.refresh_from_db()
    assert night.event.status == EventStatus.RUNNING
    assert AuditEntry.objects.filter(action="event.update", data__after__status="running").exists()


def test_the_league_page_counts_a_tournaments_field_before_it_completes(night, tournament):
    assert players_shown(night, night.event) == 0
    drawn(night, tournament, 5, clock=False)
    services.tournament_register(actor=night.organiser, tournament=tournament, player=night.players[6])
    assert players_shown(night, night.event) == 6
    services.tournament_clock_start(actor=night.organiser, tournament=tournament)
    services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=night.players[0])
    assert players_shown(night, night.event) == 6  # out, but they played


def test_the_league_page_counts_a_member_seated_at_a_single_games_online_table(night):
    game_event = EventFactory(season=night.event.season, kind=EventKind.GAME, status=EventStatus.PLANNED)
    table = online.table_open(actor=night.organiser, event=game_event, name="Table 1", seats=2)
    assert players_shown(night, game_event) == 0
    online.seat_take(actor=night.member, table=table)
    assert players_shown(night, game_event) == 1


def test_finishing_a_tournaments_event_by_hand_is_refused_until_the_tournament_completes(night, tournament):
    drawn(night, tournament, 2)
    with pytest.raises(ConflictError, match="complete the tournament from its control room"):
        league_services.event_update(actor=night.organiser, event=night.event, status=EventStatus.FINISHED)
    night.event.refresh_from_db()
    assert night.event.status == EventStatus.RUNNING

    organiser = signed_in(night.organiser)
    page = organiser.get(f"/manage/events/{night.event.pk}/").content.decode()
    assert 'data-action="finish-event"' not in page and "data-finish-note" in page
    refused = organiser.post(f"/manage/events/{night.event.pk}/status/", {"status": "finished"})
    assert refused.status_code == 409
    assert "complete the tournament from its control room" in refused.content.decode()
    api = organiser.patch(f"/api/events/{night.event.pk}/", {"status": "finished"}, content_type="application/json")
    assert api.status_code == 409 and api.json()["code"] == "tournament_not_complete"
    assert "complete the tournament from its control room" in api.json()["detail"]
    night.event.refresh_from_db()
    assert night.event.status == EventStatus.RUNNING

    services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=night.players[1])
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    night.event.refresh_from_db()
    assert night.event.status == EventStatus.FINISHED
    assert players_shown(night, night.event) == 2


def test_an_event_without_a_tournament_still_finishes_by_hand(night):
    organiser = signed_in(night.organiser)
    assert 'data-action="finish-event"' in organiser.get(f"/manage/events/{night.event.pk}/").content.decode()
    assert organiser.post(f"/manage/events/{night.event.pk}/status/", {"status": "finished"}).status_code == 302
    night.event.refresh_from_db()
    assert night.event.status == EventStatus.FINISHED


def test_a_tournaments_event_is_not_started_or_reopened_by_hand(night, tournament):
    organiser = signed_in(night.organiser)
    page = organiser.get(f"/manage/events/{night.event.pk}/").content.decode()
    assert 'data-action="start-event"' not in page and "data-finish-note" in page
    url = f"/manage/tournaments/{tournament.pk}/"
    for status in ("running", "planned"):
        before = list(AuditEntry.objects.values_list("pk", flat=True))
        refused = organiser.post(f"/manage/events/{night.event.pk}/status/", {"status": status})
        if status == "planned":  # already planned: nothing to refuse, nothing changes
            assert refused.status_code == 302
            continue
        assert refused.status_code == 409 and url in refused.content.decode()
        assert "not started or reopened by hand" in refused.content.decode()
        api = organiser.patch(f"/api/events/{night.event.pk}/", {"status": status}, content_type="application/json")
        assert (
            api.status_code == 409 and api.json()["code"] == "event_follows_tournament" and url in api.json()["detail"]
        )
        night.event.refresh_from_db()
        assert night.event.status == EventStatus.PLANNED
        assert list(AuditEntry.objects.values_list("pk", flat=True)) == before

    # The clock starts it; complete finishes it; and then it is not reopened by hand either.
    drawn(night, tournament, 2)
    night.event.refresh_from_db()
    assert night.event.status == EventStatus.RUNNING
    services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=night.players[1])
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    page = organiser.get(f"/manage/events/{night.event.pk}/").content.decode()
    assert 'data-action="reopen-event"' not in page and "data-follows-tournament" in page
    refused = organiser.post(f"/manage/events/{night.event.pk}/status/", {"status": "running"})
    assert refused.status_code == 409 and url in refused.content.decode()
    for status in ("running", "planned"):
        api = organiser.patch(f"/api/events/{night.event.pk}/", {"status": status}, content_type="application/json")
        assert api.status_code == 409 and api.json()["code"] == "event_follows_tournament"
    night.event.refresh_from_db()
    assert night.event.status == EventStatus.FINISHED


def test_an_event_without_a_tournament_still_starts_and_reopens_by_hand(night):
    organiser = signed_in(night.organiser)
    assert 'data-action="start-event"' in organiser.get(f"/manage/events/{night.event.pk}/").content.decode()
    assert organiser.post(f"/manage/events/{night.event.pk}/status/", {"status": "running"}).status_code == 302
    assert organiser.post(f"/manage/events/{night.event.pk}/status/", {"status": "finished"}).status_code == 302
    assert 'data-action="reopen-event"' in organiser.get(f"/manage/events/{night.event.pk}/").content.decode()
    assert organiser.post(f"/manage/events/{night.event.pk}/status/", {"status": "running"}).status_code == 302
    night.event.refresh_from_db()
    assert night.event.status == EventStatus.RUNNING
