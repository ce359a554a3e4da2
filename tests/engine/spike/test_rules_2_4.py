"""RULES 2.4, betting and pots: the main pot, side pots, odd credits, the Sabacc pot and its claims."""

from tests.engine.spike.helpers import check_round, new_game, stand_round, start


def _tie_of_three(game) -> None:
    """Ann deals; Bob and Ann hold equal Sabaccs (+9 -9 in other suits), Cat folds to Bob's bet of 1."""
    start(game, ["+9c", "-9s"], ["+2c", "+3c"], ["+9t", "-9c"], then=["+1s", "+2s", "+3s"])
    stand_round(game)
    game.act(1, "bet", amount=1)
    game.act(2, "fold")
    game.act(0, "call")
    for _ in range(2):
        stand_round(game)
        check_round(game)
    assert game.hand.is_complete


def test_2_4_the_main_pot_holds_antes_bets_card_prices_and_the_carry_over():
    game = new_game(stacks=[50, 50, 50], ante=1, odd_credits="carry")
    _tie_of_three(game)
    result = game.results[-1]
    # Antes 3 and bets 2: five credits split between two, one carried to the next hand.
    assert result["pots"][0]["amount"] == 5 and result["pots"][0]["paid"] == {"Bob": 2, "Ann": 2}
    assert result["carry_over"] == 1 and game.carry == 1
    # The Sabacc pot (three antes) is split too; under carry its odd credit stays in the Sabacc pot.
    assert result["sabacc_pot"] == {
        "amount": 3,
        "winners": ["Bob", "Ann"],
        "paid": {"Bob": 1, "Ann": 1},
        "carry_over": 1,
    }
    assert game.pools == {"sabacc_pot": 1}
    dealer_before = game.hand.dealer
    game.start_hand()
    assert game.hand.dealer != dealer_before
    # Next hand: the carry-over joins the main pot, the Sabacc pot holds its carried credit plus new antes.
    assert game.hand.pots()[0].amount == 3 + 1
    assert game.hand.sabacc_pot() == 1 + 3
    assert game.total_credits() == 150


def test_2_4_odd_credits_left_of_dealer_go_to_the_nearest_tied_winners():
    game = new_game(stacks=[50, 50, 50], ante=1)
    _tie_of_three(game)
    result = game.results[-1]
    assert result["pots"][0]["paid"] == {"Bob": 3, "Ann": 2}
    assert result["sabacc_pot"]["paid"] == {"Bob": 2, "Ann": 1} and result["sabacc_pot"]["carry_over"] == 0
    assert game.carry == 0 and game.pools == {}


def _short_all_in_game():
    """Ann (5 credits) goes all-in with a Prime Sabacc; Bob's plain Sabacc and Cat's Nulrhek bet on."""
    game = new_game(stacks=[5, 50, 50])
    start(game, ["+9c", "-4s"], ["+7c", "+2c"], ["+10t", "-10s"], then=["+1s", "-5t", "0", "+2s", "+3s"])
    game.act(1, "draw")  # -5t
    game.act(2, "stand")
    game.act(0, "draw")  # the Sylop
    game.act(1, "bet", amount=10)
    game.act(2, "call")
    game.act(0, "allin")  # 2 credits: a call for less
    for _ in range(2):
        stand_round(game)
        check_round(game)
    assert game.hand.is_complete
    return game


def test_2_4_side_pots_are_sliced_from_contributions():
    game = _short_all_in_game()
    pots = game.results[-1]["pots"]
    assert pots[0] == {"amount": 12, "eligible": ["Ann", "Bob", "Cat"], "winners": ["Ann"], "paid": {"Ann": 12}}
    assert pots[1] == {"amount": 16, "eligible": ["Bob", "Cat"], "winners": ["Bob"], "paid": {"Bob": 16}}


