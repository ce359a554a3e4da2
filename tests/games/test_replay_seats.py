"""A replay names its players; the result's seats must be exactly those players, one each."""

import copy

import pytest

from config.errors import ApplicationError
from games.services import result_record
from tests.factories import MembershipFactory, PlayerFactory
from tests.games.test_bad_input import counts
from tests.games.test_result_record import REPLAY


def member(world, name):
    return MembershipFactory(league=world.league, player=PlayerFactory(display_name=name)).player


def test_a_seated_player_missing_from_the_replay_is_refused_even_when_sharing_a_name(world):
    """Two seated Janes and a replay of Bob and one Jane: the extra seat is not in the replay."""
    bob, jane, other_jane = member(world, "Bob"), member(world, "Jane"), member(world, "Jane")
    before = counts()
    with pytest.raises(ApplicationError, match="share the display name Jane"):
        result_record(
            actor=world.users["organiser"],
            event=world.event,
            seats=[
                {"player": bob.pk, "buy_in": 100},
                {"player": jane.pk, "buy_in": 0, "final_credits": 0, "place": 3},
                {"player": other_jane.pk, "buy_in": 100},
            ],
            replay=copy.deepcopy(REPLAY),
        )
    assert counts() == before


def test_a_replay_seat_without_a_stack_is_refused_by_name(world):
    bob, jane = member(world, "Bob"), member(world, "Jane")
    replay = copy.deepcopy(REPLAY)
    del replay["seats"][0]["stack"]
    before = counts()
    with pytest.raises(ApplicationError, match='Bob\'s seat in the replay gives no "stack"'):
        result_record(
            actor=world.users["organiser"],
            event=world.event,
            seats=[{"player": bob.pk, "buy_in": 100}, {"player": jane.pk, "buy_in": 100}],
            replay=replay,
        )
    assert counts() == before
