"""A league with an organiser, a tournament event and members to register; and, for the tests that play a
tournament on online tables, one setup: the seats drawn, users for the players, tables opened and started, the
tasks recorded, and hands played through the table's API service."""

import dataclasses
import random
from dataclasses import dataclass
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.engine import Game
from games.engine.bots import Decision, SensibleBot
from games.online import schedule
from games.online import services as online
from games.online.models import OnlineSeat, OnlineTable, TableStatus
from league.models import AuditEntry, EventKind, EventStatus, LedgerEntry, Role
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory, UserFactory
from tests.online.helpers import act
from tournaments import services
from tournaments.models import Format, Registration, RegistrationStatus, Tournament
from tournaments.structures import Level, structure_to_json

START = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)
STRUCTURE = structure_to_json(
    [
        Level(small_blind=5, big_blind=10, length=10),
        Level(small_blind=10, big_blind=20, length=10),
        Level(length=5, is_break=True),
        Level(small_blind=25, big_blind=50, length=10),
    ]
)


@dataclass
class Night:
    league: object
    event: object
    organiser: object
    member: object
    players: list


@pytest.fixture
def night(db) -> Night:
    league = LeagueFactory()
    event = EventFactory(season=SeasonFactory(league=league), kind=EventKind.TOURNAMENT, status=EventStatus.PLANNED)
    organiser = UserFactory(username="tourn-organiser")
    MembershipFactory(league=league, player=PlayerFactory(user=organiser), role=Role.ORGANISER)
    member = UserFactory(username="tourn-member")
    players = [MembershipFactory(league=league, player=PlayerFactory(display_name=f"P{n}")).player for n in range(12)]
    own = MembershipFactory(league=league, player=PlayerFactory(user=member, display_name="Member")).player
    return Night(league, event, organiser, member, [own, *players])


@pytest.fixture
def tournament(night):
    return services.tournament_create(actor=night.organiser, event=night.event, structure=STRUCTURE, seats_per_table=4)


# ----- tournaments played on online tables: one setup for every test module that plays them ------------------


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def colour_up_control_room(night) -> str:
    """The control room of a freezeout of two levels, 5/10 then 50/100: from level 2 no forced bet needs the
    5-credit chips of the standard set (5, 50, 100, ...)."""
    structure = [
        {"small_blind": 5, "big_blind": 10, "length": 10},
        {"small_blind": 50, "big_blind": 100, "length": 10},
    ]
    tournament = services.tournament_create(actor=night.organiser, event=night.event, structure=structure)
    return signed_in(night.organiser).get(f"/manage/tournaments/{tournament.pk}/").content.decode()


def query_counts(client: Client, paths: list[str]) -> list[int]:
    """How many queries each page costs `client` (each answering 200): pinned by the tests that add rows."""
    counts = []
    for path in paths:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200, path
        counts.append(len(queries))
    return counts


def snapshot():
    """What a refused request must leave as it was."""
    return (
        list(Tournament.objects.values()),
        list(Registration.objects.values()),
        list(OnlineTable.objects.values_list("pk", flat=True)),
        LedgerEntry.objects.count(),
        AuditEntry.objects.count(),
    )


def drawn(night, tournament, players: int | list = 4, *, clock: bool = True, now: datetime | None = None):
    """The first `players` of the night (or these players) registered, the seats drawn and (unless `clock` is off)
    the clock running (started at `now`, else now)."""
    for player in night.players[:players] if isinstance(players, int) else players:
        services.tournament_register(actor=night.organiser, tournament=tournament, player=player)
    services.tournament_publish_seed(actor=night.organiser, tournament=tournament)
    services.tournament_draw(actor=night.organiser, tournament=tournament)
    if clock:
        services.tournament_clock_start(actor=night.organiser, tournament=tournament, now=now)
    tournament.refresh_from_db()
    return tournament


def reentry_tournament(night) -> Tournament:
    """A re-entry tournament of tables of four, registration open until level 2 ends (nobody registered yet)."""
    return services.tournament_create(
        actor=night.organiser,
        event=night.event,
        structure=STRUCTURE,
        format=Format.REENTRY,
        seats_per_table=4,
        late_registration_level=2,
    )


def rebuy_tournament(night, *, players: list, rebuy_amount: int = 300, max_rebuys: int = 2, **options) -> Tournament:
    """A re-buy tournament (re-buys of `rebuy_amount` until level 2 ends, at most `max_rebuys` each) with these
    players registered, the seats drawn and the clock running."""
    policy = night.league.buy_in_policy
    policy.rebuys_allowed, policy.max_rebuys, policy.rebuy_amount = True, max_rebuys, rebuy_amount
    policy.save()
    tournament = services.tournament_create(
        actor=night.organiser,
        event=night.event,
        structure=STRUCTURE,
        format=Format.REBUY,
        seats_per_table=4,
        late_registration_level=2,
        **options,
    )
    return drawn(night, tournament, players)


@pytest.fixture
def recorded(monkeypatch) -> list:
    """The tasks the services schedule (`(name, args)`), recorded instead of sent: a test runs them itself."""
    calls: list = []
    monkeypatch.setattr(schedule, "later", lambda name, args, countdown: calls.append((name, args)))
    return calls


