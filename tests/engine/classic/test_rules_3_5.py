"""RULES 3.5 (betting, the hand pot and the Sabacc pot) and 3.7 (end of game)."""

import random

import pytest

from games.engine import Game
from games.engine.errors import InvalidAmount, WrongPhase
from games.engine.options import build_options
from tests.engine.classic.helpers import act, new_game, seat, stand_all, start
from tests.engine.classic.test_rules_3_4 import reveal

ORDINARY = {"Ann": ["+10s", "+5f"], "Bob": ["+9c", "+4t"]}


def test_3_5_3_the_sabacc_pot_starts_empty_and_3_5_carries_over_until_won():
    game = new_game(call_round=1)
    assert game.pools == {}
    first = reveal(game, ORDINARY)
    assert first["sabacc_pot"]["before"] == 0 and first["sabacc_pot"]["after"] == 2
    assert game.pools == {"sabacc": 2}
    second = reveal(game, ORDINARY)
    assert second["sabacc_pot"]["before"] == 2 and second["sabacc_pot"]["after"] == 4
    third = reveal(game, {"Ann": ["+15s", "+8f"], "Bob": ["+9c", "+4t"]})
    assert third["sabacc_pot"]["winners"] == ["Ann"] and third["sabacc_pot"]["paid"] == {"Ann": 6}
    assert game.pools == {}
    assert game.total_credits() == 200


def test_3_5_2_an_all_in_player_can_win_the_whole_sabacc_pot():
    game = new_game(stacks=[100, 100, 6], call_round=1)
    reveal(game, {"Ann": ["+10s", "+5f"], "Bob": ["+9c", "+4t"], "Cat": ["+1c", "+2t"]})
    assert game.pools == {"sabacc": 3}
    start(game, {"Ann": ["+10s", "+5f"], "Bob": ["+9c", "+4t"], "Cat": ["+15c", "+8t"]})
    stand_all(game)
    while game.in_hand:
        who = game.waiting_for()[0]
        if game.names[who] == "Cat":
            game.act(who, "allin", call_hand=True)
        else:
            game.act(who, "call")
    result = game.results[-1]
    assert result["pots"][0] == {"amount": 9, "eligible": ["Ann", "Bob", "Cat"], "winners": ["Cat"], "paid": {"Cat": 9}}
    assert result["sabacc_pot"]["paid"] == {"Cat": 6}


def test_3_3_8_the_last_player_after_folds_wins_every_pot_and_shows_a_pure_sabacc_for_the_sabacc_pot():
    game = new_game(call_round=1)
    start(game, {"Ann": ["+15s", "+8f"], "Bob": ["+9c", "+4t"]})
    stand_all(game)
    act(game, "Bob", "bet", amount=5)
    act(game, "Ann", "raise", amount=10)
    act(game, "Bob", "fold")
    result = game.results[-1]
    assert result["ended"] == "folds"
    assert result["stacks"] == {"Ann": 100 - 2 + 2 + 5 + 2, "Bob": 100 - 7}
    assert list(result["showdown"]) == ["Ann"] and result["showdown"]["Ann"]["hand"] == "pure_sabacc"
    assert result["sabacc_pot"]["winners"] == ["Ann"]
    assert result["rolls"] == 2  # a hand that ends by folds makes no more rolls


def test_3_3_8_a_last_player_with_an_ordinary_hand_shows_nothing():
    game = new_game(call_round=1)
    start(game, ORDINARY)
    stand_all(game)
    act(game, "Bob", "bet", amount=5)
    act(game, "Ann", "fold")
    result = game.results[-1]
    assert result["showdown"] == {} and result["sabacc_pot"]["after"] == 2
    assert result["penalties"] == {}


def test_3_5_1_the_first_player_may_check_and_betting_is_no_limit_with_min_bet_and_max_bet():
    game = new_game(min_bet=2, max_bet=8)
    start(game, ORDINARY)
    stand_all(game)
    legal = game.legal_actions(seat(game, "Bob"))
    assert legal.can_check and legal.min_bet == 2 and legal.max_bet == 8
    with pytest.raises(InvalidAmount, match="A bet must be from 2 to 8"):
        act(game, "Bob", "bet", amount=9)
    act(game, "Bob", "check")
    act(game, "Ann", "bet", amount=8)
    with pytest.raises(InvalidAmount, match="you can reach 8"):
        act(game, "Bob", "raise", amount=10)


