"""RULES 2.2, a hand in order: antes, deal, the market, card turns, spikes and betting, ruling by ruling.

Two players unless said otherwise: Ann deals, so Bob (on her left) is dealt first and acts first in every
phase; `start(game, bob, ann, then=[...])` stacks the deck (`then`: the first Pilot, then what play takes).
"""

import json

import pytest

from games.engine.errors import IllegalAction, InvalidAmount, NotYourTurn, WrongPhase
from tests.engine.spike.helpers import check_round, market, new_game, peek, stand_round, start


def test_2_2_1_a_short_stack_pays_the_main_pot_ante_first_and_is_all_in():
    game = new_game(stacks=[2, 100])
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c"])
    hand = game.hand
    assert hand.forced == {1: 2, 0: 2}
    assert hand.sabacc_antes == {1: 1}
    assert game.stacks[0] == 0 and hand.is_all_in(0)
    game = new_game(stacks=[1, 100])
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c"])
    assert game.hand.forced == {1: 2, 0: 1} and game.hand.sabacc_antes == {1: 1}


def test_2_2_2_the_deal_is_one_card_at_a_time_in_turn_twice_round():
    game = new_game(stacks=[50, 50, 50])
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], ["+5c", "+6c"], then=["+7c"])
    # Ann deals: Bob, Cat, then Ann.
    assert (peek(game, 1), peek(game, 2), peek(game, 0)) == (["+1c", "+2c"], ["+3c", "+4c"], ["+5c", "+6c"])


def test_2_2_the_pilot_becomes_the_wing_then_the_gunner():
    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c", "+7c"])
    assert market(game) == ["+5c"]
    assert game.hand.sources() == ["pilot"]
    stand_round(game)
    check_round(game)
    assert market(game) == ["+6c", "+5c"]
    stand_round(game)
    check_round(game)
    assert market(game) == ["+7c", "+6c", "+5c"]
    view = game.spectator_view()["hand"]
    assert view["market"] == [
        {"position": "pilot", "card": "+7c", "price": 1},
        {"position": "wing", "card": "+6c", "price": 2},
        {"position": "gunner", "card": "+5c", "price": 3},
    ]


def test_2_2_a_card_taken_from_the_market_is_replaced_and_the_newer_cards_move_out():
    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c", "+7c", "+8c", "+9c"])
    game.act(1, "buy", source="pilot")  # Bob takes +5c for 1; +6c is the new Pilot
    assert peek(game, 1) == ["+1c", "+2c", "+5c"] and market(game) == ["+6c"]
    game.act(0, "stand")  # the last card turn of round 1: a card taken then would be replaced too
    check_round(game)
    assert market(game) == ["+7c", "+6c"]
    game.act(1, "buy", source="wing")  # Bob takes the Wing +6c: the Pilot +7c moves out, +8c is the Pilot
    assert market(game) == ["+8c", "+7c"]
    game.act(0, "buy", source="pilot")  # last card turn of round 2: replaced (+9c)
    assert market(game) == ["+9c", "+7c"]
    assert game.hand.card_costs == {1: 3, 0: 1}


def test_2_2_3_round_3_spikes_then_moves_the_market_then_card_turns():
    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c", "-1s", "-2s", "+7c"], dice=(4, 4))
    for _ in range(2):
        stand_round(game)
        check_round(game)
    assert game.hand.phase == "spike" and game.waiting_for() == [1]
    game.act(1, "spike", card="+1c")
    # Ruling 2.2.11: Bob gets his replacement before Ann chooses.
    assert peek(game, 1) == ["+2c", "-1s"]
    game.act(0, "spike", card="+4c")
    assert peek(game, 0) == ["+3c", "-2s"]
    # Then the market moves: the Wing out to Gunner, the Pilot to Wing, a new Pilot.
    assert market(game) == ["+7c", "+6c", "+5c"] and game.hand.phase == "cards_3"


def test_2_2_3_without_a_match_nobody_spikes():
    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c", "+7c"], dice=(4, 5))
    for _ in range(2):
        stand_round(game)
        check_round(game)
    assert game.hand.phase == "cards_3"
    with pytest.raises(WrongPhase, match="card turn in round 3"):
        game.act(1, "spike", card="+1c")


