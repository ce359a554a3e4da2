"""Shared fixtures: a league with an organiser, members and outsiders, and API clients for each."""

from dataclasses import dataclass

import pytest
from django.test import TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from league.models import EventKind, EventStatus, Role, Visibility
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory, UserFactory


@dataclass
class World:
    league: object
    other_league: object
    season: object
    event: object
    users: dict
    players: list


def build_world(visibility: str = Visibility.PUBLIC) -> World:
    league = LeagueFactory(visibility=visibility)
    other_league = LeagueFactory()
    season = SeasonFactory(league=league)
    event = EventFactory(season=season)
    users = {
        "admin": UserFactory(username="admin", is_staff=True, is_superuser=True),
        "organiser": UserFactory(username="organiser-a"),
        "other_organiser": UserFactory(username="organiser-b"),
        "member": UserFactory(username="member"),
        "outsider": UserFactory(username="outsider"),
        "anonymous": None,
    }
    MembershipFactory(
        league=league, player=PlayerFactory(user=users["organiser"], display_name="Org"), role=Role.ORGANISER
    )
    MembershipFactory(
        league=other_league,
        player=PlayerFactory(user=users["other_organiser"], display_name="Other"),
        role=Role.ORGANISER,
    )
    MembershipFactory(league=league, player=PlayerFactory(user=users["member"], display_name="Mem"))
    PlayerFactory(user=users["outsider"], display_name="Out")
    players = [
        MembershipFactory(league=league, player=PlayerFactory(display_name=name)).player
        for name in ("Han", "Lando", "Leia", "Chewie", "Rey", "Finn", "Poe", "Kylo")
    ]
    return World(league, other_league, season, event, users, players)


def league_plays(world: World, variant: str, preset: str, overrides: dict | None = None) -> World:
    """`world`'s league plays `variant` with `preset` (and these option overrides); its season follows the league."""
    league, season = world.league, world.season
    league.variant, league.preset, league.option_overrides = variant, preset, overrides or {}
    league.save()
    season.variant, season.preset, season.option_overrides = "", "", {}
    season.save()
    return world


@pytest.fixture
def world(db) -> World:
    return build_world()


@pytest.fixture
def private_world(db) -> World:
    return build_world(Visibility.MEMBERS)


@pytest.fixture
def friday_freezeout(world: World):
    """A freezeout of `world`'s season, planned, starting now: its event "Friday freezeout", the demo structure, a
    stack of 450, two seats a table; nobody registered yet."""
    from tournaments import services as tournaments
    from tournaments.demo import demo_structure

    event = EventFactory(
        season=world.season,
        name="Friday freezeout",
        kind=EventKind.TOURNAMENT,
        status=EventStatus.PLANNED,
        starts_at=timezone.now(),
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        return tournaments.tournament_create(
            actor=world.users["organiser"],
            event=event,
            structure=demo_structure(),
            starting_stack=450,
            seats_per_table=2,
        )


def new_members(world: World, *names: str) -> list:
    """New players of `world`'s league (members, no user), one for each display name."""
    return [MembershipFactory(league=world.league, player=PlayerFactory(display_name=name)).player for name in names]


def corrected_game(world: World, *, reason: str, han: int, lando: int):
    """Han and Lando's game at `world`'s event, entered by its organiser as 900 to 0, then corrected to `han` and
    `lando` credits for `reason`."""
    from games.services import result_correct, result_record

    first, second = world.players[:2]
    organiser = world.users["organiser"]
    game = result_record(
        actor=organiser,
        event=world.event,
        seats=[{"player": first.pk, "final_credits": 900}, {"player": second.pk, "final_credits": 0}],
    )
    result_correct(
        actor=organiser,
        game=game,
        reason=reason,
        seats=[{"player": first.pk, "final_credits": han}, {"player": second.pk, "final_credits": lando}],
    )
    return game


def client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def forget_viewer(user) -> None:
    """What a request read of its user and kept on the object (`league.selectors`): the API client hands the
    same object to each request, where a real one loads the user afresh."""
    for name in ("_league_roles_cache", "_player_id_cache"):
        if user is not None and hasattr(user, name):
            delattr(user, name)


@pytest.fixture(autouse=True)
def eager_tasks():
    """Run queued tasks in-process (also when REDIS_URL is set), so after-commit work is seen by the test."""
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous
