"""League benchmark: 1,000 players and 50,000 finished games on PostgreSQL (`--games`, `--players` scale it).

Reports the full standings recomputation (kept for repairs and rule changes), how long a new result, a
corrected one and a deleted one (a correction that takes a player out of the game) take to show in the standings
endpoint and on the league page (through `games.services`, as an organiser would: the standings update
incrementally), and the standings endpoint's response time (median and p95) against
a bare DRF endpoint returning a constant list of the same size and shape. Run:
`.venv/bin/python -m bench.league_bench [--games N] [--players N] [--database NAME]` (DATABASE_URL if set,
else it creates and drops postgres://postgres@127.0.0.1:5432/sabacc_bench; `--database` creates and drops that
database on DATABASE_URL's server instead). `--keep` keeps that database; `--reuse` then measures the league it
holds again without building it (a 500,000-game build takes several minutes).
"""

import argparse
import os
import random
import re
import statistics
import sys
import time
from datetime import date, timedelta

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/sabacc_bench"
PLAYERS = 1_000
GAMES = 50_000
SEATS_PER_GAME = (4, 8)
REQUESTS = 50
AIM_RECOMPUTE_S = 10.0
AIM_VISIBLE_S = 1.0
AIM_RATIO = 2.0


def _admin_connection(url: str):
    import psycopg

    base, _, _name = url.rpartition("/")
    return psycopg.connect(f"{base}/postgres", autocommit=True)