def test_2_2_spike_dice_off_means_no_spikes():
    game = new_game(spike_dice=False)
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c", "+7c"], dice=None)
    for _ in range(2):
        stand_round(game)
        check_round(game)
    assert game.hand.phase == "cards_3" and game.spectator_view()["hand"]["spike_dice"] is None


def test_2_2_4_standing_is_allowed_and_changes_nothing():
    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c"])
    before = (peek(game, 1), market(game), game.stacks[:])
    game.act(1, "stand")
    assert (peek(game, 1), market(game), game.stacks[:]) == before
    assert game.waiting_for() == [0]


def test_2_2_draw_and_trade_with_the_draw_pile():
    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c", "+7c"])
    game.act(1, "draw")
    assert peek(game, 1) == ["+1c", "+2c", "+6c"]
    game.act(0, "trade", card="+3c", source="deck")
    assert peek(game, 0) == ["+4c", "+7c"]
    assert game.hand._discard[-1].code == "+3c"
    assert game.hand.card_costs == {1: 0, 0: 0}


def test_2_2_5_the_last_card_turn_of_round_3_is_the_last_player_still_in():
    game = new_game(stacks=[50, 50, 50])
    start(
        game,
        ["+1c", "+2c"],
        ["+3c", "+4c"],
        ["+5c", "+6c"],
        then=["-1s", "-2s", "-3s", "-4s", "-5s", "-6s"],
    )
    stand_round(game)
    check_round(game)
    stand_round(game)
    game.act(1, "bet", amount=1)
    game.act(2, "call")
    game.act(0, "fold")  # Ann, the dealer, would have taken the last card turn
    assert market(game) == ["-3s", "-2s", "-1s"]
    game.act(1, "buy", source="pilot")  # replaced: Cat still has a turn
    assert market(game) == ["-4s", "-2s", "-1s"]
    game.act(2, "buy", source="wing")  # Cat is now the last still in: not replaced
    assert market(game) == ["-4s", "-1s"]
    assert game.hand.draw_pile_size() == 62 - 6 - 4


def test_2_2_6_traded_cards_go_face_down_and_the_draw_pile_refills_the_market():
    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c"])
    game.act(1, "trade", card="+1c", source="pilot")
    assert peek(game, 1) == ["+2c", "+5c"]
    assert market(game) == ["+6c"]  # not the +1c given up
    view = json.dumps([game.spectator_view(), game.view_for(0)])
    assert "+1c" not in view
    assert game.spectator_view()["hand"]["discard_count"] == 1
    assert game.spectator_view()["hand"]["discard_top"] is None


def test_2_2_7_a_card_price_is_dead_money_in_the_main_pot():
    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c"])
    game.act(1, "buy", source="pilot")
    game.act(0, "stand")
    hand = game.hand
    assert hand.contributions == {1: 2, 0: 2}  # antes only: the price is not a contribution
    assert hand.pots()[0].amount == 5
    # Not a bet: Bob may check, and Ann's call of a bet is the bet alone.
    assert "check" in game.legal_actions(1).verbs
    game.act(1, "bet", amount=3)
    assert game.legal_actions(0).call_amount == 3
    assert game.total_credits() == 200


def test_2_2_8_no_card_costs_more_than_the_stack_and_the_last_credit_makes_all_in():
    game = new_game(stacks=[4, 100])
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c", "+7c", "+8c"])
    game.act(1, "stand")
    game.act(0, "stand")
    check_round(game)
    game.act(1, "stand")
    assert game.stacks[0] == 1
    state = game.to_json()
    with pytest.raises(InvalidAmount, match="the Wing costs 2 credits; Ann has 1"):
        game.act(0, "buy", source="wing")
    assert game.to_json() == state
    game.act(0, "buy", source="pilot")
    assert game.stacks[0] == 0 and game.hand.is_all_in(0)
    # Nobody has a betting decision left: round 2's betting is skipped, round 3's card turns happen.
    assert game.hand.phase == "cards_3" and game.waiting_for() == [1]


