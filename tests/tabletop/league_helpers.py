"""Shared set-ups of league real-cards tables: a league with an organiser and two members, a game event with a
small buy-in, and a short game played to its end (each hand's pot named to the first seat)."""

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from games.tabletop import services
from games.tabletop.models import RealTable
from league.models import Event, EventStatus, League, Player, Role
from tests.factories import (
    BuyInPolicyFactory,
    EventFactory,
    LeagueFactory,
    MembershipFactory,
    PlayerFactory,
    SeasonFactory,
    UserFactory,
)
from tests.tabletop.helpers import play_to_reveal

BUY_IN = 4  # with Coruscant Shift's cantina ante of 2, a two-player game named to one seat ends in two hands


@dataclass
class LeagueWorld:
    league: League
    event: Event
    organiser: AbstractBaseUser
    ann: AbstractBaseUser
    bob: AbstractBaseUser
    ann_player: Player
    bob_player: Player
    outsider: AbstractBaseUser


def _member(league: League, username: str, role: str = Role.PLAYER) -> tuple[AbstractBaseUser, Player]:
    user = UserFactory(username=username)
    player = PlayerFactory(display_name=username.title(), user=user)
    MembershipFactory(league=league, player=player, role=role)
    return user, player


def league_world(prefix: str = "") -> LeagueWorld:
    """A league (Coruscant Shift, cantina) whose game event has a buy-in of `BUY_IN`; an organiser, Ann and Bob
    (members) and an outsider (a member of another league)."""
    league = LeagueFactory(preset="cantina", buy_in_policy=BuyInPolicyFactory(buy_in=BUY_IN))
    event = EventFactory(season=SeasonFactory(league=league), status=EventStatus.RUNNING, name=f"{prefix}Night")
    organiser, _ = _member(league, f"{prefix}orga", Role.ORGANISER)
    ann, ann_player = _member(league, f"{prefix}ann")
    bob, bob_player = _member(league, f"{prefix}bob")
    other = LeagueFactory(buy_in_policy=BuyInPolicyFactory(buy_in=BUY_IN))
    outsider, _ = _member(other, f"{prefix}olga")
    return LeagueWorld(league, event, organiser, ann, bob, ann_player, bob_player, outsider)


def seated_league_table(world: LeagueWorld, *, has_dice: bool = True) -> RealTable:
    """The organiser's table at the event with Ann (seat 1) and Bob (seat 2) joined, started, Ann dealing."""
    table = services.realtable_open_league(actor=world.organiser, event=world.event, has_dice=has_dice)
    services.realseat_join(actor=world.ann, table=table)
    services.realseat_join(actor=world.bob, table=table)
    services.realtable_start(actor=world.organiser, table=table, dealer=0)
    table.refresh_from_db()
    return table


def play_hand_named(table: RealTable, actor, winner: int = 0) -> None:
    """One Coruscant hand by `actor` for every seat (keep 2 cards, check or call), its pot named to `winner`."""
    table.refresh_from_db()
    now = play_to_reveal(table, actor)
    for pot in now.get("or_name_winners", []):
        services.realtable_step(
            actor=actor, table=table, step={"step": "winners", "pot": pot["pot"], "seats": [winner]}
        )


def play_to_the_end(table: RealTable, actor, winner: int = 0) -> None:
    for _ in range(20):
        table.refresh_from_db()
        if table.status == "finished":
            return
        play_hand_named(table, actor, winner)
    raise AssertionError("the game did not end")
