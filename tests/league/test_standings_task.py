"""The standings task: idempotent, and it runs through a real Celery worker."""

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app
from games.services import result_record
from league.models import Standing
from league.services import ALL_TIME, season_scope
from league.tasks import standings_recompute_task


def snapshot(league):
    return sorted(
        Standing.objects.filter(league=league).values_list(
            "scope", "player_id", "rank", "points", "wins", "net_credits"
        )
    )


def record(world):
    han, lando, leia = world.players[:3]
    seats = [
        {"player": han.pk, "final_credits": 1350},
        {"player": lando.pk, "final_credits": 0},
        {"player": leia.pk, "final_credits": 0, "place": 3},
    ]
    seats[1]["place"], seats[0]["place"] = 2, 1
    result_record(actor=world.users["organiser"], event=world.event, seats=seats)


def test_running_the_task_twice_gives_the_same_rows_and_no_duplicates(world):
    record(world)
    first = standings_recompute_task.apply(args=[world.league.pk]).get()
    rows = snapshot(world.league)
    second = standings_recompute_task.apply(args=[world.league.pk]).get()
    assert first == second == len(rows) == 6  # three players, season table and all-time table
    assert snapshot(world.league) == rows
    assert {scope for scope, *_ in rows} == {ALL_TIME, season_scope(world.season.pk)}
    assert standings_recompute_task.apply(args=[987654]).get() == 0  # a deleted league is not an error


@pytest.mark.django_db(transaction=True)
def test_the_task_runs_through_a_real_worker(world):
    record(world)
    Standing.objects.filter(league=world.league).delete()
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        with start_worker(app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
            written = standings_recompute_task.delay(world.league.pk).get(timeout=30)
    finally:
        app.conf.task_always_eager = previous
    assert written == 6
    assert Standing.objects.filter(league=world.league, scope=ALL_TIME, rank=1).get().player == world.players[0]
