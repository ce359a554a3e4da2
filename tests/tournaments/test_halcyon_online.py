"""Halcyon tables played online, end to end through the real services: the control room opens each table of the
round (and then the final table) with the Halcyon preset; the seated players play it (decided by sensible bots,
through `table_act` as a browser would); when its game ends the table reports it through `games.hooks`, and the
task records it into the round through the same path as an uploaded replay, once. Physical tables (replays) and
online tables mix in one event."""

import random

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.demo import bot_replay
from games.engine import Game
from games.engine.bots import SensibleBot
from games.online import services as online
from games.online.models import OnlineTable, TableStatus
from league import services as league_services
from league.models import AuditEntry, EventResult, LedgerEntry, LedgerKind, Standing
from tests.league.conftest import eager_tasks  # noqa: F401 (fixture)
from tests.online.helpers import act
from tournaments import halcyon, services, tasks
from tournaments.models import Registration, Tournament
from tournaments.services.halcyon import seat_name

from .test_halcyon_games import halcyon_night, seated

pytestmark = pytest.mark.usefixtures("eager_tasks")


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def open_online(night, tournament, number: int) -> OnlineTable:
    """The organiser opens a table online through the API (the control room's action)."""
    response = api(night.organiser).post(
        f"/api/tournaments/{tournament.pk}/actions/", {"action": "open_online", "table": number}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert "every player deals once" in response.json()["detail"]
    return OnlineTable.objects.filter(event=night.event, tournament_table=number).order_by("-pk").first()


def play(night, table: OnlineTable, users: dict, recorded: list) -> list[halcyon.SeatResult]:
    """Start the table and play it to its end; each awaited player decides as a sensible bot would. Returns each
    player's credits and the hand they went out in, read from the engine (not from the tournament)."""
    online.table_start(actor=night.organiser, table=table)
    by_name = {seat.name: seat for seat in table.seats.all()}
    for _ in range(2_000):
        table.refresh_from_db()
        if table.status == TableStatus.FINISHED:
            break
        game = Game.from_json(table.state)
        if not game.in_hand:
            _name, args = next(call for call in reversed(recorded) if call[0] == "next_hand")
            assert online.next_hand(table_id=args[0], version=args[1])
            continue
        engine_seat = game.waiting_for()[0]
        decision = SensibleBot(random.Random(table.version)).decide(game.view_for(engine_seat))
        act(table, users[by_name[game.names[engine_seat]].player_id], decision)
    assert table.status == TableStatus.FINISHED
    game = Game.from_json(table.state)
    hands = [result for result in table.results if "stacks" in result]
    dealers = [hand["dealer"] for hand in hands]
    # Every player deals exactly once: nobody twice, and whoever never dealt had gone out before their turn.
    assert len(dealers) == len(set(dealers))
    for engine_seat, name in enumerate(game.names):
        assert name in dealers or game.out_at.get(engine_seat) is not None
    assert game.options.end_rule == "everyone_deals" and game.options.starting_stack == 10
    return [
        halcyon.SeatResult(by_name[name].player_id, game.stacks[s], game.out_at.get(s))
        for s, name in enumerate(game.names)
    ]


def play_online_round(night, tournament, users, recorded, django_capture_on_commit_callbacks, tables=None):
    played = {}
    for number, players in sorted(seated(tournament).items()):
        if tables is not None and number not in tables:
            continue
        with django_capture_on_commit_callbacks(execute=True):
            table = open_online(night, tournament, number)
            assert [s.player_id for s in table.seats.order_by("number")] == players
            played[number] = play(night, table, users, recorded)
        tournament.refresh_from_db()
    return played


def places_of(tournament) -> dict[int, int]:
    return dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "place"))


def test_one_halcyon_table_played_online_sets_the_places_and_the_league_points(
    night, users, recorded, django_capture_on_commit_callbacks
):
    tournament = halcyon_night(night, players=5, per_table=8)
    played = play_online_round(night, tournament, users, recorded, django_capture_on_commit_callbacks)
    expected = halcyon.table_places(played[1])
    assert places_of(tournament) == expected
    table = OnlineTable.objects.get(event=night.event)
    assert table.preset == "halcyon" and table.options["betting"] == "fixed_stay"
    recorded_rows = AuditEntry.objects.filter(action="tournament_halcyon_table")
    assert recorded_rows.count() == 1 and recorded_rows.get().data["online_table"] == table.pk
    # Busts at a Halcyon table eliminate nobody early: the place comes from the whole game.
    assert not AuditEntry.objects.filter(action="tournament_eliminate").exists()

    # The task delivered again (a retry, a second worker) records nothing more.
    assert tasks.halcyon_online_table.run(event_id=night.event.pk, table_id=table.pk, tournament_table=1) is False
    assert AuditEntry.objects.filter(action="tournament_halcyon_table").count() == 1
    assert places_of(tournament) == expected

    services.tournament_complete(actor=night.organiser, tournament=tournament)
    assert sum(LedgerEntry.objects.filter(event=night.event).values_list("amount", flat=True)) == 0
    assert dict(EventResult.objects.filter(event=night.event).values_list("player_id", "place")) == expected
    league_services.standings_recompute(league_id=night.league.pk)
    points = dict(Standing.objects.filter(league=night.league, season=None).values_list("player_id", "points"))
    assert set(points) >= set(expected)
    assert all(points[p] == 5 for p in expected if expected[p] == 1)  # linear: players - place + 1