def test_3_5_4_a_player_whose_opponents_are_all_all_in_is_passed_over():
    game = new_game(stacks=[100, 6], call_round=5)
    start(game, ORDINARY)
    stand_all(game)
    act(game, "Bob", "allin")
    act(game, "Ann", "call")
    act(game, "Bob", "stand")
    act(game, "Ann", "stand")
    assert game.hand.round_number == 3  # round 2's betting was skipped: nobody had a decision
    assert game.hand.phase == "play" and len(game.hand.rolls) == 6  # its closing roll was still made
    stand_all(game)
    assert game.results[-1]["ended"] == "no_betting" and game.results[-1]["rounds"] == 5


def test_3_7_the_game_ends_when_one_player_holds_credits_and_3_7_2_the_sabacc_pot_left_is_paid_to_them():
    game = new_game(stacks=[100, 3], call_round=1)
    result = reveal(game, {"Ann": ["+10s", "+5f"], "Bob": ["+15c", "+9t"]})
    assert result["penalties"] == {"Bob": 1}
    assert game.is_over
    # Ruling 3.7.2 (amended): the Sabacc pot of 3 goes to Ann, the only player still holding credits.
    assert game.pools == {} and game.leftovers_paid == {0: 3}
    standings = game.standings()
    assert [(r["player"], r["stack"]) for r in standings] == [("Ann", 103), ("Bob", 0)]
    assert sum(game.stacks) == game.total_credits() == 103
    with pytest.raises(WrongPhase, match="The game is over"):
        game.start_hand()


def test_3_7_2_when_nobody_holds_credits_the_players_dealt_into_the_last_hand_share_what_is_left():
    game = new_game(stacks=[3, 3], call_round=1)
    result = reveal(game, {"Ann": ["+15c", "+9t"], "Bob": ["+15s", "+10t"]}, bet=1)  # both bomb out
    assert result["sabacc_pot"]["after"] == 6 and game.is_over
    assert game.stacks == [3, 3] and game.pools == {} and game.leftovers_paid == {1: 3, 0: 3}


def test_3_7_hands_ends_the_game_and_the_button_moves_to_the_next_player_with_credits():
    game = new_game(stacks=[100, 100, 100], call_round=1, hands=2)
    reveal(game, {"Ann": ["+1s", "+2s"], "Bob": ["+3s", "+4s"], "Cat": ["+5s", "+6s"]})
    assert game.hand.dealer == 0
    reveal(game, {"Ann": ["+1s", "+2s"], "Bob": ["+3s", "+4s"], "Cat": ["+5s", "+6s"]})
    assert game.hand.dealer == 1
    assert game.is_over


def test_3_7_first_dealer_draws_the_highest_value():
    game = Game.new(
        options=build_options("classic", "classic"),
        players=[("Ann", 100), ("Bob", 100), ("Cat", 100)],
        rng=random.Random(4),
        variant="classic",
        preset="classic",
    )
    last = game.dealer_draw[-1]
    values = {s: int(code.rstrip("sfct")) for s, code in last.items()}
    assert values[game.first_dealer] == max(values.values())
    assert list(values.values()).count(max(values.values())) == 1


def test_3_5_all_in_by_any_name_a_whole_stack_bet_into_an_opened_round_or_raise_with_nothing_bet():
    # Issue 21 finding 10: the shared betting code (games/engine/betting.py) reads both as the all-in they are.
    game = new_game(stacks=[100, 100, 30])
    start(game, {"Ann": ["+1c", "+2c"], "Bob": ["+3c", "+4c"], "Cat": ["+5c", "+6c"]})
    stand_all(game)
    assert game.hand.phase == "betting" and game.waiting_for() == [1] and game.stacks == [98, 98, 28]
    act(game, "Bob", "bet", amount=10)
    act(game, "Cat", "bet", amount=28)  # Cat's whole stack into Bob's bet: an all-in raise
    assert game.stacks[2] == 0 and game.hand._log[-1].kind == "allin"
    game = new_game(stacks=[100, 30])
    start(game, {"Ann": ["+1c", "+2c"], "Bob": ["+3c", "+4c"]})
    stand_all(game)
    act(game, "Bob", "raise", amount=28)  # nobody has bet: Bob's whole stack as a raise opens all-in
    assert game.stacks[1] == 0 and game.hand._log[-1].kind == "allin" and game.hand.round.current_bet == 28
