"""Many clients fire actions at one table at once (PostgreSQL row locks): only legal ones apply, each
key acts once, nothing errors, credits are conserved and the stored history replays to the stored state."""

import random
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import OperationalError, connection

from config.errors import ApplicationError
from games.engine import Game
from games.engine.replay import export_replay, play_replay
from games.online import services
from games.online.models import OnlineAction, OnlineTable
from games.online.selectors import table_state
from games.online.services.base import lock_table as _lock


def _need_postgresql() -> None:
    """Row locks need PostgreSQL (SQLite locks the whole file). Without it, outside CI, the test is skipped; under
    CI a skip fails the run (tests/conftest.py), and CI always has PostgreSQL."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL: set DATABASE_URL")


@pytest.mark.django_db(transaction=True)
def test_concurrent_actions_apply_once_each_and_only_when_legal(world, humans, open_table, scheduled):
    _need_postgresql()
    org, mem = world.users["organiser"], humans[0]
    table = open_table(seats=2)
    services.seat_take(actor=org, table=table)
    services.seat_take(actor=mem, table=table)
    services.table_start(actor=org, table=table)
    rounds, outcomes = 6, {"applied": 0, "repeated": 0, "refused": 0}
    lock = threading.Lock()
    for round_number in range(rounds):
        table.refresh_from_db()
        if table.status != "running":
            break
        views = {user.pk: table_state(table, user=user)["view"] for user in (org, mem)}
        version = table.version
        rng = random.Random(round_number)
        shots = []
        for i in range(16):
            user = rng.choice([org, mem])
            view = views[user.pk]
            verb = rng.choice(["select", "check", "call", "fold", "bet"])
            cards = view["cards"][: rng.randint(0, 2)] if verb == "select" else None
            shots.append((user, verb, cards, 10 if verb == "bet" else None, f"r{round_number}-{i % 5}"))
        barrier = threading.Barrier(len(shots))

        def fire(shot, barrier=barrier, version=version):
            user, verb, cards, amount, key = shot
            barrier.wait(timeout=30)
            try:
                answer = services.table_act(
                    actor=user,
                    table=OnlineTable(pk=table.pk),
                    verb=verb,
                    cards=cards,
                    amount=amount,
                    version=version,
                    key=key,
                )
                kind = "repeated" if answer.get("repeated") else "applied"
            except ApplicationError:
                kind = "refused"
            finally:
                connection.close()
            with lock:
                outcomes[kind] += 1

        with ThreadPoolExecutor(max_workers=len(shots)) as pool:
            list(pool.map(fire, shots))  # any exception other than a refusal fails the test here
        if not Game.from_json(OnlineTable.objects.get(pk=table.pk).state).in_hand:
            services.next_hand(table_id=table.pk, version=OnlineTable.objects.get(pk=table.pk).version)
    table.refresh_from_db()
    assert outcomes["applied"] >= 2 and outcomes["refused"] > 0
    assert OnlineAction.objects.filter(table=table).count() == outcomes["applied"]
    keys = list(OnlineAction.objects.filter(table=table).values_list("key", flat=True))
    assert len(keys) == len(set(keys))
    game = Game.from_json(table.state, history=table.history)
    assert game.total_credits() == 2 * table.buy_in
    replayed = play_replay(export_replay(game))
    assert replayed["stacks"] == {name: game.stacks[s] for s, name in enumerate(game.names)}


@pytest.mark.django_db(transaction=True)
def test_tables_of_one_event_do_not_wait_for_each_other(world, open_table):
    """An action locks its table row only, not the event, season and league it reads: while one table of an
    event is held, another table of the same event is locked at once."""
    from django.db import connections, transaction

    _need_postgresql()
    first, second = open_table(name="First"), open_table(name="Second")
    held, release, outcome = threading.Event(), threading.Event(), {}

    def hold_first() -> None:
        try:
            with transaction.atomic():
                _lock(first)
                held.set()
                release.wait(10)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_first)
    holder.start()
    try:
        assert held.wait(10)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            outcome["locked"] = _lock(second).pk  # the old lock (event rows too) waited here
            with pytest.raises(OperationalError), transaction.atomic(), connection.cursor() as cursor:
                # while the first table really is held by the other transaction
                cursor.execute("SELECT id FROM games_onlinetable WHERE id = %s FOR UPDATE NOWAIT", [first.pk])
    finally:
        release.set()
        holder.join(10)
    assert outcome["locked"] == second.pk


def test_starting_a_table_locks_league_and_event_before_the_table(world, humans, open_table, scheduled):
    """The app's one lock order (league, event, then table): starting a table takes its locks in it, so a
    tournament service holding the event and a start holding the table can never wait on each other."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _need_postgresql()
    table = open_table(seats=2)
    services.seat_take(actor=world.users["organiser"], table=table)
    services.seat_take(actor=humans[0], table=table)
    with CaptureQueriesContext(connection) as queries:
        services.table_start(actor=world.users["organiser"], table=table)
    locks = []  # the row locked by each locking statement: a SELECT ... FOR UPDATE's FROM, an UPDATE's table
    for query in queries.captured_queries:
        sql = query["sql"]
        locking = "FOR UPDATE" in sql or "FOR NO KEY UPDATE" in sql
        found = re.match(r'UPDATE "(\w+)"', sql) or (re.search(r'FROM "(\w+)"', sql) if locking else None)
        if found and found.group(1) not in locks:
            locks.append(found.group(1))
    assert locks[:3] == ["league_league", "league_event", "games_onlinetable"], locks
