"""RULES 1.4: betting order, the no_limit and fixed_stay structures, skipped rounds, uncalled bets, side pots."""

import random

import pytest

from games.engine import IllegalAction, InvalidAmount, NotYourTurn, WrongPhase
from games.engine.bots.base import apply_decision
from games.engine.bots.random_legal import random_decision
from games.engine.pots import Pot, side_pots, uncalled
from tests.engine.helpers import check_round, new_game, select_all


def test_1_4_round_1_starts_left_of_the_big_blind_and_round_2_left_of_the_dealer():
    game = new_game("better", stacks=[450] * 4, dealer=0)
    hand = game.start_hand()
    assert hand.forced == {1: 5, 2: 10}
    select_all(game)
    assert game.waiting_for() == [3]
    check_round(game)
    select_all(game)
    assert game.hand.phase == "betting_2"
    assert game.waiting_for() == [1]


def test_1_4_without_blinds_round_1_starts_left_of_the_dealer():
    game = new_game("cantina", stacks=[100] * 4, dealer=2)
    game.start_hand()
    select_all(game)
    assert game.waiting_for() == [3]
    check_round(game)
    select_all(game)
    assert game.waiting_for() == [3]


def test_1_4_heads_up_dealer_posts_small_blind_and_acts_first_then_second():
    game = new_game("better", stacks=[450, 450], dealer=0)
    hand = game.start_hand()
    assert hand.forced == {0: 5, 1: 10}
    select_all(game)
    assert game.waiting_for() == [0]
    game.call(0)
    game.check(1)
    select_all(game)
    assert game.waiting_for() == [1]


def test_1_4_check_only_when_nothing_is_owed_and_bet_opens_at_the_min_bet():
    game = new_game("cantina", stacks=[100, 100], dealer=0, min_bet=3)
    game.start_hand()
    select_all(game)
    legal = game.legal_actions(1)
    assert legal.verbs == ("check", "bet", "fold", "allin")
    assert (legal.min_bet, legal.max_bet) == (3, 98)
    with pytest.raises(InvalidAmount, match="from 3 to 98; got 2"):
        game.bet(1, 2)
    game.bet(1, 3)
    with pytest.raises(WrongPhase, match="you owe 3"):
        game.check(0)
    assert game.legal_actions(0).call_amount == 3
    game.call(0)
    assert game.hand.phase == "improve"


def test_1_4_raise_increment_must_be_at_least_the_min_bet_jane_raises_3_to_4():
    game = new_game("cantina", stacks=[100, 100], dealer=0)
    game.start_hand()
    select_all(game)
    game.bet(1, 3)
    legal = game.legal_actions(0)
    assert (legal.min_raise_to, legal.max_raise_to) == (4, 98)
    game.raise_to(0, 4)
    game.call(1)
    assert game.hand.contributions == {0: 6, 1: 6}


def test_1_4_min_raise_last_increment_is_the_poker_rule():
    game = new_game("cantina", stacks=[100, 100], dealer=0, min_raise="last_increment")
    game.start_hand()
    select_all(game)
    game.bet(1, 3)
    assert game.legal_actions(0).min_raise_to == 6
    with pytest.raises(InvalidAmount, match="between 6 and 98; got 4"):
        game.raise_to(0, 4)
    game.raise_to(0, 10)
    assert game.legal_actions(1).min_raise_to == 17


def test_1_4_fold_removes_the_player_and_their_chips_stay_in_the_pot():
    game = new_game("cantina", stacks=[100, 100, 100], dealer=0)
    game.start_hand()
    select_all(game)
    game.bet(1, 5)
    game.call(2)
    game.fold(0)
    assert 0 in game.hand.folded
    assert game.hand.pots() == [Pot(16, (1, 2))]


def test_1_4_all_in_is_allowed_at_any_size():
    game = new_game("cantina", stacks=[100, 4], dealer=0, min_bet=10)
    game.start_hand()
    select_all(game)
    assert game.legal_actions(1).can_bet is False  # 2 left behind, below the min bet
    assert game.legal_actions(1).all_in_amount == 2
    game.all_in(1)
    assert game.legal_actions(0).call_amount == 2
    game.call(0)
    assert game.hand.phase == "improve"


