"""Tournament benchmark: a 300-player freezeout on 38 tables with a compressed clock, through the real services.

What runs: registration of every player (buy-ins booked through the league's ledger service), the seed hash and
the seat draw, the clock started on a compressed structure (2-second levels), then eliminations until one player
is left, each followed by balancing (moves and table breaks) through `tournament_balance`, while a second thread
does what Celery beat does in production (`clock_tick_due()` every half second) and a third what the worker
does with the tick scheduled for the exact time of the next change (eta): both call the services in-process,
without a broker, so the figures are the services' own.

The tables are played: each table's next hand is one hand of Coruscant Shift (the `better` preset's betting) by
sensible bots on the engine, with the blinds of the level in force when the hand starts (a new level takes
effect at each table's next hand); a player left with nothing is eliminated, knocked out by the hand's biggest
winner, and balancing follows. The tables take turns in one process (a hand each), so the "tables applying a
level" lag includes waiting for the other tables' hands. Reported: the time to finish,
the lag between each level's scheduled time and the clock applying it (p95 and worst; aim under 1 s at p95,
ratio printed against that aim), and the balancing work per elimination (moves, ms) against the pure
`seating.balance` computation on the same tables (the named peer: the services' overhead ratio).

Run: `.venv/bin/python -m bench.tournament_bench [--players 300] [--seats 8]` (creates and drops
postgres://postgres@127.0.0.1:5432/sabacc_tournament_bench; `TOURNAMENT_BENCH_URL` overrides it).
"""

import argparse
import os
import random
import statistics
import threading
import time

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/sabacc_tournament_bench"
AIM_LAG_S = 1.0
LEVEL_SECONDS = 2


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


