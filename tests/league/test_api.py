"""The API end to end: leagues with validated rules, results, standings, CSV, chip history, claims, schema."""

import csv
import io

import pytest
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext

from league.models import League, Player
from league.services import player_create
from tests.league.conftest import client_for, forget_viewer


def record(client, world, finals, **extra):
    """Post a result and run what it queued after commit (the standings task), as a real request would."""
    seats = [{"player": p.pk, "final_credits": f} for p, f in zip(world.players, finals, strict=False)]
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post("/api/games/", {"event": world.event.pk, "seats": seats, **extra}, format="json")


def test_a_league_is_created_with_rules_checked_by_the_engine(world):
    client = client_for(world.users["outsider"])
    response = client.post(
        "/api/leagues/",
        {
            "name": "Outer Rim",
            "preset": "cantina",
            "option_overrides": {"ante": 3},
            "points_formula": "custom",
            "points_parameters": {"expression": "players - place + 1 + knockouts"},
            "tie_breakers": ["wins", "net_credits"],
            "best_n": 5,
        },
        format="json",
    )
    assert response.status_code == 201, response.data
    assert response.data["slug"] == "outer-rim" and response.data["best_n"] == 5
    league = League.objects.get(slug="outer-rim")
    assert league.memberships.get().player.user == world.users["outsider"]  # the creator organises it


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"preset": "sabaccdome"}, "Unknown preset"),
        ({"option_overrides": {"ante": -4}}, "not allowed"),
        ({"points_formula": "custom", "points_parameters": {"expression": "__import__('os')"}}, "cannot be used"),
        ({"points_formula": "fixed", "points_parameters": {"table": "first"}}, "non-empty list"),
        ({"tie_breakers": ["luck"]}, "Unknown tie-breaker"),
    ],
)
def test_bad_league_settings_are_refused_with_a_clear_message(world, payload, message):
    client = client_for(world.users["organiser"])
    response = client.patch(f"/api/leagues/{world.league.slug}/", payload, format="json")
    assert response.status_code == 400
    assert message in response.data["detail"]
    world.league.refresh_from_db()
    assert world.league.preset == "better" and world.league.points_formula == "linear"


def test_recording_through_the_api_updates_standings_csv_and_chip_history(world):
    client = client_for(world.users["organiser"])
    response = record(client, world, [1350, 0, 0])
    assert response.status_code == 201, response.data
    game_id = response.data["id"]
    assert "replay_document" not in response.data
    standings = client_for(None).get(f"/api/leagues/{world.league.slug}/standings/?season={world.season.pk}").json()
    assert [(r["display_name"], r["rank"], r["points"]) for r in standings["rows"]] == [
        ("Han", 1, 3.0),
        ("Lando", 2, 2.0),  # out of credits together: they share second place, linear 3 - 2 + 1
        ("Leia", 2, 2.0),
    ]
    assert standings["rows"][0]["net_credits"] == 900
    csv_response = client_for(None).get(f"/api/leagues/{world.league.slug}/standings/csv/")
    assert csv_response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(csv_response.content.decode())))
    assert rows[0][:3] == ["rank", "player", "points"] and rows[1][:3] == ["1", "Han", "3.0"]

    history = client_for(None).get(f"/api/games/{game_id}/chip-history/").data
    han = next(s for s in history["series"] if s["display_name"] == "Han")
    assert han["points"] == [{"hand": 0, "credits": 450}, {"hand": None, "credits": 1350}]
    player = client_for(None).get(f"/api/players/{world.players[0].pk}/chip-history/?league={world.league.slug}").data
    assert player["net_credits"] == 900 and player["games"][0]["points"][-1]["credits"] == 1350
    season = client_for(None).get(f"/api/leagues/{world.league.slug}/chip-history/?season={world.season.pk}").data
    assert {s["display_name"]: s["points"][-1]["net_credits"] for s in season["series"]} == {
        "Han": 900,
        "Lando": -450,
        "Leia": -450,
    }
    ledger_csv = client_for(None).get(f"/api/players/{world.players[1].pk}/ledger/csv/?league={world.league.slug}")
    lines = list(csv.reader(io.StringIO(ledger_csv.content.decode())))
    assert [line[3] for line in lines[1:]] == ["Buy-in", "Hand lost"] and lines[-1][7] == "0"


def test_csv_exports_quote_names_a_spreadsheet_would_run_as_formulas(world):
    han = world.players[0]
    han.display_name = '=HYPERLINK("http://evil.example","Han")'
    han.save()
    assert record(client_for(world.users["organiser"]), world, [1350, 0, 0]).status_code == 201
    response = client_for(None).get(f"/api/leagues/{world.league.slug}/standings/csv/")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[1][1] == "'" + han.display_name
    assert rows[2][rows[0].index("net_credits")] == "-450"  # numbers keep their sign: only text is quoted


def test_an_api_entry_error_names_the_problem_and_writes_nothing(world):
    client = client_for(world.users["organiser"])
    response = record(client, world, [1000, 0, 0])
    assert response.status_code == 400
    assert "Credits do not balance: 1350 came in" in response.data["detail"]
    assert response.data["extra"] == {
        "field": "final_credits",
        "fields": {"final_credits": [response.data["detail"]]},
        "credits_in": 1350,
        "credits_out": 1000,
    }
    assert client.get("/api/games/").data["count"] == 0


