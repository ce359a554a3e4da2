"""Bad input to the games API: every case is a 4xx that names the problem, and nothing is written.

Numbers past what a database integer column holds must be refused before they reach it (on
PostgreSQL they would otherwise be a 500).
"""

import pytest
from django.test import TestCase

from games.models import Game, ResultCorrection, Seat
from games.services import result_record
from league.models import AuditEntry, EventResult, LedgerEntry, Standing
from tests.league.conftest import client_for

HUGE = 2**40


def counts():
    return {
        model.__name__: model.objects.count()
        for model in (Game, Seat, LedgerEntry, AuditEntry, EventResult, ResultCorrection, Standing)
    }


def post_result(world, seats, **extra):
    client = client_for(world.users["organiser"])
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post("/api/games/", {"event": world.event.pk, "seats": seats, **extra}, format="json")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("buy_in", HUGE),
        ("final_credits", HUGE),
        ("rebuy_credits", HUGE),
        ("addon_credits", HUGE),
        ("rebuys", HUGE),
        ("place", HUGE),
        ("knockouts", HUGE),
    ],
)
def test_a_seat_number_too_large_for_the_database_is_a_400_and_writes_nothing(world, field, value):
    han, lando = world.players[:2]
    before = counts()
    seats = [{"player": han.pk, "final_credits": 900}, {"player": lando.pk, "final_credits": 0}]
    seats[0][field] = value
    response = post_result(world, seats)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid" and field in body["extra"]["fields"]["seats"]["0"]
    assert f"seats[0].{field}" in body["detail"] and "less than or equal to" in body["detail"]
    assert counts() == before


def test_a_round_too_large_for_the_database_is_a_400(world):
    han, lando = world.players[:2]
    before = counts()
    response = post_result(
        world, [{"player": han.pk, "final_credits": 900}, {"player": lando.pk, "final_credits": 0}], round=HUGE
    )
    assert response.status_code == 400 and "round" in response.json()["extra"]["fields"]
    assert counts() == before


def test_a_game_whose_credits_add_up_past_the_limit_is_refused_by_name(world):
    """Each seat's numbers may be fine and their sum still too large for a stack."""
    players = world.players[:3]
    before = counts()
    seats = [
        {"player": p.pk, "buy_in": 900_000_000, "final_credits": f}
        for p, f in zip(players, [1_000_000_000, 1_000_000_000, 700_000_000], strict=True)
    ]
    response = post_result(world, seats)
    assert response.status_code == 400, response.content
    assert "at most" in str(response.json())
    assert counts() == before


def test_the_service_refuses_numbers_too_large_for_the_database(world):
    from config.errors import ApplicationError

    han, lando = world.players[:2]
    before = counts()
    with pytest.raises(ApplicationError, match="at most"):
        result_record(
            actor=world.users["organiser"],
            event=world.event,
            seats=[
                {"player": han.pk, "knockouts": HUGE, "final_credits": 900},
                {"player": lando.pk, "final_credits": 0},
            ],
        )
    with pytest.raises(ApplicationError, match="at most"):
        result_record(
            actor=world.users["organiser"],
            event=world.event,
            round=HUGE,
            seats=[{"player": han.pk, "final_credits": 900}, {"player": lando.pk, "final_credits": 0}],
        )
    assert counts() == before


def test_a_correction_with_a_number_too_large_is_a_400_and_books_nothing(world):
    han, lando = world.players[:2]
    game = result_record(
        actor=world.users["organiser"],
        event=world.event,
        seats=[{"player": han.pk, "final_credits": 900}, {"player": lando.pk, "final_credits": 0}],
    )
    before = counts()
    response = client_for(world.users["organiser"]).post(
        f"/api/games/{game.pk}/corrections/",
        {
            "reason": "recount",
            "seats": [{"player": han.pk, "final_credits": HUGE}, {"player": lando.pk, "final_credits": 0}],
        },
        format="json",
    )
    assert response.status_code == 400, response.content
    assert counts() == before


def test_a_table_number_too_large_for_the_database_is_a_400(world):
    from games.models import Table

    response = client_for(world.users["organiser"]).post(
        f"/api/events/{world.event.pk}/tables/", {"name": "Table X", "number": HUGE}, format="json"
    )
    assert response.status_code == 400 and "number" in response.json()["extra"]["fields"]
    assert not Table.objects.exists()


def test_the_games_list_does_not_load_each_replay(world, django_assert_num_queries):
    """has_replay is answered by the list query, not by loading each game's deferred replay document."""
    han, lando = world.players[:2]
    for _ in range(5):
        result_record(
            actor=world.users["organiser"],
            event=world.event,
            seats=[{"player": han.pk, "final_credits": 900}, {"player": lando.pk, "final_credits": 0}],
        )
    client = client_for(world.users["member"])
    with django_assert_num_queries(3):  # count, page (visibility is a subquery), seats with their players
        response = client.get("/api/games/")
    assert response.status_code == 200 and response.json()["count"] == 5
    assert all(row["has_replay"] is False for row in response.json()["results"])