def test_2_4_1_a_side_pot_winner_never_takes_the_sabacc_pot():
    game = _short_all_in_game()
    result = game.results[-1]
    assert result["showdown"]["Bob"]["hand"] == "sabacc"
    assert result["sabacc_pot"]["winners"] == ["Ann"] and result["sabacc_pot"]["paid"] == {"Ann": 3}
    assert game.stacks == [15, 53, 37]


def test_2_4_2_all_in_and_short_on_the_sabacc_ante_still_wins_the_sabacc_pot():
    game = new_game(stacks=[2, 50])
    start(game, ["+7c", "+1s"], ["+5c", "-5s"], then=["+1c", "+2c", "+3c"])
    assert game.hand.sabacc_antes == {1: 1}
    for _ in range(3):
        stand_round(game)
    result = game.results[-1]
    assert result["showdown"]["Ann"]["hand"] == "sabacc"
    assert result["sabacc_pot"]["paid"] == {"Ann": 1}
    assert game.stacks == [5, 47]


def test_2_4_3_the_last_player_in_claims_the_sabacc_pot_with_a_zero_total():
    game = new_game()
    start(game, ["+5c", "-5s"], ["+3c", "+4c"], then=["+1c"])
    stand_round(game)
    game.act(1, "bet", amount=4)
    game.act(0, "fold")
    result = game.results[-1]
    assert result["showdown"] == {"Bob": {"cards": ["+5c", "-5s"], "total": 0, "hand": "sabacc"}}
    assert result["sabacc_pot"]["paid"] == {"Bob": 2}
    assert game.stacks == [97, 103] and game.pools == {}


def test_2_4_3_without_a_zero_total_the_sabacc_pot_carries_over_and_nothing_is_shown():
    game = new_game()
    start(game, ["+6c", "-5s"], ["+3c", "+4c"], then=["+1c"])
    stand_round(game)
    game.act(1, "bet", amount=4)
    game.act(0, "fold")
    result = game.results[-1]
    assert result["showdown"] == {}
    assert result["sabacc_pot"] == {"amount": 2, "winners": [], "paid": {}, "carry_over": 2}
    assert "+6c" not in str(game.spectator_view())


def test_2_4_4_the_last_hand_of_a_hands_limit_pays_odd_credits_left_of_the_dealer():
    game = new_game(stacks=[50, 50, 50], ante=1, odd_credits="carry", hands=1)
    _tie_of_three(game)
    result = game.results[-1]
    assert result["carry_over"] == 0 and result["pots"][0]["paid"] == {"Bob": 3, "Ann": 2}
    assert result["sabacc_pot"]["carry_over"] == 0 and result["sabacc_pot"]["paid"] == {"Bob": 2, "Ann": 1}
    assert game.is_over and game.carry == 0 and game.pools == {}


def test_2_4_credits_are_always_somewhere_and_never_change():
    game = _short_all_in_game()
    assert sum(game.stacks) + game.carry + sum(game.pools.values()) == 105


def test_2_4_all_in_by_any_name_a_whole_stack_bet_into_an_opened_round_or_raise_with_nothing_bet():
    # Issue 21 finding 10: "You cannot bet: the round is already opened at 10" stopped random Spike games.
    game = new_game(stacks=[100, 100, 30])
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], ["+5c", "+6c"], then=["+1s", "+2s", "+3s", "+4s"])
    stand_round(game)
    assert game.waiting_for() == [1] and game.stacks == [97, 97, 27]
    game.act(1, "bet", amount=10)
    game.act(2, "bet", amount=27)  # Cat's whole stack into Bob's bet: an all-in raise
    assert game.stacks[2] == 0 and game.hand._log[-1].kind == "allin"
    game = new_game(stacks=[100, 30])
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+1s", "+2s", "+3s", "+4s"])
    stand_round(game)
    game.act(1, "raise", amount=27)  # nobody has bet: Bob's whole stack as a raise opens all-in
    assert game.stacks[1] == 0 and game.hand._log[-1].kind == "allin" and game.hand.round.current_bet == 27