def test_a_correction_through_the_api_is_listed_with_its_author(world):
    client = client_for(world.users["organiser"])
    game_id = record(client, world, [1350, 0, 0]).data["id"]
    seats = [{"player": p.pk, "final_credits": f} for p, f in zip(world.players, [0, 1350, 0], strict=False)]
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(
            f"/api/games/{game_id}/corrections/", {"reason": "wrong winner", "seats": seats}, format="json"
        )
    assert response.status_code == 201, response.data
    listed = client.get(f"/api/games/{game_id}/corrections/").data
    assert listed[0]["author"] == "organiser-a" and listed[0]["reason"] == "wrong winner"
    standings = client.get(f"/api/leagues/{world.league.slug}/standings/").json()
    assert standings["rows"][0]["display_name"] == "Lando"
    history = client.get(f"/api/games/{game_id}/chip-history/").data  # the corrected result, from the ledger
    assert {s["display_name"]: s["points"][-1]["credits"] for s in history["series"]} == {
        "Han": 0,
        "Lando": 1350,
        "Leia": 0,
    }


def test_a_guest_is_claimed_with_the_code_from_the_organiser(world):
    organiser = client_for(world.users["organiser"])
    created = organiser.post("/api/players/", {"display_name": "Guest Ahsoka"}, format="json").data
    assert created["is_guest"] and created["claim_code"]
    newcomer = client_for(world.users["outsider"])
    Player.objects.filter(user=world.users["outsider"]).delete()
    wrong = newcomer.post(f"/api/players/{created['id']}/claim/", {"claim_code": "nope"}, format="json")
    assert wrong.status_code == 400 and "claim code does not match" in wrong.data["detail"]
    right = newcomer.post(f"/api/players/{created['id']}/claim/", {"claim_code": created["claim_code"]}, format="json")
    assert right.status_code == 200 and right.data["is_guest"] is False and right.data["claim_code"] is None
    again = client_for(world.users["member"]).post(
        f"/api/players/{created['id']}/claim/", {"claim_code": created["claim_code"]}, format="json"
    )
    assert again.status_code == 409


def test_claim_codes_are_not_shown_to_others(world):
    guest = player_create(actor=world.users["organiser"], display_name="Guest")
    assert client_for(world.users["member"]).get(f"/api/players/{guest.pk}/").status_code == 404  # not in a league
    world.league.memberships.create(player=guest)
    assert client_for(world.users["member"]).get(f"/api/players/{guest.pk}/").data["claim_code"] is None
    assert client_for(world.users["organiser"]).get(f"/api/players/{guest.pk}/").data["claim_code"] == guest.claim_code


def test_the_schema_covers_the_league_api_without_warnings(db):
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path in (
        "/api/leagues/{slug}/standings/",
        "/api/leagues/{slug}/standings/csv/",
        "/api/games/",
        "/api/games/{id}/corrections/",
        "/api/players/{id}/chip-history/",
        "/api/ledger/",
        "/api/chip-sets/{slug}/stack/",
    ):
        assert path in schema["paths"], path
    assert not GENERATOR_STATS._warn_cache and not GENERATOR_STATS._error_cache


def test_filters_and_pagination_on_lists(world):
    client = client_for(world.users["organiser"])
    record(client, world, [1350, 0, 0])
    ledger = client.get(f"/api/ledger/?player={world.players[0].pk}&kind=hand_won").data
    assert ledger["count"] == 1 and ledger["results"][0]["amount"] == 900
    players = client.get(f"/api/players/?search=Le&memberships__league__slug={world.league.slug}").data
    assert [p["display_name"] for p in players["results"]] == ["Leia"]
    assert "next" in players and "count" in players


@pytest.mark.parametrize("logged_in", [False, True])
def test_query_counts_are_pinned(world, django_assert_num_queries, logged_in):
    client = client_for(world.users["member"] if logged_in else None)
    record(client_for(world.users["organiser"]), world, [1350, 0, 0])
    slug = world.league.slug
    with django_assert_num_queries(2):  # count + page; what the user may see is a subquery
        assert client.get("/api/leagues/").status_code == 200
    with django_assert_num_queries(1):
        assert client.get(f"/api/leagues/{slug}/").status_code == 200
    with django_assert_num_queries(2):  # the league, then the stored standings table in one query
        assert len(client.get(f"/api/leagues/{slug}/standings/").json()["rows"]) == 3
    with django_assert_num_queries(2):
        assert len(client.get(f"/api/leagues/{slug}/standings/?season={world.season.pk}").json()["rows"]) == 3
    # A signed-in user's league roles, once: whether they answer for a guest, so may see its claim code.
    roles = 1 if logged_in else 0
    forget_viewer(world.users["member"])
    with django_assert_num_queries(2 + roles):
        assert client.get("/api/players/").status_code == 200
    forget_viewer(world.users["member"])
    with django_assert_num_queries(1 + roles):
        assert client.get(f"/api/players/{world.players[0].pk}/").status_code == 200


def test_the_standings_query_count_does_not_grow_with_players(world):
    client = client_for(world.users["organiser"])
    record(client, world, [1350, 0, 0])
    with CaptureQueriesContext(connection) as few:
        client.get(f"/api/leagues/{world.league.slug}/standings/")
    record(client, world, [3600, 0, 0, 0, 0, 0, 0, 0])
    with CaptureQueriesContext(connection) as many:
        rows = client.get(f"/api/leagues/{world.league.slug}/standings/").json()["rows"]
    assert len(rows) == 8 and len(many.captured_queries) == len(few.captured_queries)


def test_standings_before_any_result_and_of_an_unknown_season(world):
    client = client_for(None)
    empty = client.get(f"/api/leagues/{world.league.slug}/standings/?season={world.season.pk}")
    assert empty.status_code == 200 and empty.json()["rows"] == [] and empty.json()["season"] == world.season.pk
    for season in ("999999", "abc"):  # refused, naming the league's seasons (tests/api/test_query_params.py)
        refused = client.get(f"/api/leagues/{world.league.slug}/standings/?season={season}")
        assert refused.status_code == 400 and refused.json()["extra"]["allowed"] == [world.season.pk, "all"]
