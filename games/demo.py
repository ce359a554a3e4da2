"""Demo games: whole games between bots, for the demo data and the tests, and the demo's league seasons with
their recorded games and practice tables (`load_games_demo`, called by `tournaments.demo.load_demo_data`).

Idempotent: running it again changes nothing that is already there.
"""

import datetime
import random
from typing import TextIO

from django.utils import timezone

from league.demo import (
    DEMO_ADMIN,
    DEMO_LEAGUE,
    DEMO_ORGANISER,
    DEMO_PASSWORD,
    DEMO_PLAYER,
    DEMO_PLAYER_CLAIMS,
    DEMO_PLAYERS,
    VARIANT_LEAGUES,
    demo_hands,
    demo_user,
)


def bot_replay(names: list[str], *, seed: str, preset: str = "better", stack: int = 450, max_hands: int = 60) -> dict:
    """A whole game between sensible bots, seated under the given names, as a `sabacc-replay/1` document:
    the demo's (and tests') game with a hand history to step through."""
    from games.engine import Game, build_options
    from games.engine.bots import SensibleBot, play_turn
    from games.engine.replay import export_replay

    game = Game.new(
        options=build_options("coruscant_shift", preset),
        players=[(name, stack) for name in names],
        rng=random.Random(f"{seed}/table"),
        preset=preset,
    )
    bots = [SensibleBot(random.Random(f"{seed}/seat/{seat}")) for seat in range(len(names))]
    while not game.is_over and game.hands_played < max_hands and game.can_start_hand():
        game.start_hand()
        while game.in_hand:
            seat = game.waiting_for()[0]
            play_turn(game, seat, bots[seat])
    return export_replay(game, version=1)


def _record(*, actor, event, players, rng, hands: int, when, table=None, round_number=1) -> None:
    from games.services import result_record

    stacks = {p.pk: 450 for p in players}
    result_record(
        actor=actor,
        event=event,
        seats=[{"player": p.pk} for p in players],
        hands=demo_hands(rng, stacks, hands),
        played_at=when,
        table=table,
        round=round_number,
    )


def load_games_demo(out: TextIO) -> None:
    """The demo's accounts, leagues, seasons, recorded games and practice tables (see `league.demo`)."""
    from games.services import result_record, table_create
    from league import services
    from league.chips import default_sets_create
    from league.models import BuyInPolicy, ChipSet, Denomination, EventKind, EventStatus, League, Player, Role

    organiser = demo_user(DEMO_ORGANISER, staff=False)
    player_user = demo_user(DEMO_PLAYER, staff=False)
    demo_user(DEMO_ADMIN, staff=True)
    out.write(f"Demo logins (password for all three: {DEMO_PASSWORD}):\n")
    # The same words as the README's table of demo accounts.
    out.write(f"  {DEMO_ORGANISER:<10} organiser of the three demo leagues (not a site admin)\n")
    out.write(
        f"  {DEMO_PLAYER:<10} a player: plays as {DEMO_PLAYER_CLAIMS}, "
        "with two seasons of results, a ledger and charts\n"
    )
    out.write(f"  {DEMO_ADMIN:<10} site admin (staff): everything, and /admin/\n")
    if League.objects.filter(slug=DEMO_LEAGUE).exists():
        out.write(f"Demo league {DEMO_LEAGUE!r} is already there.\n")
        _variant_leagues(organiser, out)
        return

    default_sets_create(ChipSet, Denomination, BuyInPolicy)  # normally there from the migration
    rng = random.Random(2026)  # the same demo every time
    league = services.league_create(
        actor=organiser,
        name="Coruscant Circuit",
        slug=DEMO_LEAGUE,
        description="A friendly league of Coruscant Shift, played in the lower levels every week.",
        chip_set=ChipSet.objects.get(slug="standard"),
        buy_in_policy=BuyInPolicy.objects.get(name="Standard stake"),
        points_formula="sqrt",
        tie_breakers=["points", "wins", "net_credits", "average_place"],
        best_n=6,
        min_players=3,
    )
    players = []
    for name in DEMO_PLAYERS:
        player = Player.objects.filter(display_name=name, user=None).first() or services.player_create(
            actor=organiser, display_name=name
        )
        services.membership_add(actor=organiser, league=league, player=player, role=Role.PLAYER)
        players.append(player)

    today = timezone.now().date()
    past = services.season_create(
        actor=organiser,
        league=league,
        name="Season 1",
        starts_on=today - datetime.timedelta(days=120),
        ends_on=today - datetime.timedelta(days=30),
    )
    for week in range(6):
        when = timezone.now() - datetime.timedelta(days=112 - week * 14)
        event = services.event_create(
            actor=organiser, season=past, name=f"Week {week + 1} night", starts_at=when, status=EventStatus.FINISHED
        )
        seated = rng.sample(players, rng.randint(5, 8))
        _record(actor=organiser, event=event, players=seated, rng=rng, hands=rng.randint(8, 14), when=when)

    current = services.season_create(
        actor=organiser,
        league=league,
        name="Season 2",
        starts_on=today - datetime.timedelta(days=20),
        buy_in_policy=BuyInPolicy.objects.get(name="Standard stake with re-buys"),
    )
    opener = timezone.now() - datetime.timedelta(days=14)
    event = services.event_create(
        actor=organiser, season=current, name="Season opener", starts_at=opener, status=EventStatus.FINISHED
    )
    _record(actor=organiser, event=event, players=rng.sample(players, 6), rng=rng, hands=10, when=opener)

    cup = services.event_create(
        actor=organiser,
        season=current,
        name="Beskar Cup",
        kind=EventKind.TOURNAMENT,
        starts_at=timezone.now() - datetime.timedelta(hours=3),
        status=EventStatus.RUNNING,
    )
    entrants = rng.sample(players, 8)
    for number in (1, 2):
        table = table_create(actor=organiser, event=cup, name=f"Table {number}", number=number)
        _record(
            actor=organiser,
            event=cup,
            players=entrants[(number - 1) * 4 : number * 4],
            rng=rng,
            hands=40,
            when=timezone.now() - datetime.timedelta(hours=3 - number),
            table=table,
        )
    final = table_create(actor=organiser, event=cup, name="Final table", number=3)
    # A game played online-style with a replay, so its hand history can be stepped through on its page.
    finalists = [entrants[0], entrants[4], entrants[1]]
    result_record(
        actor=organiser,
        event=cup,
        seats=[{"player": p.pk} for p in finalists],
        replay=bot_replay([p.display_name for p in finalists], seed="demo-final"),
        played_at=timezone.now() - datetime.timedelta(minutes=30),
        table=final,
        round=2,
    )

    _practice_table(organiser, current, "Practice table", minutes_ago=10)

    han = next(p for p in players if p.display_name == DEMO_PLAYER_CLAIMS)
    services.player_claim(user=player_user, player=han, claim_code=han.claim_code)
    services.standings_recompute(league_id=league.pk)
    out.write(f"Demo league {league.name!r}: {len(players)} players, 2 seasons, standings computed.\n")
    _variant_leagues(organiser, out)


