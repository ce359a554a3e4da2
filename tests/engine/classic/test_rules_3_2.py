"""RULES 3.2: a hand in order. Antes, the deal, declared totals, play turns, rolls and Sabacc Shifts, the
interference field, calling the hand and running out of cards."""

import pytest

from games.engine.errors import IllegalAction, NotYourTurn, WrongPhase
from tests.engine.classic.helpers import (
    act,
    check_round,
    field_of,
    hand_of,
    new_game,
    play_rounds,
    seat,
    stand_all,
    start,
)

TWO = {"Ann": ["+10s", "+5f"], "Bob": ["+9c", "+4t"]}


def test_3_2_1_antes_go_into_both_pots():
    game = new_game(stacks=[100, 100], ante=2, sabacc_ante=3)
    start(game, TWO)
    assert game.stacks == [95, 95]
    assert game.hand.hand_pot() == 4
    assert game.hand.sabacc_pot == 6


def test_3_2_1_a_short_stack_pays_the_hand_ante_first_and_is_all_in():
    game = new_game(stacks=[100, 3], ante=2, sabacc_ante=2)
    start(game, TWO)
    hand = game.hand
    assert hand.forced == {1: 2, 0: 2}
    assert hand.sabacc_antes == {1: 1, 0: 2}
    assert hand.is_all_in(1)


def test_3_2_2_two_cards_each_one_at_a_time_from_the_dealers_left():
    game = new_game(stacks=[100, 100, 100])
    start(game, {"Ann": ["+1s", "+2s"], "Bob": ["+3s", "+4s"], "Cat": ["+5s", "+6s"]})
    deals = [(r.seat, r.cards[0].code) for r in game.hand._log if r.kind == "deal"]
    assert deals == [(1, "+3s"), (2, "+5s"), (0, "+1s"), (1, "+4s"), (2, "+6s"), (0, "+2s")]
    assert game.hand.draw_pile_size() == 70
    assert game.hand.discard_size() == 0


def test_3_2_2_declared_totals_are_public_with_declare_totals_and_absent_without():
    game = new_game()
    start(game, TWO)
    view = game.view_for(seat(game, "Ann"))
    bob = next(p for p in view["players"] if p["name"] == "Bob")
    assert bob["declared_total"] == 13  # Ruling 3.2.2: the true total
    universe = new_game("universe")
    start(universe, TWO)
    bob = next(p for p in universe.view_for(0)["players"] if p["name"] == "Bob")
    assert "declared_total" not in bob


def test_3_2_play_round_every_player_in_turn_from_the_dealers_left():
    game = new_game(stacks=[100, 100, 100])
    start(game, {"Ann": ["+1s", "+2s"], "Bob": ["+3s", "+4s"], "Cat": ["+5s", "+6s"]})
    assert game.hand.phase == "play"
    order = []
    while game.hand.phase == "play":
        (who,) = game.waiting_for()
        order.append(game.names[who])
        game.act(who, "stand")
    assert order == ["Bob", "Cat", "Ann"]
    assert game.hand.phase == "betting"
    assert game.waiting_for() == [seat(game, "Bob")]


def test_3_2_draw_takes_the_top_card_and_trade_gives_one_back_face_down():
    game = new_game()
    start(game, TWO, then=["+7s", "+8s"])
    act(game, "Bob", "draw")
    assert hand_of(game, "Bob") == ["+4t", "+7s", "+9c"]
    act(game, "Ann", "trade", card="+10s")
    assert hand_of(game, "Ann") == ["+5f", "+8s"]
    assert game.hand.discard_size() == 1
    spectator = game.spectator_view()
    assert "+10s" not in str(spectator)


def test_3_2_9_unlock_comes_before_the_play_and_lock_after_it():
    game = new_game()
    start(game, TWO, then=["+7s", "+8s", "+1c"])
    act(game, "Bob", "draw", lock="+7s")  # the card just drawn may be locked
    assert field_of(game, "Bob") == ["+7s"]
    act(game, "Ann", "stand", lock="+10s")
    play_rounds_betting = check_round
    play_rounds_betting(game)
    act(game, "Bob", "trade", unlock="+7s", card="+7s")  # a card just unlocked may be traded
    assert field_of(game, "Bob") == []
    assert "+7s" not in hand_of(game, "Bob")


