"""Tournament benchmark: a 300-player freezeout on 38 tables with a compressed clock, through the real services.

What runs: registration of every player (buy-ins booked through the league's ledger service), the seed hash and
the seat draw, the clock started on a compressed structure (2-second levels), then the tables play until one
player is left. In the main process a thread does what Celery beat does in production (`clock_tick_due()` every
half second) and another what the worker does with the tick scheduled for the exact time of the next change
(eta); both call the services in-process, without a broker, so the figures are the services' own.

The tables play concurrently, as an event's online tables do: `--workers` processes (4 by default; as Celery
worker processes, each with its own database connection) each deal the next hand of the table waiting longest
for one that no other worker is playing (the table's own lock, a PostgreSQL advisory lock, as a table's row lock
in `games.online.services`). A hand is one hand of Coruscant Shift (the `better` preset's betting) by sensible
bots on the engine, with the blinds of the level the clock last announced (a new level takes effect at each
table's next hand, as `next_hand` applies a pending level); it holds its players' stack rows, so a player moved by
balancing joins the new table's hands only once the hand they are in is over, and no chip is lost or made (checked
at the end). A hand that leaves a player with nothing reports it, and a thread in the main process does what the
`tournaments.online_busts` task does: it eliminates the player (knocked out by the hand's biggest winner) and
balances the tables, through the services under the tournament's lock, while the tables play on.

Reported: the time to finish; the clock's lag between each level's scheduled time and its announcement, and the
tables' lag between a level's scheduled time and each table's first hand dealt under it (p95 and worst; aim under
1 s at p95, ratios printed against that aim); the balancing work per elimination (moves, ms) against the pure
`seating.balance` computation on the same tables (the named peer: the services' overhead ratio).

Run: `.venv/bin/python -m bench.tournament_bench [--players 300] [--seats 8] [--workers 4]` (creates and drops
postgres://postgres@127.0.0.1:5432/sabacc_tournament_bench; `TOURNAMENT_BENCH_URL` overrides it).
"""

import argparse
import os
import queue
import random
import statistics
import threading
import time

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/sabacc_tournament_bench"
AIM_LAG_S = 1.0
LEVEL_SECONDS = 2
# Enough levels for the run (about 30 are played); every clock read parses them all (10 ms for 2,000).
LEVELS = 200


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else 0.0


def _setup(url: str) -> None:
    from bench.league_bench import _create_database

    _create_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ["DEBUG"] = "false"
    os.environ.pop("REDIS_URL", None)  # in-process: the figures are the services', not a broker's
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _worker(worker: int, tournament_id: int, seats: int, seed: int, busts, out) -> None:
    """One worker process (as a Celery worker process is): its own database connection; it deals the next hand
    of the table waiting longest that no other worker is playing, and reports busts to the eliminations."""
    from django.db import connection

    try:
        out.put(_play_tables(worker, tournament_id, seats, seed, busts))
    except BaseException as exc:  # the parent reports it; a silent child would hang the run
        out.put({"error": f"worker {worker}: {exc!r}"})
        raise
    finally:
        connection.close()


