"""RULES 1.8: every ruling added or changed since the first engine, one test each (named after it), and
the three bugs the differential run found (min bet dropping, `max_bet` fixed at the starting blinds,
odd credits carried past the last hand)."""

import json

import pytest

from games.engine import PRESETS, InvalidAmount, WrongPhase, resolve_options
from games.engine.pots import Pot, side_pots
from games.engine.replay import export_replay
from tests.engine.helpers import check_round, new_game, play_hand, select_all, start

ANN = ["+1c", "+2c", "+3c", "+4c", "+5c"]
BOB = ["-1s", "-2s", "-3s", "-4s", "-5s"]
CAT = ["+1t", "+2t", "+3t", "+4t", "+5t"]
DAN = ["-1t", "-2t", "-3t", "-4t", "-5t"]


# ----- 1.2.4: selection sizes hidden until the phase closes ------------------------------------------


def test_1_8_selection_sizes_are_hidden_until_the_select_phase_closes():
    game = new_game("cantina", stacks=[100, 100, 100])
    start(game, BOB, CAT, ANN)
    game.select(1, ["-1s", "-2s", "-3s"])
    for viewer in (0, 2, None):
        view = game.spectator_view() if viewer is None else game.view_for(viewer)
        bob = view["players"][1]
        assert bob["has_acted"] is True  # who has chosen is public
        assert bob["selection_size"] is None and bob["cards_held"] == 5  # how many is not
        assert "3" not in json.dumps([r.amount for r in game.hand.log_for(viewer) if r.kind == "select"])
    assert game.view_for(1)["players"][1]["selection_size"] == 3  # Bob sees his own
    game.select(0, ["+1c"])
    game.select(2, [])
    # The phase has closed: every size is public now.
    assert [row["selection_size"] for row in game.spectator_view()["players"]] == [1, 3, 0]
    assert [r.amount for r in game.hand.log_for(None) if r.kind == "select"] == [3, 1, 0]


def test_1_8_selection_sizes_added_in_the_improve_phase_are_hidden_until_it_closes():
    game = new_game("cantina", stacks=[100, 100])
    start(game, BOB, ANN, then=["+6c", "+7c", "+8c", "+9c", "+10c", "-6s", "-7s", "-8s", "-9s", "-10s"])
    select_all(game, {1: ["-1s", "-2s"], 0: ["+1c"]})
    check_round(game)
    assert game.hand.phase == "improve"
    added = game.view_for(1)["cards"][:2]
    game.select(1, added)
    ann_sees = game.view_for(0)["players"][1]
    assert (ann_sees["selection_size"], ann_sees["cards_held"]) == (2, 3)  # as the shift left them
    game.select(0, [])
    assert game.spectator_view()["players"][1]["selection_size"] == 4


# ----- 1.2.9: folded cards go to the discard pile ----------------------------------------------------


def test_1_8_folded_cards_go_face_down_to_the_discard_pile():
    game = new_game("cantina", stacks=[100, 100, 100])
    hand = start(game, BOB, CAT, ANN)
    select_all(game, {2: ["+1t"]})
    game.bet(1, 5)
    game.fold(2)
    assert set(map(str, CAT)) <= {c.code for c in hand._discard}  # all five of Cat's cards, selection included
    assert hand._cards[2] == [] and hand._selection[2] == []
    assert game.card_count() == 62
    assert "+1t" not in json.dumps(game.spectator_view())


# ----- 1.4: reopening by cumulative short all-ins (TDA 47) ------------------------------------------


def _four_short_stacks(dan: int):
    game = new_game("cantina", stacks=[100, 100, 15, dan], dealer=0, ante=0, min_bet=10, escalation="none")
    game.start_hand()
    select_all(game)
    game.bet(1, 10)  # Bob opens: a full raise is now 10 more
    game.all_in(2)  # Cat 15: +5, short
    game.all_in(3)  # Dan: short on its own
    game.call(0)
    return game


def test_1_8_reopening_by_cumulative_short_all_ins():
    game = _four_short_stacks(dan=21)  # 15 then 21: the bet rose by 11 since Bob acted, a full raise
    legal = game.legal_actions(1)
    assert legal.can_raise and legal.min_raise_to == 31
    game.raise_to(1, 31)
    assert game.waiting_for() == [0]


def test_1_8_short_all_ins_that_add_up_to_less_than_a_raise_do_not_reopen():
    game = _four_short_stacks(dan=19)  # the bet rose by 9 only
    assert game.legal_actions(1).verbs == ("call", "fold")
    with pytest.raises(WrongPhase, match="not risen by a full raise"):
        game.raise_to(1, 30)


# ----- 1.4: all-in by any name -----------------------------------------------------------------------