def test_3_2_9_lock_taken_locks_the_card_the_play_takes_without_naming_it():
    """A player has not seen the card a draw or trade takes: `lock="taken"` locks it (the replay names it)."""
    game = new_game()
    start(game, TWO, then=["+7s", "+8s", "+1c"])
    act(game, "Bob", "draw", lock="taken")
    assert field_of(game, "Bob") == ["+7s"]
    before = game.to_json()
    with pytest.raises(IllegalAction, match="Standing takes no card"):
        act(game, "Ann", "stand", lock="TAKEN ")
    assert game.to_json() == before
    act(game, "Ann", "trade", card="+10s", lock="taken")
    assert field_of(game, "Ann") == ["+8s"]
    from games.engine.replay import export_replay

    actions = [a for a in export_replay(game)["hands"][0]["actions"] if a.get("lock")]
    assert [a["lock"] for a in actions] == ["+7s", "+8s"]  # the replay names the cards


def test_3_2_10_a_trade_never_gives_up_the_card_just_taken():
    game = new_game()
    start(game, TWO, then=["+7s"])
    with pytest.raises(IllegalAction, match=r"cannot trade \+7s: it is not in Bob's hand"):
        act(game, "Bob", "trade", card="+7s")


def test_3_2_a_field_card_cannot_be_traded_without_unlocking_it_and_the_refusal_changes_nothing():
    game = new_game()
    start(game, TWO, then=["+7s", "+8s", "+1c"])
    act(game, "Bob", "stand", lock="+9c")
    act(game, "Ann", "stand")
    check_round(game)
    before = game.to_json()
    with pytest.raises(IllegalAction, match=r"cannot trade \+9c: it is not in Bob's hand \(it is in the interference"):
        act(game, "Bob", "trade", card="+9c")
    with pytest.raises(IllegalAction, match=r"cannot unlock \+4t: it is not in Bob's interference field"):
        act(game, "Bob", "stand", unlock="+4t")
    with pytest.raises(IllegalAction, match=r"cannot lock \+9c: it is not in Bob's hand \(it is already in"):
        act(game, "Bob", "stand", lock="+9c")
    with pytest.raises(WrongPhase, match="wrong phase: it is Bob's play turn in round 2"):
        act(game, "Bob", "check")
    with pytest.raises(NotYourTurn, match="It is not Ann's turn: waiting for Bob"):
        act(game, "Ann", "stand")
    with pytest.raises(IllegalAction, match="stand takes unlock, lock; got 'card'"):
        act(game, "Bob", "stand", card="+4t")
    assert game.to_json() == before


def test_3_2_nobody_may_discard_without_drawing():
    game = new_game()
    start(game, TWO)
    assert game.legal_actions(seat(game, "Bob")).verbs[:3] == ("draw", "trade", "stand")
    assert "discard" not in game.variant.verbs


def rolls_of(game):
    return len(game.hand.rolls)


def test_3_2_classic_rolls_after_every_play_turn_and_every_betting_round():
    game = new_game()
    start(game, TWO)
    act(game, "Bob", "stand")
    assert rolls_of(game) == 1
    act(game, "Ann", "stand")
    assert rolls_of(game) == 2
    check_round(game)
    assert rolls_of(game) == 3
    assert [r.note for r in game.hand.log_for(None) if r.kind == "dice"] == ["1-2", "1-2", "1-2"]


def test_3_6_universe_rolls_only_after_betting_rounds_and_off_never():
    game = new_game("universe")
    start(game, TWO)
    stand_all(game)
    assert rolls_of(game) == 0
    check_round(game)
    assert rolls_of(game) == 1
    off = new_game(shift_rolls="off")
    start(off, TWO)
    play_rounds(off, 3)
    assert rolls_of(off) == 0