def test_1_4_short_all_in_does_not_reopen_betting():
    game = new_game("cantina", stacks=[100, 100, 14], dealer=0, min_bet=10, escalation="none")
    game.start_hand()
    select_all(game)
    game.bet(1, 10)  # Bob
    game.all_in(2)  # Cat: 12, a raise of 2, short of a full raise
    legal = game.legal_actions(0)  # Ann has not acted yet: she may still raise
    assert legal.can_raise
    game.call(0)
    legal = game.legal_actions(1)  # Bob already acted: only call or fold
    assert legal.verbs == ("call", "fold")
    with pytest.raises(WrongPhase, match="not risen by a full raise"):
        game.raise_to(1, 30)
    with pytest.raises(WrongPhase, match="not reopened"):
        game.all_in(1)
    game.call(1)
    assert game.hand.phase == "improve"


def test_1_4_full_all_in_raise_reopens_betting():
    game = new_game("cantina", stacks=[100, 100, 40], dealer=0, min_bet=10, escalation="none")
    game.start_hand()
    select_all(game)
    game.bet(1, 10)
    game.all_in(2)  # 38: a full raise
    game.call(0)
    assert game.legal_actions(1).can_raise


def test_1_4_max_bet_caps_a_players_total_in_one_round():
    game = new_game("cantina", stacks=[100, 100], dealer=0, max_bet=20)
    game.start_hand()
    select_all(game)
    legal = game.legal_actions(1)
    assert legal.max_bet == 20 and not legal.can_all_in
    with pytest.raises(InvalidAmount, match="from 1 to 20; got 21"):
        game.bet(1, 21)
    game.bet(1, 15)
    assert game.legal_actions(0).max_raise_to == 20
    with pytest.raises(InvalidAmount, match="capped at 20"):
        game.all_in(0)
    game.raise_to(0, 20)
    game.call(1)
    assert game.hand.contributions == {0: 22, 1: 22}


def test_1_4_round_ends_when_everyone_matched_or_all_but_one_folded():
    game = new_game("cantina", stacks=[100, 100, 100], dealer=0)
    game.start_hand()
    select_all(game)
    game.bet(1, 4)
    game.raise_to(2, 8)
    game.call(0)
    assert game.waiting_for() == [1]
    game.call(1)
    assert game.hand.phase == "improve"
    select_all(game)
    game.bet(1, 10)
    game.fold(2)
    game.fold(0)
    assert game.hand.is_complete


def test_1_4_big_blind_may_check_or_raise_when_round_1_comes_back_unraised():
    game = new_game("better", stacks=[450, 450, 450], dealer=0)
    game.start_hand()
    select_all(game)
    game.call(0)
    game.call(1)
    legal = game.legal_actions(2)
    assert legal.can_check and legal.can_raise and legal.min_raise_to == 20
    game.check(2)
    assert game.hand.phase == "improve"


def test_1_4_fixed_stay_each_player_pays_the_stay_cost_or_folds_once():
    game = new_game("halcyon", stacks=[10, 10, 10], dealer=0, stay_cost=2)
    game.start_hand()
    select_all(game)
    legal = game.legal_actions(1)
    assert legal.verbs == ("call", "fold") and legal.call_amount == 2
    with pytest.raises(WrongPhase, match="either call"):
        game.bet(1, 3)
    with pytest.raises(WrongPhase, match="either call"):
        game.check(1)
    game.call(1)
    game.call(2)
    game.fold(0)
    assert game.hand.phase == "improve"  # once each: no second lap
    assert game.hand.contributions == {0: 1, 1: 3, 2: 3}


def test_1_4_fixed_stay_partial_payment_is_all_in():
    game = new_game("halcyon", stacks=[10, 10, 2], dealer=0, stay_cost=2)
    game.start_hand()
    select_all(game)
    game.call(1)
    assert game.legal_actions(2).call_amount == 1
    game.call(2)
    assert game.hand.is_all_in(2)


def test_1_4_fixed_stay_no_decision_when_every_opponent_is_all_in():
    game = new_game("halcyon", stacks=[10, 1, 1], dealer=0)
    game.start_hand()  # both short seats are all-in after the ante
    select_all(game)
    assert game.hand.phase == "improve"
    select_all(game)
    assert game.hand.is_complete