def test_three_halcyon_tables_online_send_their_winners_to_a_final_table_played_online(
    night, users, recorded, django_capture_on_commit_callbacks
):
    tournament = halcyon_night(night, players=12, per_table=4)
    first = play_online_round(night, tournament, users, recorded, django_capture_on_commit_callbacks)
    assert sorted(first) == [1, 2, 3]
    finalists = seated(tournament)
    assert list(finalists) == [1]
    expected_finalists = [p for number in (1, 2, 3) for p in halcyon.advancing(first[number], 1)]
    assert finalists[1] == expected_finalists
    final = play_online_round(night, tournament, users, recorded, django_capture_on_commit_callbacks)
    places = places_of(tournament)
    assert places == halcyon.halcyon_places([[first[1], first[2], first[3]], [final[1]]])
    assert all(places[p] <= len(expected_finalists) for p in expected_finalists)
    assert OnlineTable.objects.filter(event=night.event, status=TableStatus.FINISHED).count() == 4

    services.tournament_complete(actor=night.organiser, tournament=tournament)
    prizes = LedgerEntry.objects.filter(event=night.event, kind=LedgerKind.PAYOUT)
    assert -sum(prizes.values_list("amount", flat=True)) == 120  # the whole pool of 12 x 10
    assert sum(LedgerEntry.objects.filter(event=night.event).values_list("amount", flat=True)) == 0
    assert dict(EventResult.objects.filter(event=night.event).values_list("player_id", "place")) == places
    league_services.standings_recompute(league_id=night.league.pk)
    points = dict(Standing.objects.filter(league=night.league, season=None).values_list("player_id", "points"))
    assert all(points[p] == 12 for p in places if places[p] == 1)  # linear: players - place + 1


def test_a_mixed_event_records_one_table_by_replay_and_two_played_online(
    night, users, recorded, django_capture_on_commit_callbacks
):
    tournament = halcyon_night(night, players=12, per_table=4)
    tables = seated(tournament)
    document = bot_replay([seat_name(p) for p in tables[1]], seed="mixed/1", preset="halcyon", stack=10)
    outcome = services.tournament_halcyon_table(
        actor=night.organiser, tournament=tournament, table_number=1, replay=document
    )
    assert outcome == {"round": 1, "table": 1, "advancing": [], "final": False}
    tournament.refresh_from_db()
    replayed = services.halcyon.table_results(document)[0]
    online_played = play_online_round(
        night, tournament, users, recorded, django_capture_on_commit_callbacks, tables={2, 3}
    )
    finalists = seated(tournament)[1]
    assert finalists == [
        p for results in (replayed, online_played[2], online_played[3]) for p in halcyon.advancing(results, 1)
    ]
    rows = AuditEntry.objects.filter(action="tournament_halcyon_table")
    sources = sorted(rows.values_list("data__source", flat=True))
    assert sources == ["online", "online", "replay"]
    final = play_online_round(night, tournament, users, recorded, django_capture_on_commit_callbacks)
    assert places_of(tournament) == halcyon.halcyon_places([[replayed, online_played[2], online_played[3]], [final[1]]])


def snapshot():
    return (
        list(Tournament.objects.values()),
        list(Registration.objects.values()),
        list(OnlineTable.objects.values_list("pk", "status")),
        LedgerEntry.objects.count(),
        AuditEntry.objects.count(),
    )


def test_refusals_are_clear_and_write_nothing(night, users, recorded, django_capture_on_commit_callbacks):
    tournament = halcyon_night(night, players=8, per_table=4)
    url = f"/api/tournaments/{tournament.pk}/actions/"
    organiser = api(night.organiser)
    before = snapshot()
    member = api(night.member).post(url, {"action": "open_online", "table": 1}, format="json")
    assert member.status_code == 403 and "organisers" in member.json()["detail"]
    nobody = organiser.post(url, {"action": "open_online", "table": 5}, format="json")
    assert (
        nobody.status_code == 400
        and "Table 5 has nobody seated in this round; the tables are 1, 2" in (nobody.json()["detail"])
    )
    assert snapshot() == before

    table = open_online(night, tournament, 1)
    before = snapshot()
    twice = organiser.post(url, {"action": "open_online", "table": 1}, format="json")
    assert twice.status_code == 409 and f"already has an online table ({table.pk})" in twice.json()["detail"]
    document = bot_replay([seat_name(p) for p in seated(tournament)[1]], seed="r", preset="halcyon", stack=10)
    upload = organiser.post(url, {"action": "halcyon_table", "table": 1, "replay": document}, format="json")
    assert upload.status_code == 409 and "being played online" in upload.json()["detail"]
    assert snapshot() == before

    # A table recorded by its replay is not opened online again in the same round.
    second = bot_replay([seat_name(p) for p in seated(tournament)[2]], seed="r2", preset="halcyon", stack=10)
    services.tournament_halcyon_table(actor=night.organiser, tournament=tournament, table_number=2, replay=second)
    before = snapshot()
    again = organiser.post(url, {"action": "open_online", "table": 2}, format="json")
    assert again.status_code == 409 and "Table 2's game of round 1 is already recorded" in again.json()["detail"]
    assert snapshot() == before

    # An unfinished online table records nothing when the task runs early.
    assert tasks.halcyon_online_table.run(event_id=night.event.pk, table_id=table.pk, tournament_table=1) is False
    assert snapshot() == before