def test_3_2_a_pair_sets_off_a_sabacc_shift_and_locked_cards_survive_it():
    game = new_game(stacks=[100, 100, 100])
    hands = {"Ann": ["+1s", "+2s"], "Bob": ["+3s", "+4s"], "Cat": ["+5s", "+6s"]}
    start(game, hands, then=["+7s"], rolls=[(1, 2), (4, 4)], piles=[["+11f", "+12f", "+13f", "+14f", "+15f"]])
    act(game, "Bob", "draw", lock="+7s")
    before = game.card_count()
    act(game, "Cat", "trade", card="+5s", lock="+6s")  # then 4-4: a Shift
    hand = game.hand
    assert hand.shifts == [2]
    assert field_of(game, "Bob") == ["+7s"] and field_of(game, "Cat") == ["+6s"]  # field cards never move
    # Each player gets back as many cards as were taken from their hand, one at a time from the dealer's left.
    assert hand_of(game, "Bob") == ["+11f", "+14f"]
    assert hand_of(game, "Cat") == ["+12f"]
    assert hand_of(game, "Ann") == ["+13f", "+15f"]
    assert hand.discard_size() == 0  # Ruling 3.2.13: the discard pile is gathered too
    assert game.card_count() == before == 76
    shift_steps = [r for r in hand.log_for(seat(game, "Ann")) if r.kind == "shift"]
    assert all(not r.cards for r in shift_steps if r.seat != seat(game, "Ann"))


def test_3_2_a_player_whose_cards_are_all_in_the_field_is_untouched_by_a_shift():
    game = new_game()
    start(game, TWO, then=["+7s"], rolls=[(1, 2), (1, 2), (1, 2), (3, 3), (1, 2), (1, 2)])
    act(game, "Bob", "stand", lock="+9c")
    act(game, "Ann", "stand", lock="+10s")
    check_round(game)
    act(game, "Bob", "stand", lock="+4t")  # then 3-3: a Shift
    assert game.hand.shifts == [4]
    assert hand_of(game, "Bob") == [] and field_of(game, "Bob") == ["+4t", "+9c"]
    assert field_of(game, "Ann") == ["+10s"] and len(hand_of(game, "Ann")) == 1


def test_3_2_3_the_hand_may_be_called_from_round_call_round_on():
    game = new_game()
    start(game, TWO)
    stand_all(game)
    with pytest.raises(IllegalAction, match="may be called from betting round 4 on; this is round 1"):
        act(game, "Bob", "check", call_hand=True)
    assert not game.legal_actions(seat(game, "Bob")).can_call_hand
    check_round(game)
    play_rounds(game, 2)
    stand_all(game)
    assert game.legal_actions(seat(game, "Bob")).can_call_hand
    act(game, "Bob", "check", call_hand=True)
    assert game.hand.called_by == seat(game, "Bob")


def test_3_2_4_the_call_rides_on_a_betting_action_once_never_on_a_fold_and_the_round_goes_on():
    game = new_game(call_round=1)
    start(game, TWO)
    stand_all(game)
    with pytest.raises(IllegalAction, match="A fold cannot call the hand"):
        act(game, "Bob", "fold", call_hand=True)
    with pytest.raises(IllegalAction, match="call_hand is true or left out"):
        act(game, "Bob", "check", call_hand="yes")
    act(game, "Bob", "bet", amount=3, call_hand=True)
    with pytest.raises(IllegalAction, match="already called"):
        act(game, "Ann", "raise", amount=6, call_hand=True)
    act(game, "Ann", "raise", amount=6)  # the round goes on as usual
    assert game.in_hand and game.waiting_for() == [seat(game, "Bob")]
    act(game, "Bob", "call")
    result = game.results[-1]
    assert result["ended"] == "called" and result["called_by"] == "Bob"
    assert result["rolls"] == 3  # two turns and the final roll (Ruling 3.2.5: the closing roll is the final one)