def run(players: int, seats: int, seed: int = 11) -> dict:
    from django.contrib.auth import get_user_model
    from django.db import close_old_connections, connection
    from django.utils import timezone

    from games.engine import Game, build_options
    from games.engine.bots import SensibleBot, play_turn
    from league import services as league_services
    from league.models import EventKind, EventStatus, Role
    from tournaments import seating, services
    from tournaments.models import ClockEvent, Registration, RegistrationStatus
    from tournaments.services.clock import level_due
    from tournaments.structures import Level, structure_from_json, structure_to_json

    bots = [SensibleBot(random.Random(f"{seed}/bot/{n}")) for n in range(seats)]
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
        [Level(small_blind=5 * n, big_blind=10 * n, length=LEVEL_SECONDS, unit="seconds") for n in range(1, 2000)]
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
    services.tournament_clock_start(actor=organiser, tournament=tournament)
    tournament.refresh_from_db()

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
    balance_ms: list[float] = []
    peer_ms: list[float] = []
    moves_per_elimination: list[int] = []
    eliminate_ms: list[float] = []
    table_lags: list[float] = []  # per (table, level): the first hand under the level, after its due time
    applied: set[tuple[int, int]] = set()
    hands = 0
    stacks = {player.pk: 450 for player in field}
    by_pk = {player.pk: player for player in field}
    table_hands: dict[int, int] = {}
    levels = structure_from_json(tournament.structure)
    last_table = 0
    run_started = time.perf_counter()
    try:
        while True:
            still_in = list(
                Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED)
                .order_by("table_number", "seat_number")
                .values_list("player_id", "table_number", "seat_number")
            )
            if len(still_in) <= 1:
                break
            by_table: dict[int, list[int]] = {}
            for player_id, table_number, _ in still_in:
                by_table.setdefault(table_number, []).append(player_id)
            # Tables take turns: after a re-read, play resumes at the table after the last one that played.
            order = sorted(by_table)
            later = [number for number in order if number > last_table]
            order = later + [number for number in order if number <= last_table]
            for table_number in order:
                players_here = by_table[table_number]
                last_table = table_number
                if len(players_here) < 2:
                    continue
                # The level in force when this table's next hand starts: that hand plays it.
                now = timezone.now()
                state = services.tournament_clock(tournament, now=now)
                if (table_number, state.level_index) not in applied:
                    applied.add((table_number, state.level_index))
                    due = level_due(tournament, levels, state.level_index)
                    if state.level_index > 0 and due is not None:
                        table_lags.append((now - due).total_seconds())
                level = state.level
                options = build_options(
                    "coruscant_shift",
                    "better",
                    {"small_blind": level.small_blind, "big_blind": level.big_blind, "min_bet": level.big_blind},
                )
                number = table_hands.get(table_number, 0)
                table_hands[table_number] = number + 1
                before = [stacks[p] for p in players_here]
                game = Game.new(
                    options=options,
                    players=[(f"p{p}", stacks[p]) for p in players_here],
                    rng=random.Random(f"{seed}/{table_number}/{number}"),
                    dealer=number % len(players_here),
                )
                game.start_hand()
                while game.in_hand:
                    seat = game.waiting_for()[0]
                    play_turn(game, seat, bots[seat % len(bots)])
                hands += 1
                for seat, player_id in enumerate(players_here):
                    stacks[player_id] = game.stacks[seat]
                gains = [game.stacks[seat] - before[seat] for seat in range(len(players_here))]
                winner = players_here[max(range(len(gains)), key=gains.__getitem__)]
                # Busted in one hand: the one who started it with fewer chips places lower (goes out first).
                busted = sorted(
                    (p for p in players_here if stacks[p] == 0), key=lambda p: before[players_here.index(p)]
                )
                for out_id in busted:
                    begun = time.perf_counter()
                    services.tournament_eliminate(
                        actor=organiser, tournament=tournament, player=by_pk[out_id], eliminated_by=by_pk[winner]
                    )
                    eliminate_ms.append((time.perf_counter() - begun) * 1000)
                if busted:
                    # The peer: the pure balancing computation on the same tables, without the database.
                    seated: dict[int, seating.Table] = {}
                    for player_id, number_at, seat_number in still_in:
                        if stacks[player_id] > 0:
                            seated.setdefault(number_at, seating.Table(number_at, {}, seats)).seats[seat_number] = (
                                player_id
                            )
                    begun = time.perf_counter()
                    seating.balance(list(seated.values()))
                    peer_ms.append((time.perf_counter() - begun) * 1000)
                    begun = time.perf_counter()
                    moves = services.tournament_balance(actor=organiser, tournament=tournament)
                    balance_ms.append((time.perf_counter() - begun) * 1000)
                    moves_per_elimination.append(len(moves))
                    break  # seats changed: read the tables again
    finally:
        stop.set()
        beat_thread.join(timeout=10)
        eta_thread.join(timeout=10)
        close_old_connections()
    finished = time.perf_counter() - run_started
    services.tournament_complete(actor=organiser, tournament=tournament)
    lags = [
        (event.recorded_at - event.due_at).total_seconds()
        for event in ClockEvent.objects.filter(tournament=tournament, kind__in=("level", "break_start"))
        if event.level_index > 0
    ]
    return {
        "players": players,
        "tables": tables,
        "registration_s": registered,
        "finish_s": finished,
        "eliminations": len(eliminate_ms),
        "hands": hands,
        "table_lag_p95": _p95(table_lags),
        "table_lag_max": max(table_lags, default=0.0),
        "table_levels": len(table_lags),
        "eliminate_ms_median": statistics.median(eliminate_ms),
        "balance_ms_median": statistics.median(balance_ms),
        "balance_ms_p95": _p95(balance_ms),
        "peer_ms_median": statistics.median(peer_ms),
        "moves_mean": statistics.mean(moves_per_elimination),
        "moves_max": max(moves_per_elimination),
        "levels": len(lags),
        "lag_p95": _p95(lags),
        "lag_max": max(lags, default=0.0),
        "tick_ms_median": statistics.median(ticks) * 1000 if ticks else 0.0,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300, help="field size (300: 38 tables of 8)")
    parser.add_argument("--seats", type=int, default=8)
    args = parser.parse_args(argv if argv is not None else [])
    url = os.environ.get("TOURNAMENT_BENCH_URL", DEFAULT_URL)
    _setup(url)
    try:
        r = run(args.players, args.seats)
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
        f"tables applying a new level at their next hand ({r['table_levels']} table-levels; the {r['tables']} tables' "
        f"hands played one after another in this process): p95 {r['table_lag_p95']:.3f} s, "
        f"worst {r['table_lag_max']:.3f} s"
    )


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