def test_1_8_a_bet_raise_or_call_of_the_whole_stack_is_an_all_in():
    game = new_game("cantina", stacks=[100, 8], dealer=0, ante=0, min_bet=10)
    game.start_hand()
    select_all(game)
    assert not game.legal_actions(1).can_bet  # 8 is below the min bet...
    game.bet(1, 8)  # ...but a bet of the whole stack is an all-in
    assert game.stacks[1] == 0 and game.hand._log[-1].kind == "allin"
    game = new_game("cantina", stacks=[100, 100, 25], dealer=0, ante=0, min_bet=10)
    game.start_hand()
    select_all(game)
    game.bet(1, 20)
    game.raise_to(2, 25)  # a raise of 5, short of the min raise, is Cat's whole stack: an all-in
    assert game.stacks[2] == 0
    game.call(0)
    game.call(1)
    assert [a["do"] for a in export_replay(game)["hands"][0]["actions"][3:]] == ["bet", "allin", "call", "call"]


def test_1_8_allin_in_a_fixed_stay_round_is_a_call_when_within_the_stay_cost():
    game = new_game("halcyon", stacks=[10, 10, 2], dealer=0)
    game.start_hand()  # Cat has 1 left after the ante
    select_all(game)
    assert game.waiting_for() == [1]
    with pytest.raises(WrongPhase, match="call \\(pay 1 to stay\\) or fold"):
        game.all_in(1)  # 9 behind, more than the stay cost: refused
    game.call(1)
    game.all_in(2)  # 1 behind: read as call
    assert game.hand._log[-1].kind == "call" and game.stacks[2] == 0


# ----- 1.4: min bet with blinds, max_bet with the blinds (bugs 1 and 2) ------------------------------


def _doubled_better(**overrides):
    """A heads-up better game at hand 3, the first whose button passes the first dealer: blinds doubled."""
    game = new_game("better", stacks=[450, 450], dealer=0, **overrides)
    play_hand(game, winner=0)
    play_hand(game, winner=1)
    game.start_hand()
    return game


@pytest.mark.parametrize(
    ("overrides", "first", "doubled"),
    [({"big_blind": 4}, 10, 20), ({"min_bet": 30, "big_blind": 10}, 30, 60), ({}, 10, 20), ({"min_bet": 6}, 6, 12)],
)
def test_1_8_min_bet_never_drops_when_the_blinds_double(overrides, first, doubled):
    # Bug: with min_bet and big_blind overridden apart, doubling gave 10 -> 8 and 30 -> 20.
    game = new_game("better", stacks=[450, 450], dealer=0, **overrides)
    game.start_hand()
    assert game.levels.min_bet == max(first, game.levels.big_blind) == first
    game = _doubled_better(**overrides)
    assert game.levels.big_blind == 2 * game.options.big_blind
    assert game.levels.min_bet == doubled == max(game.options.min_bet * 2, game.levels.big_blind)


def test_1_8_max_bet_rises_with_the_blinds():
    # Bug: the cap stayed at the starting 20 while the big blind doubled to 20, 40, ...
    game = _doubled_better(max_bet=20)
    assert game.levels.big_blind == 20
    select_all(game)
    legal = game.legal_actions(0)  # the dealer posted the small blind (10) and acts first
    assert legal.can_raise and legal.max_raise_to == 40
    with pytest.raises(InvalidAmount, match="between 40 and 40; got 41"):
        game.raise_to(0, 41)
    game.raise_to(0, 40)
    assert game.legal_actions(1).verbs == ("call", "fold")  # the cap is reached


def test_1_8_max_bet_can_never_be_set_below_the_big_blind():
    with pytest.raises(Exception, match="max_bet"):
        resolve_options("coruscant_shift", "better", {"max_bet": 9})


# ----- 1.4: partial big blind, and the betting-round skip --------------------------------------------


def test_1_8_partial_big_blind_still_calls_the_full_blind():
    game = new_game("better", stacks=[450, 450, 4], dealer=0)
    hand = game.start_hand()
    assert hand.forced == {1: 5, 2: 4}  # Cat can post only 4 of the big blind of 10
    select_all(game)
    legal = game.legal_actions(0)
    assert legal.call_amount == 10 and legal.min_raise_to == 20
    game.call(0)
    game.call(1)
    assert hand.contributions == {0: 10, 1: 10, 2: 4}
    assert hand.phase == "improve"
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(12, (0, 1, 2)), (12, (0, 1))]


def test_1_8_betting_round_skipped_when_the_one_active_player_matched_every_all_in():
    game = new_game("better", stacks=[450, 3], dealer=0)
    hand = game.start_hand()  # Ann posts the small blind 5; Bob is all-in for 3 of the big blind
    select_all(game)
    assert hand.phase == "improve"  # nothing Ann could add would be matched: no decision, round skipped
    game = new_game("better", stacks=[450, 7], dealer=0)
    hand = game.start_hand()
    select_all(game)
    assert game.waiting_for() == [0]  # Bob's 7 is more than Ann's 5: Ann decides
    assert game.legal_actions(0).call_amount == 5  # to the full big blind
    game.call(0)
    assert hand.contributions == {0: 10, 1: 7}
    select_all(game)  # round 2 is skipped too: Ann has matched Bob's all-in
    assert hand.is_complete
    assert hand.returned == (0, 3)  # the 3 that Bob could not match comes back
    assert sum(a["amount"] for a in hand.awards) == 14


