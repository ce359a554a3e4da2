"""Halcyon end to end on the engine with bots: each table's game played by sensible bots and replayed by the
engine when recorded; every player deals exactly once per table; the winners advance to a final table; the
places follow RULES 1.5 and the Halcyon text; the payouts and the league's points follow the places."""

import pytest

from config.errors import ApplicationError, ConflictError
from games.demo import bot_replay
from league import services as league_services
from league.models import ChipSet, EventResult, LedgerEntry, LedgerKind, Standing
from tournaments import halcyon, services
from tournaments.models import Format, Registration, RegistrationStatus
from tournaments.services.halcyon import seat_name, table_results
from tournaments.structures import Level, structure_to_json

from .conftest import drawn

HALCYON_STRUCTURE = structure_to_json([Level(ante=1, length=1, unit="hands")])


def halcyon_night(night, players: int, per_table: int):
    night.event.chip_set = ChipSet.objects.get(slug="simple")
    night.event.save()
    tournament = services.tournament_create(
        actor=night.organiser,
        event=night.event,
        structure=HALCYON_STRUCTURE,
        format=Format.HALCYON,
        starting_stack=10,
        seats_per_table=per_table,
        payout_template="top_3",
    )
    return drawn(night, tournament, players)


def seated(tournament) -> dict[int, list[int]]:
    tables: dict[int, list[int]] = {}
    for registration in Registration.objects.filter(
        tournament=tournament, status=RegistrationStatus.REGISTERED
    ).order_by("seat_number"):
        tables.setdefault(registration.table_number, []).append(registration.player_id)
    return tables


def play_round(night, tournament, seed: str) -> dict[int, list[halcyon.SeatResult]]:
    """Every table of the round plays its game with bots; each is recorded (and replayed) by the service."""
    played = {}
    for number, players in seated(tournament).items():
        document = bot_replay([seat_name(p) for p in players], seed=f"{seed}/{number}", preset="halcyon", stack=10)
        results, dealers = table_results(document)
        assert sorted(dealers) == sorted(seat_name(p) for p in players)  # each player deals exactly once
        assert len(dealers) == len(players)
        played[number] = results
        services.tournament_halcyon_table(
            actor=night.organiser, tournament=tournament, table_number=number, replay=document
        )
        tournament.refresh_from_db()
    return played


def test_one_table_halcyon_places_follow_the_table_and_points_are_awarded(night):
    tournament = halcyon_night(night, players=5, per_table=8)
    played = play_round(night, tournament, "one")
    assert list(played) == [1]
    expected = halcyon.table_places(played[1])
    places = dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "place"))
    assert places == expected
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    assert sum(LedgerEntry.objects.filter(event=night.event).values_list("amount", flat=True)) == 0
    results = dict(EventResult.objects.filter(event=night.event).values_list("player_id", "place"))
    assert results == expected
    league_services.standings_recompute(league_id=night.league.pk)
    points = dict(Standing.objects.filter(league=night.league, season=None).values_list("player_id", "points"))
    winner = min(expected, key=expected.get)
    assert points[winner] == 5  # linear: players - place + 1


def test_three_tables_send_their_winners_to_a_final_table_that_decides_the_places(night):
    tournament = halcyon_night(night, players=12, per_table=4)
    first = play_round(night, tournament, "three")
    assert len(first) == 3
    finalists = set(seated(tournament).get(1, []))
    expected_finalists = {p for results in first.values() for p in halcyon.advancing(results, 1)}
    assert finalists == expected_finalists and len(finalists) >= 3
    with pytest.raises(ConflictError, match="Record every table"):
        services.tournament_complete(actor=night.organiser, tournament=tournament)
    final = play_round(night, tournament, "final")
    places = dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "place"))
    assert places == halcyon.halcyon_places([list(first.values()), list(final.values())])
    assert sorted(places[p] for p in finalists)[0] == 1
    assert all(places[p] > len(finalists) for p in places if p not in finalists)
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    prizes = LedgerEntry.objects.filter(event=night.event, kind=LedgerKind.PAYOUT)
    assert -sum(prizes.values_list("amount", flat=True)) == 120  # the whole pool of 12 x 10
    assert EventResult.objects.filter(event=night.event).count() == 12


def test_a_table_game_that_does_not_match_the_table_is_refused_and_writes_nothing(night):
    tournament = halcyon_night(night, players=8, per_table=4)
    tables = seated(tournament)
    wrong = bot_replay([seat_name(p) for p in tables[2]], seed="w", preset="halcyon", stack=10)
    with pytest.raises(ApplicationError, match="not the players seated at table 1"):
        services.tournament_halcyon_table(actor=night.organiser, tournament=tournament, table_number=1, replay=wrong)
    short = bot_replay([seat_name(p) for p in tables[1]], seed="s", preset="halcyon", stack=10, max_hands=2)
    with pytest.raises(ApplicationError, match="not finished"):
        services.tournament_halcyon_table(actor=night.organiser, tournament=tournament, table_number=1, replay=short)
    tournament.refresh_from_db()
    assert tournament.rounds == []


def test_the_control_room_and_the_api_record_a_halcyon_table_and_refuse_a_broken_document(night):
    from django.test import Client
    from rest_framework.test import APIClient

    tournament = halcyon_night(night, players=8, per_table=4)
    tables = seated(tournament)
    page = Client()
    page.force_login(night.organiser)
    bad = page.post(
        f"/manage/tournaments/{tournament.pk}/", {"action": "halcyon_table", "table": "1", "replay": "{not json"}
    )
    # The formats the engine reads, newest first, in the refusal and in the control room's label.
    assert bad.status_code == 400 and "sabacc-replay/2 or sabacc-replay/1 JSON" in bad.content.decode()
    control_room = page.get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert "The game (sabacc-replay/2 or sabacc-replay/1 JSON)" in control_room
    document = bot_replay([seat_name(p) for p in tables[1]], seed="page", preset="halcyon", stack=10)
    import json

    ok = page.post(
        f"/manage/tournaments/{tournament.pk}/",
        {"action": "halcyon_table", "table": "1", "replay": json.dumps(document)},
    )
    assert ok.status_code == 302
    api = APIClient()
    api.force_authenticate(night.organiser)
    second = bot_replay([seat_name(p) for p in tables[2]], seed="api", preset="halcyon", stack=10)
    response = api.post(
        f"/api/tournaments/{tournament.pk}/actions/",
        {"action": "halcyon_table", "table": 2, "replay": second},
        format="json",
    )
    assert response.status_code == 200 and "final table" in response.json()["detail"]
    assert len(seated(tournament)) == 1


def test_a_game_recorded_after_completion_leaves_the_tournaments_places_in_the_results(night):
    """Games hand league the event's rows (`games.selectors.event_result_rows`): for a completed tournament, its
    places, which stand above any game's (before results were pushed, league asked for them; now games does)."""
    from games.services import result_record

    tournament = halcyon_night(night, players=5, per_table=8)
    play_round(night, tournament, "late")
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    places = dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "place"))
    last, first = max(places, key=places.get), min(places, key=places.get)
    result_record(
        actor=night.organiser,
        event=night.event,
        seats=[
            {"player": last, "buy_in": 10, "final_credits": 20, "place": 1},
            {"player": first, "buy_in": 10, "final_credits": 0, "place": 2},
        ],
        round=1,
    )
    assert dict(EventResult.objects.filter(event=night.event).values_list("player_id", "place")) == places