def _create_database(url: str) -> None:
    name = url.rpartition("/")[2]
    with _admin_connection(url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def _drop_database(url: str) -> None:
    name = url.rpartition("/")[2]
    with _admin_connection(url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.environ["DB_CONN_MAX_AGE"] = "600"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def _build(rng: random.Random, players_count: int, games_count: int, with_seats: bool = True):
    """Bulk-create the league: players, members, two seasons, one event per game, seats and event results
    (`with_seats=False`: no games and seats, which the standings never read; half the rows to write)."""
    from django.db import transaction
    from django.utils import timezone

    from games.models import Game, GameSource, GameStatus, Seat
    from league.models import Event, EventResult, EventStatus, League, Membership, Player, Season

    with transaction.atomic():
        league = League.objects.create(name="Bench league", slug="bench", points_formula="sqrt", best_n=40)
        players = Player.objects.bulk_create(Player(display_name=f"Player {i:04d}") for i in range(players_count))
        Membership.objects.bulk_create(Membership(league=league, player=p) for p in players)
        seasons = [
            Season.objects.create(league=league, name="Season 1", starts_on=date(2025, 1, 1)),
            Season.objects.create(league=league, name="Season 2", starts_on=date(2025, 7, 1)),
        ]
    start = timezone.now() - timedelta(days=365)
    batch = 5_000
    made = 0
    player_ids = [p.pk for p in players]
    while made < games_count:
        count = min(batch, games_count - made)
        with transaction.atomic():
            events = Event.objects.bulk_create(
                Event(
                    season=seasons[0 if made + i < games_count // 2 else 1],
                    name=f"Game night {made + i}",
                    status=EventStatus.FINISHED,
                    starts_at=start + timedelta(minutes=10 * (made + i)),
                )
                for i in range(count)
            )
            games = (Game.objects.bulk_create if with_seats else list)(
                Game(
                    event=event,
                    status=GameStatus.FINISHED,
                    source=GameSource.MANUAL,
                    variant="coruscant_shift",
                    preset="better",
                    options={},
                    played_at=event.starts_at,
                )
                for event in events
            )
            seats, results = [], []
            for event, game in zip(events, games, strict=True):
                n = min(rng.randint(*SEATS_PER_GAME), len(player_ids))
                seated = rng.sample(player_ids, n)
                pot = 450 * n
                finals = [0] * n
                winner = rng.randrange(n)
                finals[winner] = pot - 450 * (n // 2)
                for k in rng.sample(range(n), n // 2):
                    finals[k] += 450
                order = sorted(range(n), key=lambda k: -finals[k])
                place_of, previous = {}, None
                for index, k in enumerate(order, start=1):
                    place_of[k] = (
                        place_of[previous] if previous is not None and finals[previous] == finals[k] else index
                    )
                    previous = k
                for k, player_id in enumerate(seated):
                    tied = sum(1 for j in range(n) if finals[j] == finals[k])
                    seats.append(
                        Seat(
                            game=game,
                            player_id=player_id,
                            number=k + 1,
                            buy_in=450,
                            final_credits=finals[k],
                            place=place_of[k],
                        )
                    )
                    results.append(
                        EventResult(
                            event=event,
                            player_id=player_id,
                            place=place_of[k],
                            players=n,
                            tied=tied,
                            buy_in=450,
                            credits_in=450,
                            credits_out=finals[k],
                            prize_pool=pot,
                            biggest_pot=max(finals[k] - 450, 0),
                        )
                    )
            if with_seats:
                Seat.objects.bulk_create(seats, batch_size=10_000)
            EventResult.objects.bulk_create(results, batch_size=10_000)
        made += count
        print(f"  built {made:,} / {games_count:,} games", end="\r", flush=True)
    print()
    return league


def _timings(client, url: str, count: int) -> list[float]:
    client.get(url)  # warm up
    samples = []
    for _ in range(count):
        begin = time.perf_counter()
        response = client.get(url)
        samples.append(time.perf_counter() - begin)
        assert response.status_code == 200, response.status_code
    return samples


def _p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--requests", type=int, default=REQUESTS)
    parser.add_argument("--database", help="create and drop a database of this name on DATABASE_URL's server")
    parser.add_argument("--results-only", action="store_true", help="build no games and seats (faster; same standings)")
    parser.add_argument(
        "--keep", action="store_true", help="keep the database afterwards (to measure it again with --reuse)"
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="measure the league a previous --keep run left in the database instead of building one",
    )
    args, _ = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    own_database = "DATABASE_URL" not in os.environ or bool(args.database)
    if args.database:
        url = f"{url.rpartition('/')[0]}/{args.database}"
    if not url.startswith(("postgres://", "postgresql://")):
        print(f"The league bench runs on PostgreSQL; DATABASE_URL={url!r} is not one.", file=sys.stderr)
        return 2
    if own_database and not args.reuse:
        _create_database(url)
    try:
        _setup_django(url)
        return _run(args.players, args.games, args.requests, not args.results_only, reuse=args.reuse)
    finally:
        if own_database and not args.keep:
            from django.db import connections

            connections.close_all()
            for connection in connections.all():
                close_pool = getattr(connection, "close_pool", None)
                if close_pool is not None:
                    close_pool()
            _drop_database(url)


# A player's all-time row on the league page: their name's link (and a badge), the points cell, the wins cell.
_WINS_CELL = (
    r'<a href="/players/{player}/">[^<]*</a>(?:<[^>]*>[^<]*</[^>]*>)?</td>'
    r'<td class="num">[^<]*</td><td class="num(?: hide-phone)?">([\d,]+)</td>'
)


def _api_wins(client, url: str, player: int) -> int:
    return {row["player"]: row for row in client.get(url).json()["rows"]}.get(player, {"wins": 0})["wins"]


def _page_wins(client, url: str, player: int) -> int:
    """The player's wins as the league page's all-time table shows them (0 when they have no row)."""
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    found = re.search(_WINS_CELL.format(player=player), response.content.decode())
    return int(found.group(1).replace(",", "")) if found else 0


def _shown(client, api_url: str, page_url: str, player: int, wins: int, begin: float) -> tuple[float, float]:
    """Seconds from `begin` until the standings endpoint and the league page each show `player` with `wins` wins,
    polling both in turns (bounded: the change shows within 30 s, or the bench says it did not)."""
    api = page = None
    deadline = begin + 30
    while (api is None or page is None) and time.perf_counter() < deadline:
        if api is None and _api_wins(client, api_url, player) == wins:
            api = time.perf_counter() - begin
        if page is None and _page_wins(client, page_url, player) == wins:
            page = time.perf_counter() - begin
    if api is None or page is None:
        raise AssertionError(f"the change did not show in the {'API' if api is None else 'league page'} within 30 s")
    return api, page


def _changes(league, rng: random.Random, organiser, client, api_url: str, page_url: str) -> dict[str, tuple]:
    """A result recorded, then corrected (a loser made the winner), then deleted (the winner's: another player sat
    there), each through the services an organiser's request calls: seconds until the API and the league page show
    it, {change: (api, page)}."""

    from games.models import Game
    from games.services import result_correct, result_record
    from league.models import Event, EventStatus, Membership

    timings = {}
    players = list(Membership.objects.filter(league=league).values_list("player_id", flat=True)[:50])
    seated = rng.sample(players, min(6, len(players)))
    finals = [450 * len(seated)] + [0] * (len(seated) - 1)
    rng.shuffle(finals)
    seats = [{"player": p, "buy_in": 450, "final_credits": c} for p, c in zip(seated, finals, strict=True)]
    winner = seated[finals.index(max(finals))]
    wins = _api_wins(client, api_url, winner)
    assert _page_wins(client, page_url, winner) == wins, "the league page and the API disagree before the change"
    season = league.seasons.order_by("-starts_on").first()
    event = Event.objects.create(season=season, name="Bench night", status=EventStatus.FINISHED, starts_at=now())
    begin = time.perf_counter()
    result_record(actor=organiser, event=event, seats=seats)
    timings["new"] = _shown(client, api_url, page_url, winner, wins + 1, begin)

    game = Game.objects.filter(event=event).latest("pk")
    old = list(game.seats.order_by("number").values_list("player_id", "final_credits"))
    winner = next(player for player, final in old if final == 0)  # the recount makes a loser the winner
    finals = [450 * len(old) if player == winner else 0 for player, _ in old]
    wins = _api_wins(client, api_url, winner)
    begin = time.perf_counter()
    changed = [{"player": p, "buy_in": 450, "final_credits": c} for (p, _), c in zip(old, finals, strict=True)]
    result_correct(actor=organiser, game=game, reason="bench: recount", seats=changed)
    timings["corrected"] = _shown(client, api_url, page_url, winner, wins + 1, begin)

    # Deleted: a second recount finds the winner never sat there (a player who did took the seat), so the winner's
    # result at the event is deleted. (An event with results cannot be deleted: its ledger lines protect it.)
    sat = {player for player, _ in old}
    stand_in = next(player for player in players if player not in sat)
    begin = time.perf_counter()
    changed = [{**seat, "player": stand_in} if seat["player"] == winner else seat for seat in changed]
    result_correct(actor=organiser, game=game, reason="bench: wrong player", seats=changed)
    timings["deleted"] = _shown(client, api_url, page_url, winner, wins, begin)
    return timings


def now():
    from django.utils import timezone

    return timezone.now()


def _run(players_count: int, games_count: int, requests: int, with_seats: bool = True, reuse: bool = False) -> int:
    from django.test import Client, override_settings
    from django.urls import include, path
    from rest_framework.permissions import AllowAny
    from rest_framework.response import Response
    from rest_framework.views import APIView

    from league import selectors
    from league.models import EventResult, League, Standing
    from league.services import standings_payload, standings_recompute

    rng = random.Random(7)
    league = League.objects.filter(slug="bench").first() if reuse else None
    if league is None:
        print(f"Building {players_count:,} players and {games_count:,} games on PostgreSQL ...")
        begin = time.perf_counter()
        league = _build(rng, players_count, games_count, with_seats)
        print(f"  built in {time.perf_counter() - begin:.1f} s ({EventResult.objects.count():,} player results)")
    else:
        players_count = league.memberships.count()
        games_count = league.seasons.values("events").count()
        print(f"Reusing the league built before: {players_count:,} players, {games_count:,} events")
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # planner statistics, as autovacuum keeps them on a live database

    begin = time.perf_counter()
    written = standings_recompute(league_id=league.pk)
    recompute = time.perf_counter() - begin
    again = time.perf_counter()
    standings_recompute(league_id=league.pk)
    recompute_again = time.perf_counter() - again
    assert Standing.objects.filter(league=league).count() == written

    # The test client's own host name ("testserver") is only allowed under the test runner.
    client = Client(HTTP_HOST="127.0.0.1")
    standings_url = f"/api/leagues/{league.slug}/standings/"
    from django.contrib.auth import get_user_model

    organiser = get_user_model().objects.filter(username="bench-organiser").first()
    organiser = organiser or get_user_model().objects.create_superuser("bench-organiser", password="bench-only")
    changes = _changes(league, rng, organiser, client, standings_url, f"/leagues/{league.slug}/?season=all")
    sample = client.get(standings_url).json()
    rows = sample["rows"]
    constant = {key: value for key, value in sample.items() if key != "rows"} | {"rows": [dict(row) for row in rows]}

    class BareView(APIView):
        """The floor: DRF returning a constant payload of the same size, no database."""

        permission_classes = [AllowAny]
        authentication_classes = []

        def get(self, request):
            return Response(constant)

    class RowsView(APIView):
        """For comparison: the same document built from the Standing rows (one query) instead of the stored one."""

        permission_classes = [AllowAny]

        def get(self, request):
            found = selectors.league_by_slug(user=request.user, slug=league.slug)
            return Response(standings_payload(found, None, selectors.standings_rows(league=found, season=None)))

    module = type(sys)("bench_urls")
    module.urlpatterns = [
        path("bare/", BareView.as_view()),
        path("rows/", RowsView.as_view()),
        path("", include("config.urls")),
    ]
    sys.modules["bench_urls"] = module
    with override_settings(ROOT_URLCONF="bench_urls"):
        standings_times = _timings(client, standings_url, requests)
        bare_times = _timings(client, "/bare/", requests)
        rows_times = _timings(client, "/rows/", requests)
        assert client.get("/rows/").json() == sample

    median_s, median_b = statistics.median(standings_times), statistics.median(bare_times)
    ratio = median_s / median_b
    print()
    print(f"League bench: {players_count:,} players, {games_count:,} games, {len(rows):,} rows in the all-time table")
    print("  load average at the end: {:.2f} {:.2f} {:.2f} (1, 5, 15 min)".format(*os.getloadavg()))
    print(
        f"  full standings recomputation   {recompute:8.2f} s   "
        f"(again: {recompute_again:.2f} s; aim < {AIM_RECOMPUTE_S:.0f} s)"
    )
    for change, (api, page) in changes.items():
        label = f"{change} result shown by the API"
        print(f"  {label:<31}{api:8.3f} s   league page {page:.3f} s   (aim < {AIM_VISIBLE_S:.0f} s)")
    print(f"  standings rows written         {written:8,d}")
    print(f"  standings endpoint  median     {median_s * 1000:8.2f} ms   p95 {_p95(standings_times) * 1000:7.2f} ms")
    print(f"  bare DRF endpoint   median     {median_b * 1000:8.2f} ms   p95 {_p95(bare_times) * 1000:7.2f} ms")
    print(f"  ratio standings / bare         {ratio:8.2f} x   (aim < {AIM_RATIO:.1f} x)")
    median_r = statistics.median(rows_times)
    print(
        f"  (from the Standing rows instead of the stored document: median {median_r * 1000:.2f} ms, "
        f"p95 {_p95(rows_times) * 1000:.2f} ms, {median_r / median_b:.2f} x bare)"
    )
    ok = (
        recompute < AIM_RECOMPUTE_S
        and ratio < AIM_RATIO
        and max(max(pair) for pair in changes.values()) < AIM_VISIBLE_S
    )
    print("  result:", "within aims" if ok else "OUTSIDE AIMS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