def _play_tables(worker: int, tournament_id: int, seats: int, seed: int, busts) -> dict:
    from django.db import connection, transaction
    from django.utils import timezone

    from games.engine import Game, build_options
    from games.engine.bots import SensibleBot, play_turn
    from tournaments.models import Registration, RegistrationStatus, Tournament
    from tournaments.services.clock import level_due
    from tournaments.structures import structure_from_json

    tournament = Tournament.objects.get(pk=tournament_id)
    levels = structure_from_json(tournament.structure)
    bots = [SensibleBot(random.Random(f"{seed}/bot/{worker}/{n}")) for n in range(seats)]
    first: dict[tuple[int, int], tuple[float, bool]] = {}  # (table, level) -> (lag, the table was playing)
    hands = 0

    def play_hand(table_number: int) -> tuple[list[int], list[int], list[int]] | None:
        """One hand at a table, under the table's lock (another worker playing it: None), holding its players'
        stack rows: a player moved by balancing while their hand is played joins the new table's hands once that
        hand is over (the new table waits for the row), so nobody plays two hands at once and no chip is lost."""
        nonlocal hands
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [tournament_id, table_number])
            if not cursor.fetchone()[0]:
                return None
            # Rows locked in player order (two tables never wait on each other crosswise); seats in seat order.
            cursor.execute(
                "SELECT r.player_id, s.stack, r.seat_number FROM tournaments_registration r "
                "JOIN bench_stack s USING (player_id) "
                "WHERE r.tournament_id = %s AND r.status = %s AND r.table_number = %s AND s.stack > 0 "
                "ORDER BY r.player_id FOR UPDATE OF s",
                [tournament_id, RegistrationStatus.REGISTERED, table_number],
            )
            rows = sorted(cursor.fetchall(), key=lambda row: row[2])
            if len(rows) < 2:
                return None
            # The last level the clock announced when this hand is dealt: the hand plays it (as an online table
            # applies the level the tick handed it at its next hand), so the lag counts the tick's delay too.
            cursor.execute("SELECT level_announced FROM tournaments_tournament WHERE id = %s", [tournament_id])
            index = cursor.fetchone()[0]
            cursor.execute("SELECT level FROM bench_table WHERE table_number = %s", [table_number])
            previous = (cursor.fetchone() or [None])[0]
            cursor.execute(
                "INSERT INTO bench_table (table_number, hands, dealt_at, level) VALUES (%s, 1, clock_timestamp(), %s) "
                "ON CONFLICT (table_number) DO UPDATE SET hands = bench_table.hands + 1, dealt_at = clock_timestamp(), "
                "level = EXCLUDED.level RETURNING hands",
                [table_number, index],
            )
            number = cursor.fetchone()[0]
            now = timezone.now()
            if previous != index and index > 0:  # the table's first hand under this level
                due = level_due(tournament, levels, index)
                if due is not None:
                    # Playing when the level came: its hand before was under the level before (not a table that
                    # waited for players, which deals again only when balancing brings one).
                    first[(table_number, index)] = ((now - due).total_seconds(), previous == index - 1)
            level = levels[index]
            options = build_options(
                "coruscant_shift",
                "better",
                {
                    "small_blind": level.small_blind,
                    "big_blind": level.big_blind,
                    "min_bet": level.big_blind,
                    # As at a tournament's online tables: odd credits to a player, none left in a carry-over
                    # (each hand here is a game of its own, so a carry-over would be lost).
                    "odd_credits": "left_of_dealer",
                },
            )
            players_here = [player_id for player_id, _, _ in rows]
            before = [stack for _, stack, _ in rows]
            game = Game.new(
                options=options,
                players=[(f"p{p}", stack) for p, stack, _ in rows],
                rng=random.Random(f"{seed}/{table_number}/{number}"),
                dealer=number % len(rows),
            )
            game.start_hand()
            while game.in_hand:
                seat = game.waiting_for()[0]
                play_turn(game, seat, bots[seat % len(bots)])
            hands += 1
            after = [game.stacks[seat] for seat in range(len(rows))]
            values = ", ".join(["(%s, %s)"] * len(rows))
            cursor.execute(
                f"UPDATE bench_stack SET stack = v.stack FROM (VALUES {values}) AS v (player_id, stack) "
                "WHERE bench_stack.player_id = v.player_id",
                [value for pair in zip(players_here, after, strict=True) for value in pair],
            )
        return players_here, before, after

    while True:
        if Registration.objects.filter(tournament_id=tournament_id, status=RegistrationStatus.REGISTERED).count() <= 1:
            break
        # The table waiting longest for its next hand first (a table's next hand is due a pause after its last,
        # so every table gets its turn), from this worker's place in the list so the workers spread out.
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT r.table_number FROM tournaments_registration r "
                "LEFT JOIN bench_table t USING (table_number) WHERE r.tournament_id = %s AND r.status = %s "
                "GROUP BY r.table_number, t.dealt_at ORDER BY t.dealt_at NULLS FIRST, r.table_number",
                [tournament_id, RegistrationStatus.REGISTERED],
            )
            tables = [row[0] for row in cursor.fetchall()]
        dealt = False
        for table_number in tables[worker:] + tables[:worker]:
            played = play_hand(table_number)
            dealt = dealt or played is not None
            if played is not None and 0 in played[2]:
                busts.put(played)  # recorded by the eliminations (as the online_busts task), the tables play on
        if not dealt:
            time.sleep(0.005)  # every table is being played by another worker (or waits for an elimination)
    return {
        "first": first,
        "hands": hands,
    }


