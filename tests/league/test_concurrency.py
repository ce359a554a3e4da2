"""Item 1 of the hardening issue: one lock order everywhere, so ordinary concurrent use never deadlocks.

20 threads record, correct and adjust results and change settings in one league through the API
while a real Celery worker (on Redis in CI) recomputes the standings after every change.
"""

import threading

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import OperationalError, connection, connections
from django.db.models import Sum

from config import db as config_db
from config.celery import app, ping
from games.models import Game
from games.services import result_record
from league import services
from league.models import LedgerEntry, Standing
from tests.league.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 20
ROUNDS = 3
REQUEST_WAIT = 30.0  # seconds: DB_POOL_TIMEOUT's default (config/settings/base.py)


def standings_snapshot(league):
    return sorted(
        Standing.objects.filter(league=league).values_list(
            "scope", "player_id", "rank", "points", "wins", "net_credits", "events_played"
        )
    )


def test_1_twenty_threads_record_correct_and_adjust_while_the_standings_task_runs(world, settings, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("row locks and deadlocks need PostgreSQL (CI runs on it)")
    # The worker below runs in this process, and a worker shortens its process's wait for a pooled connection to
    # WORKER_DB_POOL_TIMEOUT (config.celery), as may one started earlier in this process: here the 20 threads are
    # web requests, which wait as a request does (DB_POOL_TIMEOUT's default), so a loaded machine makes them
    # slower, not failed.
    settings.WORKER_DB_POOL_TIMEOUT = REQUEST_WAIT
    for options in (connection.settings_dict["OPTIONS"], settings.DATABASES["default"]["OPTIONS"]):
        if isinstance(options.get("pool"), dict):
            monkeypatch.setitem(options["pool"], "timeout", REQUEST_WAIT)
    if connection.settings_dict["OPTIONS"].get("pool"):  # the next connection comes from a pool with that wait
        connection.close()
        connection.close_pool()
    organiser = world.users["organiser"]
    players = world.players
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    games = [
        result_record(
            actor=organiser,
            event=world.event,
            seats=[{"player": players[i].pk, "final_credits": 900}, {"player": players[i + 1].pk, "final_credits": 0}],
        )
        for i in range(0, 6, 2)
    ]
    statuses: list[tuple[str, int]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(THREADS)

    def work(index: int) -> None:
        client = client_for(organiser)
        barrier.wait(timeout=30)
        try:
            for round_number in range(ROUNDS):
                kind = index % 5
                a, b = players[(index + round_number) % 8], players[(index + round_number + 3) % 8]
                if kind == 0:
                    response = client.post(
                        "/api/games/",
                        {
                            "event": world.event.pk,
                            "seats": [{"player": a.pk, "final_credits": 700}, {"player": b.pk, "final_credits": 200}],
                        },
                        format="json",
                    )
                elif kind == 1:
                    game = games[(index + round_number) % len(games)]
                    seated = list(game.seats.values_list("player_id", flat=True))
                    split = 450 + 10 * index + round_number
                    response = client.post(
                        f"/api/games/{game.pk}/corrections/",
                        {
                            "reason": f"recount {index}-{round_number}",
                            "seats": [
                                {"player": seated[0], "final_credits": split},
                                {"player": seated[1], "final_credits": 900 - split},
                            ],
                        },
                        format="json",
                    )
                elif kind == 2:
                    response = client.post(
                        f"/api/events/{world.event.pk}/adjustments/",
                        {"player": a.pk, "amount": 5 + index, "reason": f"miscount {index}"},
                        format="json",
                    )
                elif kind == 3 and round_number % 2:
                    response = client.patch(
                        f"/api/events/{world.event.pk}/", {"name": f"Night {index}-{round_number}"}, format="json"
                    )
                elif kind == 3:
                    response = client.patch(
                        f"/api/seasons/{world.season.pk}/", {"name": f"Season {index}-{round_number}"}, format="json"
                    )
                else:
                    response = client.patch(
                        f"/api/leagues/{world.league.slug}/", {"description": f"edit {index}"}, format="json"
                    )
                with lock:
                    statuses.append((f"{kind}:{index}:{round_number}", response.status_code))
        finally:
            connections.close_all()

    try:
        with start_worker(app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
            threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=120)
            assert not any(thread.is_alive() for thread in threads)
            # The worker runs one task at a time in order: once this answers, every recomputation queued
            # by the writes above has run.
            assert ping.delay("drained").get(timeout=120) == "drained"
    finally:
        app.conf.task_always_eager = previous

    assert len(statuses) == THREADS * ROUNDS
    failed = [(name, code) for name, code in statuses if code not in (200, 201)]
    assert failed == []
    for game in Game.objects.filter(event=world.event):
        per_player = LedgerEntry.objects.filter(game=game).values("player_id").annotate(total=Sum("amount"))
        assert {row["total"] for row in per_player} == {0}, f"game {game.pk} does not balance"
    stored = standings_snapshot(world.league)
    assert stored
    services.standings_recompute(league_id=world.league.pk)
    assert standings_snapshot(world.league) == stored


def test_1_a_lost_lock_race_is_run_again_a_bounded_number_of_times(monkeypatch):
    class Deadlock(Exception):
        sqlstate = "40P01"

    calls = []

    def flaky():
        calls.append(1)
        if len(calls) < 3:
            raise OperationalError("deadlock detected") from Deadlock()
        return "done"

    monkeypatch.setattr(config_db.time, "sleep", lambda seconds: None)
    assert config_db.retry_on_conflict(flaky)() == "done"
    assert len(calls) == 3

    def always():
        calls.append(1)
        raise OperationalError("deadlock detected") from Deadlock()

    calls.clear()
    with pytest.raises(OperationalError):
        config_db.retry_on_conflict(always)()
    assert len(calls) == config_db.ATTEMPTS

    def broken():
        calls.append(1)
        raise OperationalError("connection refused")

    calls.clear()
    with pytest.raises(OperationalError):
        config_db.retry_on_conflict(broken)()
    assert len(calls) == 1  # not a lock race: not run again


def test_1_a_lock_race_still_lost_after_the_retries_is_a_503_with_retry_after_never_a_500(world, monkeypatch):
    class Deadlock(Exception):
        sqlstate = "40P01"

    def always_deadlocked(**kwargs):
        raise OperationalError("deadlock detected") from Deadlock()

    monkeypatch.setattr(services, "league_update", always_deadlocked)
    response = client_for(world.users["organiser"]).patch(
        f"/api/leagues/{world.league.slug}/", {"description": "busy"}, format="json"
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert "nothing was saved" in response.json()["detail"]