# ----- 1.4: dead slices ----------------------------------------------------------------------------


def test_1_8_dead_slice_joins_the_nearest_pot_below_it():
    # Ann (all-in for 5) is the only player left; Bob and Cat put in 20 each, then folded.
    assert side_pots({0: 5, 1: 20, 2: 20}, folded={1, 2}) == [Pot(45, (0,))]
    # The top slice (20 to 30) was paid by Cat and Dan, who folded: it joins the side pot below it (Bob's).
    pots = side_pots({0: 5, 1: 20, 2: 30, 3: 30}, folded={2, 3})
    assert pots == [Pot(20, (0, 1)), Pot(45 + 20, (1,))]


def test_1_8_dead_slice_at_the_bottom_joins_the_pot_above_it():
    # Nobody still in paid anything (only reachable with a carry-over to play for).
    assert side_pots({0: 0, 1: 10, 2: 10}, folded={1, 2}, carry=3) == [Pot(23, ())]


# ----- 1.5: one blind overridden, casino ante, hands for every preset --------------------------------


def test_1_8_one_blind_overridden():
    options = resolve_options("coruscant_shift", "better", {"big_blind": 4})
    assert (options["small_blind"], options["big_blind"], options["min_bet"]) == (2, 4, 10)
    options = resolve_options("coruscant_shift", "better", {"small_blind": 2})
    assert (options["small_blind"], options["big_blind"]) == (2, 10)
    options = resolve_options("coruscant_shift", "better", {"big_blind": 9})
    assert options["small_blind"] == 4  # rounded down


def test_1_8_casino_ante_follows_min_bet():
    game = new_game("casino", stacks=[450, 450, 450], min_bet=25)
    assert game.start_hand().forced == {0: 25, 1: 25, 2: 25}
    game = new_game("casino", stacks=[450, 450], min_bet=25, ante=5)
    assert game.start_hand().forced == {0: 5, 1: 5}


@pytest.mark.parametrize("preset", PRESETS)
def test_1_8_hands_limit_applies_to_every_preset(preset):
    stack = resolve_options("coruscant_shift", preset)["starting_stack"]
    game = new_game(preset, stacks=[stack] * 4, hands=2)
    play_hand(game, winner=0)
    assert not game.is_over
    play_hand(game, winner=1)
    assert game.is_over and game.hands_played == 2
    assert not game.can_start_hand()


# ----- 1.5: no carry past the end (bug 3) -----------------------------------------------------------


def _tied_hand(game) -> None:
    """Ann and Cat tie (total 0, two circles each, target 0 circle); Bob folds his small blind: 25 to split."""
    start(
        game,
        ["-1s", "-2s", "-3s", "-4s", "-5s"],  # Bob, small blind
        ["+3c", "-3c", "+6s", "+7s", "+8s"],  # Cat, big blind
        ["+2c", "-2c", "+6t", "+7t", "+8t"],  # Ann, the dealer
        target=0,
        suit="circle",
    )
    select_all(game, {0: ["+2c", "-2c"], 2: ["+3c", "-3c"]})
    game.call(0)
    game.fold(1)
    game.check(2)
    select_all(game)
    check_round(game)


def test_1_8_no_carry_past_the_end_of_a_game_with_a_hands_limit():
    game = new_game("better", stacks=[450, 450, 450], dealer=0, hands=1)
    _tied_hand(game)
    assert game.is_over
    # Bug: the odd credit stayed carried over, given to nobody. In the last hand it goes left of the dealer.
    assert game.carry == 0
    assert game.results[-1]["pots"][0]["paid"] == {"Cat": 13, "Ann": 12}
    assert game.stacks == [450 - 10 + 12, 450 - 5, 450 - 10 + 13]
    assert sum(game.stacks) == 1350


def test_1_8_the_odd_credit_is_still_carried_when_more_hands_follow():
    game = new_game("better", stacks=[450, 450, 450], dealer=0, hands=2)
    _tied_hand(game)
    assert not game.is_over and game.carry == 1
    assert game.results[-1]["pots"][0]["paid"] == {"Cat": 12, "Ann": 12}


def test_1_8_no_carry_past_halcyons_last_dealer():
    game = new_game("halcyon", stacks=[10, 10], dealer=0, odd_credits="carry")
    play_hand(game, winner=0)
    game.start_hand()  # Bob deals the last hand: known before it starts
    assert game.hand.odd_credits == "left_of_dealer"
    game = new_game("halcyon", stacks=[10, 10, 10], dealer=0, odd_credits="carry")
    assert game.start_hand().odd_credits == "carry"


# ----- 1.5: zero-credit seats in standings ----------------------------------------------------------


def test_1_8_a_seat_that_starts_with_no_credits_ranks_below_everyone_who_went_out_in_a_hand():
    game = new_game("cantina", stacks=[100, 0, 100, 2], dealer=0)
    play_hand(game, winner=0)  # Dan is all-in with his ante and loses: out in hand 1
    assert game.stacks[3] == 0
    rows = {row["player"]: row["place"] for row in game.standings()}
    assert rows["Dan"] == 3 and rows["Bob"] == 4