def _eliminations(tournament_id: int, organiser_id: int, seats: int, busts, stop: threading.Event) -> dict:
    """What the `tournaments.online_busts` task does for online tables: each reported bust is eliminated (knocked
    out by the hand's biggest winner), then balancing, through the services under the tournament's lock, while
    the tables play on (a busted player has no chips, so no hand deals them in)."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    from league.models import Player
    from tournaments import seating, services
    from tournaments.models import Registration, RegistrationStatus, Tournament

    organiser = get_user_model().objects.get(pk=organiser_id)
    tournament = Tournament.objects.get(pk=tournament_id)
    eliminate_ms: list[float] = []
    balance_ms: list[float] = []
    peer_ms: list[float] = []
    moves: list[int] = []
    try:
        while not stop.is_set():
            try:
                players_here, before, after = busts.get(timeout=0.2)
            except queue.Empty:
                continue
            gains = [a - b for a, b in zip(after, before, strict=True)]
            winner_id = players_here[max(range(len(gains)), key=gains.__getitem__)]
            # Busted in one hand: the one who started it with fewer chips places lower (goes out first).
            busted = sorted(
                (p for p, a in zip(players_here, after, strict=True) if a == 0),
                key=lambda p: before[players_here.index(p)],
            )
            with transaction.atomic(), connection.cursor() as cursor:
                winner = Registration.objects.filter(
                    tournament_id=tournament_id, player_id=winner_id, status=RegistrationStatus.REGISTERED
                ).exists()
                by = Player.objects.get(pk=winner_id) if winner else None
                for out_id in busted:
                    begun = time.perf_counter()
                    services.tournament_eliminate(
                        actor=organiser, tournament=tournament, player=Player.objects.get(pk=out_id), eliminated_by=by
                    )
                    eliminate_ms.append((time.perf_counter() - begun) * 1000)
                # The peer: the pure balancing computation on the same tables, without the database.
                cursor.execute(
                    "SELECT r.player_id, r.table_number, r.seat_number FROM tournaments_registration r "
                    "JOIN bench_stack s USING (player_id) WHERE r.tournament_id = %s AND r.status = %s AND s.stack > 0",
                    [tournament_id, RegistrationStatus.REGISTERED],
                )
                seated: dict[int, seating.Table] = {}
                for player_id, number_at, seat_number in cursor.fetchall():
                    seated.setdefault(number_at, seating.Table(number_at, {}, seats)).seats[seat_number] = player_id
                begun = time.perf_counter()
                seating.balance(list(seated.values()))
                peer_ms.append((time.perf_counter() - begun) * 1000)
                begun = time.perf_counter()
                made = services.tournament_balance(actor=organiser, tournament=tournament)
                balance_ms.append((time.perf_counter() - begun) * 1000)
                moves.append(len(made))
            still_in = Registration.objects.filter(tournament_id=tournament_id, status=RegistrationStatus.REGISTERED)
            if still_in.count() <= 1:
                break
    finally:
        connection.close()
    return {"eliminate_ms": eliminate_ms, "balance_ms": balance_ms, "peer_ms": peer_ms, "moves": moves}


def run(players: int, seats: int, workers: int = 4, seed: int = 11) -> dict:
    import multiprocessing

    from django.contrib.auth import get_user_model
    from django.db import close_old_connections, connection, connections
    from django.utils import timezone

    from league import services as league_services
    from league.models import EventKind, EventStatus, Role
    from tournaments import services
    from tournaments.models import ClockEvent, Registration
    from tournaments.structures import Level, structure_to_json

    organiser = get_user_model().objects.create_user("bench-organiser", password="x")
    league = league_services.league_create(actor=organiser, name="Bench league", slug="bench-league")
    season = league_services.season_create(actor=organiser, league=league, name="S", starts_on=timezone.now().date())
    event = league_services.event_create(
        actor=organiser,
        season=season,
        name="Bench freezeout",
        kind=EventKind.TOURNAMENT,
        starts_at=timezone.now(),
        status=EventStatus.RUNNING,
    )
    field = []
    for n in range(players):
        player = league_services.player_create(actor=organiser, display_name=f"Bot {n}")
        league_services.membership_add(actor=organiser, league=league, player=player, role=Role.PLAYER)
        field.append(player)
    structure = structure_to_json(
        [Level(small_blind=5 * n, big_blind=10 * n, length=LEVEL_SECONDS, unit="seconds") for n in range(1, LEVELS + 1)]
    )
    tournament = services.tournament_create(
        actor=organiser, event=event, structure=structure, seats_per_table=seats, starting_stack=450
    )
    started = time.perf_counter()
    for player in field:
        services.tournament_register(actor=organiser, tournament=tournament, player=player)
    registered = time.perf_counter() - started
    services.tournament_publish_seed(actor=organiser, tournament=tournament)
    services.tournament_draw(actor=organiser, tournament=tournament)
    tables = Registration.objects.filter(tournament=tournament).values("table_number").distinct().count()
    # The bots' stacks (the tables' state): a table per bench run, beside the project's tables.
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_stack (player_id bigint PRIMARY KEY, stack bigint NOT NULL)")
        cursor.execute(
            "CREATE TABLE bench_table (table_number integer PRIMARY KEY, hands integer NOT NULL, dealt_at timestamptz, "
            "level integer)"
        )
        cursor.executemany("INSERT INTO bench_stack VALUES (%s, 450)", [[player.pk] for player in field])
    services.tournament_clock_start(actor=organiser, tournament=tournament)
    tournament.refresh_from_db()

    # The worker processes are forked before any thread starts, each opening its own connection: the connection
    # pool goes too (a forked child would otherwise borrow the parent's sockets, and two processes' queries
    # interleave on one connection).
    connections.close_all()
    for each in connections.all():
        close_pool = getattr(each, "close_pool", None)
        if close_pool is not None:
            close_pool()
    context = multiprocessing.get_context("fork")
    results, busts = context.Queue(), context.Queue()
    processes = [
        context.Process(target=_worker, args=(n, tournament.pk, seats, seed, busts, results)) for n in range(workers)
    ]
    run_started = time.perf_counter()
    for process in processes:
        process.start()

    stop = threading.Event()
    ticks: list[float] = []

    def beat() -> None:
        try:
            while not stop.is_set():
                begun = time.perf_counter()
                services.clock_tick_due()
                ticks.append(time.perf_counter() - begun)
                stop.wait(0.5)
        finally:
            connection.close()

    def eta_worker() -> None:
        # What the worker does with the tick scheduled for the exact time of the next change (eta).
        from tournaments.models import Tournament
        from tournaments.services.clock import next_tick_at, tournament_clock_tick

        try:
            while not stop.is_set():
                at = next_tick_at(Tournament.objects.get(pk=tournament.pk), now=timezone.now())
                if at is None:
                    stop.wait(0.5)
                    continue
                while not stop.is_set() and timezone.now() < at:
                    stop.wait(min(0.5, max(0.0, (at - timezone.now()).total_seconds())))
                if not stop.is_set():
                    tournament_clock_tick(tournament_id=tournament.pk)
        finally:
            connection.close()

    beat_thread = threading.Thread(target=beat, name="beat", daemon=True)
    beat_thread.start()
    eta_thread = threading.Thread(target=eta_worker, name="eta", daemon=True)
    eta_thread.start()
    eliminated: dict = {}

    def eliminations() -> None:
        try:
            eliminated.update(_eliminations(tournament.pk, organiser.pk, seats, busts, stop))
        except Exception as exc:  # the main thread reports it and stops the workers
            eliminated["error"] = f"eliminations: {exc!r}"
            raise

    eliminations_thread = threading.Thread(target=eliminations, name="eliminations", daemon=True)
    eliminations_thread.start()
    reports = []
    try:
        while len(reports) < workers:
            try:
                report = results.get(timeout=5)
            except queue.Empty:
                if "error" in eliminated:
                    raise RuntimeError(eliminated["error"]) from None
                if not any(process.is_alive() for process in processes):
                    raise RuntimeError("A worker process ended without a report.") from None
                continue
            if "error" in report:
                raise RuntimeError(report["error"])
            reports.append(report)
        for process in processes:
            process.join()
    finally:
        eliminations_thread.join(timeout=60)
        stop.set()
        beat_thread.join(timeout=10)
        eta_thread.join(timeout=10)
        for process in processes:
            if process.is_alive():
                process.terminate()
        close_old_connections()
    finished = time.perf_counter() - run_started
    with connection.cursor() as cursor:
        cursor.execute("SELECT sum(stack), count(*) FILTER (WHERE stack > 0) FROM bench_stack")
        chips, holders = cursor.fetchone()
    if chips != 450 * players or holders != 1:  # the tables played concurrently: no chip lost or made
        raise RuntimeError(f"{chips} chips with {holders} players at the end; {450 * players} with one expected.")
    services.tournament_complete(actor=organiser, tournament=tournament)
    lags = [
        (event.recorded_at - event.due_at).total_seconds()
        for event in ClockEvent.objects.filter(tournament=tournament, kind__in=("level", "break_start"))
        if event.level_index > 0
    ]
    # A table's first hand under a level: its hands take turns under the table's lock, so one hand is first.
    firsts = [value for report in reports for value in report["first"].values()]
    table_lags = [lag for lag, playing in firsts if playing]
    all_lags = [lag for lag, _ in firsts]
    merged = eliminated

    return {
        "players": players,
        "tables": tables,
        "workers": workers,
        "registration_s": registered,
        "finish_s": finished,
        "eliminations": len(merged["eliminate_ms"]),
        "hands": sum(report["hands"] for report in reports),
        "table_lag_p95": _p95(table_lags),
        "table_lag_max": max(table_lags, default=0.0),
        "table_levels": len(table_lags),
        "all_lag_p95": _p95(all_lags),
        "all_lag_max": max(all_lags, default=0.0),
        "all_levels": len(all_lags),
        "eliminate_ms_median": statistics.median(merged["eliminate_ms"]),
        "balance_ms_median": statistics.median(merged["balance_ms"]),
        "balance_ms_p95": _p95(merged["balance_ms"]),
        "peer_ms_median": statistics.median(merged["peer_ms"]),
        "moves_mean": statistics.mean(merged["moves"]),
        "moves_max": max(merged["moves"]),
        "levels": len(lags),
        "lag_p95": _p95(lags),
        "lag_max": max(lags, default=0.0),
        "tick_ms_median": statistics.median(ticks) * 1000 if ticks else 0.0,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300, help="field size (300: 38 tables of 8)")
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4, help="worker processes playing the tables (1: in turn)")
    args = parser.parse_args(argv if argv is not None else [])
    url = os.environ.get("TOURNAMENT_BENCH_URL", DEFAULT_URL)
    _setup(url)
    try:
        r = run(args.players, args.seats, max(1, args.workers))
    finally:
        from django.db import connections

        connections.close_all()
        from bench.league_bench import _drop_database

        _drop_database(url)
    print(f"{r['players']} players on {r['tables']} tables, {LEVEL_SECONDS}-second levels")
    print(f"registration (buy-ins booked) {r['registration_s']:.1f} s; tournament to a winner {r['finish_s']:.1f} s")
    print(
        f"{r['hands']} hands played by sensible bots on the engine; {r['eliminations']} eliminations: "
        f"eliminate median {r['eliminate_ms_median']:.1f} ms"
    )
    print(
        f"balancing per elimination: {r['moves_mean']:.2f} moves on average (at most {r['moves_max']}), "
        f"median {r['balance_ms_median']:.1f} ms, p95 {r['balance_ms_p95']:.1f} ms; "
        f"pure seating.balance median {r['peer_ms_median']:.3f} ms "
        f"(ratio {r['balance_ms_median'] / max(r['peer_ms_median'], 1e-6):.0f}x)"
    )
    print(
        f"level lag over {r['levels']} levels: p95 {r['lag_p95']:.3f} s, worst {r['lag_max']:.3f} s "
        f"(aim under {AIM_LAG_S:.0f} s at p95: ratio {r['lag_p95'] / AIM_LAG_S:.2f}x); "
        f"beat re-check median {r['tick_ms_median']:.1f} ms"
    )
    print(
        f"tables applying a new level at their next hand ({r['table_levels']} table-levels at tables playing when "
        f"it came, from the level's scheduled time to the table's first hand dealt under it; {r['workers']} worker "
        f"process{'es' if r['workers'] != 1 else ''} playing the tables): p95 {r['table_lag_p95']:.3f} s, "
        f"worst {r['table_lag_max']:.3f} s (aim under {AIM_LAG_S:.0f} s at p95: ratio "
        f"{r['table_lag_p95'] / AIM_LAG_S:.2f}x); with tables that waited for players ({r['all_levels']} "
        f"table-levels): p95 {r['all_lag_p95']:.3f} s, worst {r['all_lag_max']:.3f} s"
    )
    print(f"load average (1, 5, 15 min) at the end: {', '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
