"""Pages benchmark: the league page, a player page with 200 events of history and an event page, on
PostgreSQL with the league bench's 1,000 players and 50,000 games.

Each page's server time (median and p95, through Django's test client, so no network) is reported against a bare
Django view rendering a template of the same size (the page's own HTML, line by line, through one template loop),
as two ratios, median over median and p95 over p95: the page's cost over the cost of just rendering that much HTML
(a warm page against the same HTML served from the same cache). Each page is measured, in turns with its bare view,
cold (the league's data version moved before every request, as a write does, so every fragment comes from the
database) and warm (served from the page cache, as every request is after the first since the league's data last
changed). Run: `.venv/bin/python -m bench.pages_bench` (uses DATABASE_URL if set, and reuses the league it built
there before; else creates and drops postgres://postgres@127.0.0.1:5432/sabacc_bench). With `REDIS_URL` the cache
is Redis: the league and event pages read their league's state there (`league.services.versions`), sessions come
from the cache, a signed-in member's user, player and league roles from their copy held in Redis
(`config.viewer_cache`), and nothing is remembered per process (`PAGE_STAMP_MAX_AGE` 0). Without it (local-memory
cache) every warm request reads its league's state from PostgreSQL (one query) when `PAGE_STAMP_MAX_AGE=0`, as a
signed-in user's always does (with their session, user, player and roles: no copy of them is kept); by default (0.1
s) a burst of anonymous requests reads it ten times a second. The player page reads the player's row from
PostgreSQL on every request either way.
"""

import os
import random
import statistics
import sys
import time

from bench.league_bench import (
    DEFAULT_URL,
    GAMES,
    PLAYERS,
    _build,
    _create_database,
    _drop_database,
    _p95,
    _setup_django,
)

REQUESTS = 40  # cold: each renders from the database
WARM_REQUESTS = 300  # warm: enough for a steady p95
HISTORY_EVENTS = 200
HANDS_PER_GAME = 8
AIM_RATIO = 2.0


def _history_player(rng: random.Random):
    """A player seated in 200 of the league's games, with buy-in, hand and payout ledger lines for each."""
    from django.db import transaction

    from games.models import Game, Seat
    from league.models import Event, EventResult, LedgerEntry, LedgerKind, Membership, Player

    with transaction.atomic():
        player = Player.objects.create(display_name="Bench regular")
        events = list(Event.objects.order_by("starts_at").values_list("pk", flat=True))
        chosen = sorted(rng.sample(events, HISTORY_EVENTS))
        games = dict(Game.objects.filter(event_id__in=chosen).values_list("event_id", "pk"))
        Membership.objects.create(league_id=Event.objects.get(pk=chosen[0]).season.league_id, player=player)
        results, seats, lines = [], [], []
        for event_id in chosen:
            stack, changes = 450, []
            for _ in range(HANDS_PER_GAME):
                change = max(-stack, rng.choice([-60, -30, -10, 20, 40, 90]))
                stack += change
                changes.append(change)
            place = rng.randint(1, 6)
            seats.append(Seat(game_id=games[event_id], player=player, number=99, buy_in=450, final_credits=stack))
            results.append(
                EventResult(
                    event_id=event_id,
                    player=player,
                    place=place,
                    players=7,
                    buy_in=450,
                    credits_in=450,
                    credits_out=stack,
                    prize_pool=3150,
                    biggest_pot=max(0, *changes),  # a game of losses only won no pot
                )
            )
            game = games[event_id]
            lines.append(
                LedgerEntry(event_id=event_id, game_id=game, player=player, kind=LedgerKind.BUY_IN, amount=450)
            )
            for hand, change in enumerate(changes, start=1):
                kind = LedgerKind.HAND_WON if change > 0 else LedgerKind.HAND_LOST
                lines.append(
                    LedgerEntry(event_id=event_id, game_id=game, player=player, kind=kind, amount=change, hand=hand)
                )
            lines.append(
                LedgerEntry(event_id=event_id, game_id=game, player=player, kind=LedgerKind.PAYOUT, amount=-stack)
            )
        Seat.objects.bulk_create(seats)
        EventResult.objects.bulk_create(results)
        LedgerEntry.objects.bulk_create(lines, batch_size=5000)
    return player, chosen