def test_1_4_a_betting_round_is_skipped_when_nobody_has_a_decision():
    game = new_game("cantina", stacks=[100, 2], dealer=0)
    game.start_hand()  # Bob is all-in with the ante
    select_all(game)
    assert game.hand.phase == "improve"
    select_all(game)
    assert game.hand.is_complete
    game = new_game("better", stacks=[450, 3], dealer=0)
    game.start_hand()  # heads-up: Ann small blind 5, Bob big blind all-in for 3; Ann owes nothing
    select_all(game)
    assert game.hand.phase == "improve"


def test_1_4_uncalled_bet_returns_to_owner():
    game = new_game("cantina", stacks=[100, 30], dealer=0)
    game.start_hand()
    select_all(game)
    game.bet(1, 5)
    game.all_in(0)  # 98
    game.call(1)  # Bob can only put in his 23
    assert game.hand.phase == "improve"
    select_all(game)
    hand = game.hand
    assert hand.returned == (0, 70)
    assert sum(p["amount"] for p in game.results[-1]["pots"]) == 60
    assert sum(game.stacks) == 130


def test_1_4_uncalled_bet_counts_folded_players_contributions():
    assert uncalled({0: 50, 1: 20, 2: 35}) == (0, 15)
    assert uncalled({0: 20, 1: 20}) is None


def test_1_4_side_pots_are_sliced_at_every_contribution_level():
    contributions = {0: 100, 1: 30, 2: 60, 3: 60, 4: 10}
    pots = side_pots(contributions, folded={4}, carry=7)
    assert pots == [Pot(50 + 80 + 7, (0, 1, 2, 3)), Pot(90, (0, 2, 3)), Pot(40, (0,))]
    assert sum(p.amount for p in pots) == sum(contributions.values()) + 7


def test_1_4_adjacent_slices_with_the_same_eligible_players_are_one_pot():
    assert side_pots({0: 10, 1: 20, 2: 20}, folded={0}) == [Pot(50, (1, 2))]


def test_1_4_side_pots_with_multiple_all_ins_in_a_game():
    game = new_game("cantina", stacks=[100, 10, 30, 60], dealer=0, escalation="none")
    game.start_hand()
    select_all(game)
    game.all_in(1)
    game.all_in(2)
    game.all_in(3)
    game.call(0)
    pots = game.hand.pots()
    assert [(p.amount, p.eligible) for p in pots] == [(40, (0, 1, 2, 3)), (60, (0, 2, 3)), (60, (0, 3))]
    assert game.total_credits() == 200


def test_1_4_only_the_seat_awaited_may_act():
    game = new_game("cantina", stacks=[100, 100, 100], dealer=0)
    game.start_hand()
    select_all(game)
    with pytest.raises(NotYourTurn, match="not Ann's turn: waiting for Bob"):
        game.check(0)
    game.bet(1, 3)
    game.fold(2)
    with pytest.raises(IllegalAction, match="Cat has folded"):
        game.call(2)


def test_1_4_credits_are_conserved_through_random_play():
    rng = random.Random(5)
    for preset, stacks in (("better", [450, 200, 90]), ("cantina", [100, 20, 60, 5]), ("halcyon", [10, 3, 10])):
        game = new_game(preset, stacks=stacks)
        total = game.total_credits()
        for _ in range(400):
            if game.is_over:
                break
            if not game.in_hand:
                game.start_hand()
                continue
            seat = game.waiting_for()[0]
            apply_decision(game, seat, random_decision(game.legal_actions(seat).to_dict(), rng))
            assert game.total_credits() == total
            assert game.card_count() == 62