@pytest.fixture
def fixed_deals(monkeypatch) -> None:
    """The online tables the test starts deal from master seeds of one fixed sequence, not from the system's
    randomness: a test that needs something to happen in their hands (chips left in a pot) sees the same hands
    every run."""
    from games.online.services import tables

    monkeypatch.setattr(tables, "secrets", SimpleNamespace(randbits=random.Random("fixed deals").getrandbits))


@pytest.fixture
def users(night) -> dict[int, object]:
    """A signed-in user for every player of the night (who acts at their online seat), by player id."""
    found = {}
    for player in night.players:
        if player.user_id is None:
            player.user = UserFactory()
            player.save()
        found[player.pk] = player.user
    return found


@pytest.fixture
def online_tables(night, users, recorded):
    """Open and start online tables for a drawn tournament's tables: `online_tables(tournament, 1, 2)` gives
    `{1: table, 2: table}`, each dealing its first hand (the tasks it schedules are `recorded`)."""

    def open_and_start(tournament, *numbers: int) -> dict[int, OnlineTable]:
        tables = {}
        for number in numbers:
            table = services.tournament_online_table_open(
                actor=night.organiser, tournament=tournament, table_number=number
            )
            online.table_start(actor=night.organiser, table=table)
            tables[number] = table
        return tables

    return open_and_start


def _act(table: OnlineTable, users: dict, engine_seat: int, decision: Decision) -> None:
    """The decision of the player at `engine_seat`, through the table's API service (`tests.online.helpers.act`)."""
    player = OnlineSeat.objects.get(table=table, engine_seat=engine_seat, left=False).player_id
    act(table, users[player], decision)


def finish_hand(table: OnlineTable, users: dict, *, calm: bool = False) -> None:
    """Play the table's hand to its end, as the bots decide (at Coruscant Shift checking or calling rather than
    betting); `calm`: bets of the least, no raise and no all-in (so a table lasts long enough to break it with
    chips in its pots)."""
    for _ in range(400):
        table.refresh_from_db()
        game = Game.from_json(table.state)
        if not game.in_hand:
            return
        seat = game.waiting_for()[0]
        legal = game.legal_actions(seat)
        verbs = legal.verbs
        decision = SensibleBot(random.Random(table.version)).decide(game.view_for(seat))
        if table.variant == "coruscant_shift" and decision.verb != "select":
            verb = "check" if "check" in verbs else "call" if "call" in verbs else decision.verb
            decision = dataclasses.replace(decision, verb=verb)
        if calm and decision.verb in ("raise", "allin") and ("check" in verbs or "call" in verbs):
            decision = dataclasses.replace(decision, verb="check" if "check" in verbs else "call", amount=None)
        if calm and decision.verb == "bet":
            decision = dataclasses.replace(decision, amount=legal.min_bet)
        _act(table, users, seat, decision)
    raise AssertionError("the hand did not end")


def next_hand(table: OnlineTable) -> bool:
    """The next-hand task as the worker runs it: for the version the table was saved at."""
    table.refresh_from_db()
    return online.next_hand(table_id=table.pk, version=table.version)


def shove(table: OnlineTable, users: dict) -> bool:
    """One decision of the awaited player: all in when they can (else call), selecting as the bot would; False
    between hands."""
    table.refresh_from_db()
    game = Game.from_json(table.state)
    if not game.in_hand:
        return False
    seat = game.waiting_for()[0]
    verbs = game.legal_actions(seat).verbs
    decision = SensibleBot(random.Random(table.version)).decide(game.view_for(seat))
    verb = "allin" if "allin" in verbs else "call" if "call" in verbs else decision.verb
    shoved = Decision(verb, cards=decision.cards if verb == "select" else ())
    _act(table, users, seat, shoved)
    return True


def play_out(table: OnlineTable, users: dict, recorded: list) -> None:
    """All-in hands until the table's game ends, each next hand dealt by the task the last one scheduled."""
    for _ in range(500):
        table.refresh_from_db()
        if table.status == TableStatus.FINISHED:
            return
        if not shove(table, users):
            _name, args = next(call for call in reversed(recorded) if call[0] == "next_hand")
            assert online.next_hand(table_id=args[0], version=args[1])


@pytest.fixture
def table_one_played(night, users, online_tables, recorded, eager_tasks, django_capture_on_commit_callbacks):
    """A freezeout of four drawn at two tables of two (three seats a table), its online table 1 played out to its
    end: the tournament, that table (finished) and the registration of the table's winner, still in. A module using
    it imports `eager_tasks` (tests.league.conftest), as the tasks run in-process."""
    tournament = services.tournament_create(
        actor=night.organiser, event=night.event, structure=STRUCTURE, seats_per_table=3
    )
    drawn(night, tournament, players=4)
    assert Registration.objects.filter(tournament=tournament, table_number=1).count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        table = online_tables(tournament, 1)[1]
        play_out(table, users, recorded)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    winner = Registration.objects.get(tournament=tournament, table_number=1, status=RegistrationStatus.REGISTERED)
    return SimpleNamespace(tournament=tournament, table=table, winner=winner)
