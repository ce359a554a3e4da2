"""A physical Halcyon table's result entered without a replay: each seated player's final credits and the hand
they went out in, checked against the Halcyon rules and recorded through the same path as a replay (places,
advancing, league points, audit source "entered"); the page and the API run the same action and agree; every
refusal writes nothing."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from config.errors import ApplicationError
from games.demo import bot_replay
from league import services as league_services
from league.models import AuditEntry, EventResult, Standing
from tournaments import halcyon, services
from tournaments.models import Registration, Tournament
from tournaments.services.halcyon import seat_name, table_results

from .test_halcyon_games import halcyon_night, seated


def entered(results: list[halcyon.SeatResult]) -> list[dict]:
    return [{"player": r.player_id, "credits": r.credits, "out_hand": r.out_hand} for r in results]


def by_hand(players: list[int]) -> list[halcyon.SeatResult]:
    """A plausible physical game: the first player takes most, the second keeps some, the rest went out late
    first (hands counted from 1, every player deals once)."""
    total = 10 * len(players)
    rows = [halcyon.SeatResult(players[0], total - 7, None), halcyon.SeatResult(players[1], 7, None)]
    rows += [halcyon.SeatResult(p, 0, len(players) - i) for i, p in enumerate(players[2:])]
    return rows


def snapshot(tournament) -> tuple:
    tournament.refresh_from_db()
    return (
        tournament.rounds,
        list(Registration.objects.filter(tournament=tournament).order_by("pk").values_list()),
        AuditEntry.objects.filter(action="tournament_halcyon_table").count(),
    )


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def page(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(tournament) -> str:
    return f"/api/tournaments/{tournament.pk}/actions/"


def test_one_table_entered_by_hand_sets_the_places_and_the_league_points(night):
    tournament = halcyon_night(night, players=5, per_table=8)
    players = seated(tournament)[1]
    results = by_hand(players)
    outcome = services.tournament_halcyon_table_entered(
        actor=night.organiser, tournament=tournament, table_number=1, results=entered(results)
    )
    assert outcome == {"round": 1, "table": 1, "advancing": [], "final": True}
    expected = halcyon.table_places(results)
    assert expected[players[0]] == 1 and expected[players[1]] == 2 and expected[players[2]] == 3
    places = dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "place"))
    assert places == expected
    audit = AuditEntry.objects.get(action="tournament_halcyon_table")
    assert audit.data["source"] == "entered"
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    assert dict(EventResult.objects.filter(event=night.event).values_list("player_id", "place")) == expected
    league_services.standings_recompute(league_id=night.league.pk)
    points = dict(Standing.objects.filter(league=night.league, season=None).values_list("player_id", "points"))
    assert points[players[0]] == 5 and points[players[1]] == 4  # linear: players - place + 1


def test_a_replay_records_the_same_credits_it_would_as_entered_and_credits_are_conserved(night):
    """A bot-played Halcyon game ends with every credit paid out: the sum rule holds for real games."""
    tournament = halcyon_night(night, players=5, per_table=8)
    players = seated(tournament)[1]
    for seed in ("conserve/1", "conserve/2", "conserve/3"):
        document = bot_replay([seat_name(p) for p in players], seed=seed, preset="halcyon", stack=10)
        results, _ = table_results(document)
        assert sum(r.credits for r in results) == 10 * len(players)
        assert all((r.credits == 0) == (r.out_hand is not None) for r in results)
        assert all(r.out_hand is None or 1 <= r.out_hand <= len(players) for r in results)
    outcome = services.tournament_halcyon_table_entered(
        actor=night.organiser, tournament=tournament, table_number=1, results=entered(results)
    )
    assert outcome["final"]
    places = dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "place"))
    assert places == halcyon.table_places(results)


def test_three_tables_two_by_hand_one_by_replay_the_winners_advance_and_the_final_places_are_right(night):
    tournament = halcyon_night(night, players=12, per_table=4)
    tables = seated(tournament)
    assert sorted(tables) == [1, 2, 3]
    first = by_hand(tables[1])
    response = api(night.organiser).post(
        url(tournament), {"action": "halcyon_enter", "table": 1, "results": entered(first)}, format="json"
    )
    assert response.status_code == 200, response.json()
    document = bot_replay([seat_name(p) for p in tables[2]], seed="mix/2", preset="halcyon", stack=10)
    services.tournament_halcyon_table(
        actor=night.organiser, tournament=Tournament.objects.get(pk=tournament.pk), table_number=2, replay=document
    )
    second = table_results(document)[0]
    third = by_hand(list(reversed(tables[3])))
    fields = {"section": "halcyon", "action": "halcyon_enter", "table": "3"}
    for r in third:
        fields[f"credits_{r.player_id}"] = str(r.credits)
        fields[f"out_hand_{r.player_id}"] = "" if r.out_hand is None else str(r.out_hand)
    response = page(night.organiser).post(f"/manage/tournaments/{tournament.pk}/", fields)
    assert response.status_code == 302
    finalists = seated(Tournament.objects.get(pk=tournament.pk))[1]
    assert finalists == [p for results in (first, second, third) for p in halcyon.advancing(results, 1)]
    assert finalists[0] == tables[1][0] and finalists[-1] == tables[3][-1]
    sources = sorted(
        AuditEntry.objects.filter(action="tournament_halcyon_table").values_list("data__source", flat=True)
    )
    assert sources == ["entered", "entered", "replay"]
    final = by_hand(finalists)
    tournament.refresh_from_db()
    outcome = services.tournament_halcyon_table_entered(
        actor=night.organiser, tournament=tournament, table_number=1, results=entered(final)
    )
    assert outcome["final"]
    places = dict(
        Registration.objects.filter(tournament=tournament, place__isnull=False).values_list("player_id", "place")
    )
    assert places == halcyon.halcyon_places([[first, second, third], [final]])
    assert places[finalists[0]] == 1 and places[finalists[1]] == 2 and len(places) == 12
    body = page(night.organiser).get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert "recorded (entered)" in body and "recorded (replay)" in body


def refusals(players: list[int], outsider: int) -> list[tuple[list[dict], str, str]]:
    good = entered(by_hand(players))
    off_by_one = [dict(row) for row in good]
    off_by_one[0]["credits"] -= 1
    no_out = [dict(row) for row in good]
    no_out[-1]["out_hand"] = None
    too_late = [dict(row) for row in good]
    too_late[-1]["out_hand"] = len(players) + 1
    out_with_credits = [dict(row) for row in good]
    out_with_credits[0]["out_hand"] = 2
    wrong = [dict(row) for row in good]
    wrong[-1]["player"] = outsider
    return [
        (wrong, "Enter each player seated at table 1 once", "results"),
        (good[:-1], "Enter each player seated at table 1 once", "results"),
        (off_by_one, f"add up to {10 * len(players) - 1}", "results"),
        (no_out, "give the hand they went out in", f"out_hand_{players[-1]}"),
        (too_late, f"from 1 to {len(players)}", f"out_hand_{players[-1]}"),
        (out_with_credits, "never went out", f"out_hand_{players[0]}"),
    ]


def test_each_refusal_says_what_is_wrong_and_writes_nothing_through_the_service_the_api_and_the_page(night):
    tournament = halcyon_night(night, players=8, per_table=4)
    tables = seated(tournament)
    players = tables[1]
    for results, message, field in refusals(players, outsider=tables[2][0]):
        before = snapshot(tournament)
        with pytest.raises(ApplicationError, match=message) as caught:
            services.tournament_halcyon_table_entered(
                actor=night.organiser, tournament=tournament, table_number=1, results=results
            )
        assert caught.value.extra["field"] == field and caught.value.status_code == 400
        response = api(night.organiser).post(
            url(tournament), {"action": "halcyon_enter", "table": 1, "results": results}, format="json"
        )
        assert response.status_code == 400 and message in str(response.json())
        fields = {"section": "halcyon", "action": "halcyon_enter", "table": "1"}
        for row in results:
            fields[f"credits_{row['player']}"] = str(row["credits"])
            fields[f"out_hand_{row['player']}"] = "" if row["out_hand"] is None else str(row["out_hand"])
        response = page(night.organiser).post(f"/manage/tournaments/{tournament.pk}/", fields)
        assert response.status_code == 400 and message in response.content.decode()
        assert snapshot(tournament) == before
    bad = api(night.organiser).post(
        url(tournament),
        {"action": "halcyon_enter", "table": 1, "results": [{"player": players[0], "credits": -1}]},
        format="json",
    )
    assert bad.status_code == 400 and "credits" in str(bad.json())
    typed = page(night.organiser).post(
        f"/manage/tournaments/{tournament.pk}/",
        {"action": "halcyon_enter", "table": "1", f"credits_{players[0]}": "many"},
    )
    assert typed.status_code == 400 and "whole number" in typed.content.decode()
    assert 'value="many"' in typed.content.decode()  # what was typed stays in its field


def test_a_table_already_recorded_or_played_online_is_refused_with_409(night):
    tournament = halcyon_night(night, players=8, per_table=4)
    tables = seated(tournament)
    results = entered(by_hand(tables[1]))
    services.tournament_halcyon_table_entered(
        actor=night.organiser, tournament=tournament, table_number=1, results=results
    )
    before = snapshot(tournament)
    response = api(night.organiser).post(
        url(tournament), {"action": "halcyon_enter", "table": 1, "results": results}, format="json"
    )
    assert response.status_code == 409 and "already recorded" in response.json()["detail"]
    api(night.organiser).post(url(tournament), {"action": "open_online", "table": 2}, format="json")
    before = snapshot(tournament)
    response = api(night.organiser).post(
        url(tournament),
        {"action": "halcyon_enter", "table": 2, "results": entered(by_hand(tables[2]))},
        format="json",
    )
    assert response.status_code == 409 and "being played online" in response.json()["detail"]
    assert snapshot(tournament) == before
    body = page(night.organiser).get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert 'data-action="halcyon-enter-1"' not in body and 'data-action="halcyon-enter-2"' not in body


def test_only_organisers_enter_a_table_by_page_and_by_api(night):
    tournament = halcyon_night(night, players=8, per_table=4)
    results = entered(by_hand(seated(tournament)[1]))
    before = snapshot(tournament)
    response = api(night.member).post(
        url(tournament), {"action": "halcyon_enter", "table": 1, "results": results}, format="json"
    )
    assert response.status_code == 403 and "organisers" in response.json()["detail"]
    fields = {"action": "halcyon_enter", "table": "1"}
    for row in results:
        fields[f"credits_{row['player']}"] = str(row["credits"])
        fields[f"out_hand_{row['player']}"] = "" if row["out_hand"] is None else str(row["out_hand"])
    assert page(night.member).post(f"/manage/tournaments/{tournament.pk}/", fields).status_code == 403
    assert snapshot(tournament) == before


def test_the_control_room_offers_a_form_per_waiting_table_with_each_seated_player(night):
    tournament = halcyon_night(night, players=8, per_table=4)
    tables = seated(tournament)
    body = page(night.organiser).get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    for number, players in tables.items():
        assert f'data-action="halcyon-enter-{number}"' in body
        assert f'data-halcyon-total="{10 * len(players)}"' in body
        for player in players:
            assert f'name="credits_{player}"' in body and f'name="out_hand_{player}"' in body