def _practice_table(organiser, season, table_name: str, *, minutes_ago: int) -> None:
    """A running "Practice night" in `season` with an online table waiting in the lobby: sit down, fill the
    empty seats with bots and start it."""
    from games.online.services import table_open
    from league import services
    from league.models import EventStatus

    practice = services.event_create(
        actor=organiser,
        season=season,
        name="Practice night",
        starts_at=timezone.now() - datetime.timedelta(minutes=minutes_ago),
        status=EventStatus.RUNNING,
    )
    table_open(actor=organiser, event=practice, name=table_name, seats=4, turn_seconds=60)


def _variant_leagues(organiser, out: TextIO) -> None:
    """A league per other variant, each with four members from the Coruscant Circuit (the demo player's Han
    among them), a running practice night and an online table in the lobby (sit down, fill the empty seats
    with bots, start it); those already there are left."""
    from league import services
    from league.models import ChipSet, League, Player, Role

    # The demo player (as Han) and three friends from the Coruscant Circuit play these leagues too.
    regulars = [
        player
        for name in (DEMO_PLAYER_CLAIMS, "Lando", "Leia", "Chewbacca")
        if (player := Player.objects.filter(memberships__league__slug=DEMO_LEAGUE, display_name=name).first())
    ]
    for slug, name, variant, preset, description in VARIANT_LEAGUES:
        if League.objects.filter(slug=slug).exists():
            continue
        league = services.league_create(
            actor=organiser,
            name=name,
            slug=slug,
            description=description,
            variant=variant,
            preset=preset,
            chip_set=ChipSet.objects.get(slug="standard"),
        )  # no buy-in policy: a table's buy-in is the preset's starting stack (100 credits, simple chips)
        for player in regulars:
            services.membership_add(actor=organiser, league=league, player=player, role=Role.PLAYER)
        today = timezone.now().date()
        season = services.season_create(
            actor=organiser, league=league, name="Season 1", starts_on=today - datetime.timedelta(days=7)
        )
        _practice_table(organiser, season, f"{name} practice table", minutes_ago=5)
        out.write(f"Demo league {name!r} ({variant.replace('_', ' ')}): a practice table in the lobby.\n")