def test_3_2_5_the_final_roll_can_shift_before_the_reveal():
    game = new_game(call_round=1)
    start(game, TWO, rolls=[(1, 2), (1, 2), (6, 6)], piles=[["+15c", "+8t", "+1f", "+2f"]])
    stand_all(game)
    check_round(game, call_hand_by="Bob")
    result = game.results[-1]
    assert result["shifts"] == [3]
    assert sorted(result["showdown"]["Bob"]["cards"]) == ["+15c", "+1f"]


def test_3_2_6_a_round_nobody_can_bet_in_is_skipped_still_rolls_and_from_call_round_calls_the_hand():
    game = new_game(stacks=[100, 5], call_round=2)
    start(game, TWO)
    stand_all(game)
    act(game, "Bob", "allin")
    act(game, "Ann", "call")
    assert (game.hand.round_number, game.hand.phase, len(game.hand.rolls)) == (2, "play", 3)
    stand_all(game)  # round 2: betting skipped from its start, rolled, and the hand called by itself
    result = game.results[-1]
    assert result["ended"] == "no_betting" and result["rounds"] == 2
    assert result["rolls"] == 6


def test_3_2_7_max_rounds_calls_the_hand_by_itself():
    game = new_game(call_round=2, max_rounds=3)
    start(game, TWO)
    play_rounds(game, 3)
    result = game.results[-1]
    assert result["ended"] == "max_rounds" and result["rounds"] == 3 and result["called_by"] is None


def test_3_2_8_all_in_players_keep_taking_play_turns():
    game = new_game(stacks=[100, 5])
    start(game, TWO, then=["+7s", "+8s"])
    stand_all(game)
    act(game, "Bob", "allin")
    act(game, "Ann", "call")
    assert game.hand.is_all_in(seat(game, "Bob"))
    assert game.waiting_for() == [seat(game, "Bob")]
    act(game, "Bob", "draw")
    assert len(hand_of(game, "Bob")) == 3


def test_3_2_11_a_fold_puts_hand_and_field_face_down_on_the_discard_pile_and_3_2_12_costs_nothing():
    game = new_game(stacks=[100, 100, 100])
    start(game, {"Ann": ["+1s", "+2s"], "Bob": ["+3s", "+4s"], "Cat": ["+5s", "+6s"]})
    act(game, "Bob", "stand", lock="+3s")
    act(game, "Cat", "stand")
    act(game, "Ann", "stand")
    act(game, "Bob", "fold")
    assert game.hand.discard_size() == 2
    assert game.stacks[seat(game, "Bob")] == 98
    assert "+3s" not in str(game.spectator_view()["players"])


def test_3_2_14_with_both_piles_empty_a_player_must_stand_and_an_empty_draw_pile_is_rebuilt_from_the_discards():
    game = new_game(stacks=[100, 100, 100])
    start(game, {"Ann": ["+1s", "+2s"], "Bob": ["+3s", "+4s"], "Cat": ["+5s", "+6s"]}, rolls=[(1, 2)] * 400)
    hand = game.hand
    while hand.draw_pile_size() > 0:  # everyone draws (and checks) until the draw pile is empty
        who = game.waiting_for()[0]
        game.act(who, "check" if hand.phase == "betting" else "draw")
    assert hand.discard_size() == 0 and not hand.reshuffled
    while hand.phase != "betting":
        who = game.waiting_for()[0]
        legal = game.legal_actions(who)
        assert not legal.can_draw and not legal.can_trade and legal.can_stand
        with pytest.raises(IllegalAction, match="The draw pile and the discard pile are both empty"):
            game.act(who, "draw")
        game.act(who, "stand")
    act(game, "Bob", "check")
    act(game, "Cat", "fold")  # Cat's cards go onto the discard pile
    act(game, "Ann", "check")
    assert hand.discard_size() > 0
    act(game, "Bob", "draw")  # the discard pile becomes the new draw pile, then Bob takes its top card
    assert len(hand.reshuffled) == 1
    assert hand.discard_size() == 0
    assert game.card_count() == 76
