"""A league with an organiser, a tournament event and members to register."""

from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from league.models import EventKind, EventStatus, Role
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory, UserFactory
from tournaments import services
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