def _bench_member(league):
    """A signed-in member of the bench league with a player of their own (made once, then reused)."""
    from django.contrib.auth import get_user_model

    from league.models import Membership, Player

    user, _ = get_user_model().objects.get_or_create(username="bench-member")
    player, _ = Player.objects.get_or_create(user=user, defaults={"display_name": "Bench member"})
    Membership.objects.get_or_create(league=league, player=player)
    return user


def _get(client, url: str, before=None) -> tuple[float, bytes]:
    """One timed request; `before()` runs ahead of it, untimed."""
    if before is not None:
        before()
    begin = time.perf_counter()
    response = client.get(url)
    elapsed = time.perf_counter() - begin
    assert response.status_code == 200, (url, response.status_code)
    return elapsed, response.content


def _side_by_side(client, runs: dict[str, tuple[str, object]], count: int) -> dict[str, list[float]]:
    """`count` timed requests of each run ({name: (url, before)}), taken in turns after one each to warm up:
    on a shared machine a burst of load then falls on every contestant alike."""
    for url, before in runs.values():
        _get(client, url, before)
    samples: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(count):
        for name, (url, before) in runs.items():
            samples[name].append(_get(client, url, before)[0])
    return samples


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--requests", type=int, default=None, help="requests per measure (default 40 cold, 300 warm)")
    parser.add_argument("--database", help="create and drop a database of this name on DATABASE_URL's server")
    args, _ = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    global REQUESTS, WARM_REQUESTS
    if args.requests:
        REQUESTS = WARM_REQUESTS = args.requests
    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    own_database = "DATABASE_URL" not in os.environ or bool(args.database)
    if args.database:
        url = f"{url.rpartition('/')[0]}/{args.database}"
    if not url.startswith(("postgres://", "postgresql://")):
        print(f"The pages bench runs on PostgreSQL; DATABASE_URL={url!r} is not one.", file=sys.stderr)
        return 2
    if own_database:
        _create_database(url)
    try:
        _setup_django(url)
        return _run(args.players, args.games)
    finally:
        if own_database:
            from django.db import connections

            connections.close_all()
            for connection in connections.all():
                if hasattr(connection, "close_pool"):
                    connection.close_pool()
            _drop_database(url)


def _run(players_count: int, games_count: int) -> int:
    from django.conf import settings
    from django.db import connection
    from django.http import HttpResponse
    from django.template import engines
    from django.test import Client, override_settings
    from django.urls import include, path

    from league.models import Event, EventResult, League, Player
    from league.services import bump_data_version, standings_recompute

    league = League.objects.filter(slug="bench").first()
    player = Player.objects.filter(display_name="Bench regular").first()
    if league is not None and player is not None:  # a database this bench built before (DATABASE_URL given)
        print("Reusing the bench league already in the database.")
        events = list(EventResult.objects.filter(player=player).values_list("event_id", flat=True))
    else:
        print(f"Building {players_count:,} players and {games_count:,} games on PostgreSQL ...")
        league = _build(random.Random(7), players_count, games_count)
        player, events = _history_player(random.Random(11))
        standings_recompute(league_id=league.pk)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # planner statistics, as autovacuum keeps them on a live database
    event = Event.objects.filter(pk__in=events).order_by("-starts_at").first()
    print(f"  {EventResult.objects.count():,} player results; {player.display_name} has {len(events)} events")

    pages = {
        "league page (1,000 rows)": f"/leagues/{league.slug}/",
        f"player page ({HISTORY_EVENTS} events)": f"/players/{player.pk}/",
        "event page": f"/events/{event.pk}/",
    }
    # The peer: one template loop writing the same HTML, line by line, with no database and no logic.
    bare = engines["django"].from_string(
        "{% autoescape off %}{% for line in lines %}{{ line }}\n{% endfor %}{% endautoescape %}"
    )
    documents: dict[str, list[str]] = {}

    def bare_view(request, name: str):
        return HttpResponse(bare.render({"lines": documents[name]}, request))

    def cached_bare_view(request, name: str):
        """The peer of a warm page: the same HTML from the same cache, as a cached page is served."""
        from django.core.cache import cache

        body = cache.get(f"bench-bare-{name}")
        if body is None:
            body = bare.render({"lines": documents[name]}, request)
            cache.set(f"bench-bare-{name}", body, 600)
        return HttpResponse(body)

    module = type(sys)("bench_pages_urls")
    module.urlpatterns = [
        path("bare/<str:name>/", bare_view),
        path("bare-cached/<str:name>/", cached_bare_view),
        path("", include("config.urls")),
    ]
    sys.modules["bench_pages_urls"] = module
    client, member_client = Client(), Client()
    member_client.force_login(_bench_member(league))
    rows = []
    # The test client's host, `testserver`, is allowed by the test runner only.
    with override_settings(ROOT_URLCONF="bench_pages_urls", ALLOWED_HOSTS=["testserver"]):
        for index, (label, page_url) in enumerate(pages.items()):
            _, html = _get(client, page_url)
            documents[str(index)] = html.decode().split("\n")
            _, bare_html = _get(client, f"/bare/{index}/")
            # Cold: the league's data version moved before each request, as by a write (every fragment is
            # rendered from the database); warm: served from the page cache, as every request after the first
            # since the league's data last changed.
            cold = _side_by_side(
                client,
                {"page": (page_url, lambda: bump_data_version(league.pk)), "bare": (f"/bare/{index}/", None)},
                REQUESTS,
            )
            # Warm pages come from the cache, so their peer does too (`cached_bare_view`); cold ones render.
            cached = f"/bare-cached/{index}/"
            warm = _side_by_side(client, {"page": (page_url, None), "bare": (cached, None)}, WARM_REQUESTS)
            # A signed-in member's page: their session, user and player with roles are read as well (with Redis,
            # from their copy there, `config.viewer_cache`, in one round trip with the session), and the league's
            # state on every request (`league.page_stamps`); their own copy of the page is cached.
            member_warm = _side_by_side(
                member_client, {"page": (page_url, None), "bare": (cached, None)}, WARM_REQUESTS
            )
            for kind, times in (("cold", cold), ("warm", warm), ("warm, member", member_warm)):
                rows.append((f"{label}, {kind}", times["page"], times["bare"], len(html), len(bare_html)))
    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    from league.services.versions import redis_versions

    held = "leagues' state read from Redis" if redis_versions() else "leagues' state read from PostgreSQL"
    session = settings.SESSION_ENGINE

    print()
    print(
        f"Pages bench: {players_count:,} players, {games_count:,} games; {REQUESTS} requests each cold, "
        f"{WARM_REQUESTS} warm (against the same HTML from the same cache),"
        " server time in-process"
    )
    print(
        f"  page cache: {backend}; {held}; sessions: {session}; anonymous visitors' league reads remembered for"
        f" PAGE_STAMP_MAX_AGE={settings.PAGE_STAMP_MAX_AGE:g}s (0: every request reads them)"
    )
    print(
        f"  {'page':44} {'median':>9} {'p95':>9}   {'bare median':>11} {'bare p95':>9}   {'size':>9}"
        "   ratio (median, p95)"
    )
    worst = {"median": 0.0, "p95": 0.0}
    worst_member = dict(worst)
    for label, times, bare_times, size, bare_size in rows:
        median, bare_median = statistics.median(times), statistics.median(bare_times)
        ratios = {"median": median / bare_median, "p95": _p95(times) / _p95(bare_times)}
        if label.endswith("warm"):
            worst = {kind: max(worst[kind], ratio) for kind, ratio in ratios.items()}
        if label.endswith("warm, member"):
            worst_member = {kind: max(worst_member[kind], ratio) for kind, ratio in ratios.items()}
        print(
            f"  {label:44} {median * 1000:7.2f}ms {_p95(times) * 1000:7.2f}ms   {bare_median * 1000:9.2f}ms "
            f"{_p95(bare_times) * 1000:7.2f}ms   {size / 1024:7.1f}KB   {ratios['median']:5.2f}x {ratios['p95']:5.2f}x"
            + ("" if abs(size - bare_size) <= 1 else f" (bare {bare_size / 1024:.1f}KB)")
        )
    for who, ratios in (("anonymous", worst), ("signed-in member", worst_member)):
        for kind, ratio in ratios.items():
            aim = "(within the 2x aim)" if ratio <= AIM_RATIO else "(OUTSIDE the 2x aim)"
            print(f"  result, {who}: worst warm {kind} ratio {ratio:.2f}x {aim}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