def test_the_pages_and_the_api_show_the_rounds_and_the_online_tables(
    night, users, recorded, django_capture_on_commit_callbacks
):
    tournament = halcyon_night(night, players=8, per_table=4)
    organiser = Client()
    organiser.force_login(night.organiser)
    url = f"/manage/tournaments/{tournament.pk}/"
    page = organiser.get(url).content.decode()
    assert 'data-action="open-online-1"' in page and 'data-action="open-online-2"' in page
    response = organiser.post(url, {"action": "open_online", "table": "1", "section": "online"})
    assert response.status_code == 302
    table = OnlineTable.objects.get(event=night.event, tournament_table=1)
    public = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'href="/tables/{table.pk}/"' in public and 'data-halcyon-round="1"' in public
    detail = api(night.member).get(f"/api/tournaments/{tournament.pk}/").json()
    assert detail["online_tables"] == [{"table": 1, "id": table.pk, "status": "open"}]
    first = detail["halcyon_rounds"][0]
    assert first["round"] == 1 and not first["final"]
    assert [(t["table"], t["online"] and t["online"]["id"], t["recorded"]) for t in first["tables"]] == [
        (1, table.pk, False),
        (2, None, False),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        play(night, table, users, recorded)
    detail = api(night.member).get(f"/api/tournaments/{tournament.pk}/").json()
    row = detail["halcyon_rounds"][0]["tables"][0]
    assert row["recorded"] and row["source"] == "online" and row["online"]["status"] == "finished"
    assert sorted(r["place"] for r in row["results"])[0] == 1
    page = organiser.get(url).content.decode()
    assert 'data-action="open-online-1"' not in page and 'data-action="open-online-2"' in page


def test_the_clock_leaves_a_halcyon_online_tables_forced_bets_alone(night, django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.structures import Level, structure_to_json

    tournament = halcyon_night(night, players=8, per_table=4)
    tournament.structure = structure_to_json(
        [Level(ante=1, length=1, unit="seconds"), Level(ante=2, small_blind=1, big_blind=2, length=10)]
    )
    tournament.save(update_fields=["structure"])
    table = open_online(night, tournament, 1)
    options = dict(table.options)
    with django_capture_on_commit_callbacks(execute=True):
        announced = services.tournament_clock_tick(
            tournament_id=tournament.pk, now=timezone.now() + timedelta(seconds=5)
        )
    assert any(item.level_index == 1 for item in announced)  # level 2 was announced
    table.refresh_from_db()
    assert table.options == options and table.options["ante"] == 1 and table.pending_levels is None


def test_the_organiser_records_a_finished_online_game_the_task_did_not(night, users, recorded):
    tournament = halcyon_night(night, players=8, per_table=4)
    url = f"/api/tournaments/{tournament.pk}/actions/"
    organiser = api(night.organiser)
    before = snapshot()
    never = organiser.post(url, {"action": "halcyon_online_record", "table": 1}, format="json")
    assert never.status_code == 400 and "has not been played online in round 1" in never.json()["detail"]
    assert snapshot() == before
    table = open_online(night, tournament, 1)
    early = organiser.post(url, {"action": "halcyon_online_record", "table": 1}, format="json")
    assert early.status_code == 409 and "not finished" in early.json()["detail"]
    # Played with its after-commit report never delivered (no worker, a lost message): nothing is recorded.
    played = play(night, table, users, recorded)
    assert tournament.__class__.objects.get(pk=tournament.pk).rounds == []
    page = Client()
    page.force_login(night.organiser)
    control = f"/manage/tournaments/{tournament.pk}/"
    assert 'data-action="halcyon-online-record-1"' in page.get(control).content.decode()
    assert (
        'data-action="halcyon-online-record-1"' not in Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    )
    response = page.post(control, {"action": "halcyon_online_record", "table": "1", "section": "halcyon-rounds"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert {row[0]: row[1] for row in tournament.rounds[0]["1"]} == {seat.player_id: seat.credits for seat in played}
    before = snapshot()
    again = page.post(control, {"action": "halcyon_online_record", "table": "1", "section": "halcyon-rounds"})
    assert again.status_code == 409 and "already recorded" in again.content.decode()
    assert snapshot() == before
    # The report arriving late records nothing more.
    assert tasks.halcyon_online_table.run(event_id=night.event.pk, table_id=table.pk, tournament_table=1) is False
    assert AuditEntry.objects.filter(action="tournament_halcyon_table").count() == 1