def test_2_2_9_an_all_in_player_still_takes_card_turns_but_only_free_moves():
    game = new_game(stacks=[3, 100])
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c"], dice=(2, 2))
    game.act(1, "stand")
    legal = game.legal_actions(0)
    assert legal.verbs == ("stand", "draw", "trade")
    assert dict(legal.trade_from) == {"deck": 0}
    with pytest.raises(InvalidAmount, match="the Pilot costs 1 credit; Ann has 0"):
        game.act(0, "trade", card="+3c", source="pilot")
    game.act(0, "draw")
    assert len(peek(game, 0)) == 3
    game2 = new_game(stacks=[3, 100], market_prices=[0, 2, 3])
    start(game2, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c"])
    game2.act(1, "stand")
    assert "buy" in game2.legal_actions(0).verbs
    game2.act(0, "buy", source="pilot")
    assert "+5c" in peek(game2, 0)


def test_2_2_10_folding_happens_only_in_betting_rounds():
    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c"], dice=(3, 3))
    state = game.to_json()
    with pytest.raises(WrongPhase, match="card turn in round 1: stand, draw, trade or buy"):
        game.act(1, "fold")
    assert game.to_json() == state
    for _ in range(2):
        stand_round(game)
        check_round(game)
    with pytest.raises(WrongPhase, match="the spike dice matched: Bob must spike a card first"):
        game.act(1, "fold")
    with pytest.raises(WrongPhase, match="must spike"):
        game.act(1, "stand")


def test_2_2_11_spiking_is_a_decision_made_in_turn():
    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c", "-1s", "-2s"], dice=(1, 1))
    for _ in range(2):
        stand_round(game)
        check_round(game)
    with pytest.raises(NotYourTurn, match="waiting for Bob"):
        game.act(0, "spike", card="+3c")
    with pytest.raises(IllegalAction, match="You do not hold \\+3c"):
        game.act(1, "spike", card="+3c")
    game.act(1, "spike", card="+2c")
    assert game.waiting_for() == [0]


def test_2_2_12_betting_rounds_are_no_limit_starting_left_of_the_dealer():
    game = new_game(stacks=[50, 50, 50], dealer=1)
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], ["+5c", "+6c"], then=["+7c"])
    stand_round(game)
    # Bob deals: Cat acts first.
    assert game.waiting_for() == [2]
    game.act(2, "bet", amount=5)
    game.act(0, "raise", amount=20)
    legal = game.legal_actions(1)
    assert legal.can_raise and legal.min_raise_to == 21 and legal.max_raise_to == 47
    game.act(1, "raise", amount=47)  # the whole stack: an all-in by any name
    assert game.stacks[1] == 0
    game.act(2, "call")
    game.act(0, "call")
    assert game.hand.phase == "cards_2"
    stand_round(game)
    # Every betting round starts with the first player still in to the dealer's left.
    assert game.waiting_for() == [2]


def test_2_2_12_a_betting_round_nobody_can_act_in_is_skipped_and_card_turns_go_on():
    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c", "+7c"])
    stand_round(game)
    game.act(1, "allin")
    game.act(0, "call")
    assert game.hand.phase == "cards_2"
    stand_round(game)
    assert game.hand.phase == "cards_3"
    stand_round(game)
    assert game.hand.is_complete


def test_2_2_13_a_folded_hand_goes_aside_face_down_not_on_the_discard_pile():
    game = new_game("cantina_spike", stacks=[50, 50, 50])
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], ["+5c", "+6c"], then=["-7t"])
    stand_round(game)
    game.act(1, "bet", amount=2)
    game.act(2, "fold")
    view = game.spectator_view()
    assert view["hand"]["discard_top"] == "-7t" and view["hand"]["discard_count"] == 1
    assert "+3c" not in json.dumps(view) and "+4c" not in json.dumps(view)
    assert game.card_count() == 62


def test_2_2_all_but_one_folding_ends_the_hand_at_once():
    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c"])
    stand_round(game)
    game.act(1, "bet", amount=5)
    game.act(0, "fold")
    assert game.hand.is_complete
    # Bob's bet comes back uncalled; he wins the antes; his +3 is no Sabacc, so the Sabacc pot carries over.
    assert game.stacks == [97, 101] and game.pools == {"sabacc_pot": 2}
    with pytest.raises(WrongPhase, match="Hand 1 is over"):
        game.act(1, "stand")