def test_1_4_a_refused_action_names_only_the_actions_really_allowed():
    # Engine errors say what is wrong and what is allowed: the hint must never offer a refused verb.
    game = new_game("cantina", stacks=[100, 100, 14], dealer=0, min_bet=10, escalation="none")
    game.start_hand()
    with pytest.raises(WrongPhase, match=r"in the select phase; choose your cards with select"):
        game.check(1)
    select_all(game)
    with pytest.raises(WrongPhase, match=r"cannot select cards now: .*; it is a betting turn"):
        game.select(1, [])
    game.bet(1, 10)
    game.all_in(2)  # a short all-in: Bob may not raise again
    game.call(0)
    with pytest.raises(WrongPhase, match=r"already opened at 12; call or fold\.$"):
        game.bet(1, 20)
    with pytest.raises(WrongPhase, match=r"you owe 2 to call; call or fold\.$"):
        game.check(1)
    with pytest.raises(WrongPhase, match=r"not reopened for you; call or fold\.$") as caught:
        game.all_in(1)
    assert "raise" not in str(caught.value).split(";")[-1]
    # Bob has 2 credits behind, below the min bet of 10: he may not bet, so the hint does not offer it
    game = new_game("cantina", stacks=[100, 4], dealer=0, min_bet=10)
    game.start_hand()
    select_all(game)
    with pytest.raises(WrongPhase, match=r"no bet to call; check, fold or go all-in\.$"):
        game.call(1)
    with pytest.raises(WrongPhase, match=r"nobody has bet this round; check, fold or go all-in\.$"):
        game.raise_to(1, 4)


def test_1_4_uncalled_bet_after_folds_is_the_top_minus_the_second_folded_included():
    game = new_game("cantina", stacks=[300, 300, 300], dealer=0, escalation="none")
    game.start_hand()  # antes 2 each; Bob (seat 1) acts first
    select_all(game)
    check_round(game)
    select_all(game)
    game.bet(1, 50)
    game.call(2)
    game.raise_to(0, 200)
    game.fold(1)
    game.fold(2)  # Ann wins by folds: her 200 was matched only up to Bob's and Cat's 50
    result = game.results[-1]
    assert game.hand.returned == (0, 150)
    assert result["showdown"] == {} and sorted(result["folded"]) == ["Bob", "Cat"]
    # the folded players' chips stay in the pot Ann takes
    assert result["pots"] == [{"amount": 3 * 52, "eligible": ["Ann"], "winners": ["Ann"], "paid": {"Ann": 156}}]
    assert game.stacks == [300 - 52 + 156, 248, 248]


def test_1_4_fixed_stay_heads_up_an_opponent_all_in_by_paying_leaves_no_decision():
    game = new_game("halcyon", stacks=[10, 2], dealer=0)
    game.start_hand()  # antes 1: Bob keeps 1 credit
    select_all(game)
    assert game.waiting_for() == [1]
    game.call(1)  # Bob pays his last credit: all-in
    assert game.hand.is_all_in(1)
    assert game.hand.phase == "improve"  # Ann's only opponent is all-in: she has no decision to make
    assert game.hand.contributions == {1: 2, 0: 1}


def test_1_4_all_in_by_any_name_a_whole_stack_bet_into_an_opened_round_or_raise_with_nothing_bet():
    # Issue 21 finding 10: both were refused ("the round is already opened at 10"); each is the all-in it amounts to.
    game = new_game("cantina", stacks=[100, 100, 30], dealer=0, ante=0, min_bet=5)
    game.start_hand()
    select_all(game)
    game.bet(1, 10)
    game.bet(2, 30)  # Cat's whole stack, named a bet into a round Bob opened: an all-in raise to 30
    assert game.stacks[2] == 0 and game.hand._log[-1].kind == "allin" and game.hand.round.current_bet == 30
    game.call(0)
    game.bet(1, 100)  # Bob's whole round total (10 in + 90 behind), as a bet: an all-in raise too
    assert game.stacks[1] == 0 and game.hand._log[-1].kind == "allin"
    game = new_game("cantina", stacks=[100, 40], dealer=0, ante=0, min_bet=5)
    game.start_hand()
    select_all(game)
    game.raise_to(1, 40)  # nobody has bet: a raise of the whole stack opens the round all-in
    assert game.stacks[1] == 0 and game.hand._log[-1].kind == "allin" and game.hand.round.current_bet == 40
    with pytest.raises(WrongPhase, match="already opened at 40"):
        game.bet(0, 50)  # a bet that is not the whole stack is still refused into an opened round
