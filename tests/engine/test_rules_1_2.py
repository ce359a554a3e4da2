"""RULES 1.2: a hand, step by step."""

import pytest

from games.engine import IllegalAction, InvalidSelection, WrongPhase
from games.engine.cards import codes
from tests.engine.helpers import check_round, new_game, peek_cards, peek_selection, select_all, start

ANN = ["+1c", "+2c", "+3c", "+4c", "+5c"]
BOB = ["-1s", "-2s", "-3s", "-4s", "-5s"]
CAT = ["+1t", "+2t", "+3t", "+4t", "+5t"]


def test_1_2_forced_bets_are_posted_before_the_deal():
    game = new_game("cantina", stacks=[100, 100, 100])
    hand = start(game, BOB, CAT, ANN)
    kinds = [r.kind for r in hand._log]
    assert kinds.index("ante") < kinds.index("deal")
    assert hand.forced == {0: 2, 1: 2, 2: 2}
    assert game.stacks == [98, 98, 98]


def test_1_2_a_player_who_cannot_cover_a_forced_bet_posts_all_and_is_all_in():
    game = new_game("cantina", stacks=[100, 1, 100])
    hand = start(game, BOB, CAT, ANN)
    assert hand.forced[1] == 1
    assert game.stacks[1] == 0
    assert hand.is_all_in(1)
    select_all(game)
    # the all-in seat is never asked to bet
    seen = set()
    while game.hand.phase == "betting_1":
        seat = game.waiting_for()[0]
        seen.add(seat)
        game.check(seat)
    assert 1 not in seen


def test_1_2_deal_is_five_cards_one_at_a_time_clockwise_from_dealers_left():
    game = new_game("cantina", stacks=[100, 100, 100], dealer=0)
    hand = start(game, BOB, CAT, ANN)  # seats 1, 2, then the dealer 0
    assert codes(peek_cards(hand, 1)) == BOB
    assert codes(peek_cards(hand, 2)) == CAT
    assert codes(peek_cards(hand, 0)) == ANN
    deals = [r.seat for r in hand._log if r.kind == "deal"]
    assert deals == [1, 2, 0] * 5


def test_1_2_roll_is_recorded_by_dealer_or_left_of_dealer_in_halcyon():
    game = new_game("cantina", stacks=[100, 100, 100], dealer=0)
    hand = start(game, BOB, CAT, ANN, target=10, suit="square")
    roll = next(r for r in hand._log if r.kind == "roll")
    assert (roll.seat, roll.amount, roll.note) == (0, 10, "square")
    game = new_game("halcyon", stacks=[10, 10, 10], dealer=0)
    hand = start(game, BOB, CAT, ANN)
    assert next(r for r in hand._log if r.kind == "roll").seat == 1


def test_1_2_select_is_simultaneous_in_any_order_and_only_its_size_is_public():
    game = new_game("cantina", stacks=[100, 100, 100])
    start(game, BOB, CAT, ANN)
    assert sorted(game.waiting_for()) == [0, 1, 2]
    game.select(2, ["+1t", "+2t"])
    game.select(0, [])
    assert game.waiting_for() == [1]
    ann_view = game.view_for(0)
    cat_row = ann_view["players"][2]
    assert cat_row["has_acted"] is True
    assert "+1t" not in str(ann_view)
    assert game.view_for(2)["selection"] == ["+1t", "+2t"]
    game.select(1, ["-1s", "-2s", "-3s", "-4s", "-5s"])  # all five is allowed
    assert game.hand.phase == "betting_1"
    assert [row["selection_size"] for row in game.view_for(0)["players"]] == [0, 5, 2]


def test_1_2_each_player_selects_once_per_phase_and_only_cards_they_hold():
    game = new_game("cantina", stacks=[100, 100])
    start(game, BOB, ANN)
    with pytest.raises(InvalidSelection, match="You do not hold \\+1t"):
        game.select(0, ["+1t"])
    # The same card chosen twice: held once, so the message says it was chosen twice, not that it is not held.
    with pytest.raises(InvalidSelection, match="You chose \\+1c twice, but you hold only one in your hand") as twice:
        game.select(0, ["+1c", "+1c"])
    assert "do not hold" not in str(twice.value) and "+1c" in str(twice.value).split("choose from:")[1]
    game.select(0, ["+1c"])
    with pytest.raises(IllegalAction, match="already chosen"):
        game.select(0, ["+2c"])


def test_1_2_betting_round_1_comes_after_the_selection():
    game = new_game("cantina", stacks=[100, 100])
    start(game, BOB, ANN)
    with pytest.raises(WrongPhase, match="choose your cards with select"):
        game.check(1)
    select_all(game)
    assert game.hand.phase == "betting_1"
    with pytest.raises(WrongPhase, match="cannot select"):
        game.select(1, [])


def test_1_2_shift_discards_unselected_and_deals_clockwise_skipping_full_players():
    game = new_game("cantina", stacks=[100, 100, 100], dealer=0)
    start(game, BOB, CAT, ANN, then=["+9c", "+9s", "+9t", "-9c", "-9s"])
    game.select(1, ["-1s", "-2s", "-3s"])  # Bob needs 2
    game.select(2, CAT)  # Cat needs none
    game.select(0, ["+1c", "+2c"])  # Ann needs 3
    check_round(game)
    hand = game.hand
    assert hand.phase == "improve"
    # one at a time from the dealer's left, skipping Cat: Bob, Ann, Bob, Ann, Ann
    assert codes(peek_cards(hand, 1)) == ["+9c", "+9t"]
    assert codes(peek_cards(hand, 0)) == ["+9s", "-9c", "-9s"]
    assert peek_cards(hand, 2) == []
    shifts = [r.seat for r in hand._log if r.kind == "shift"]
    assert shifts == [1, 0, 1, 0, 0]
    assert {"-4s", "-5s", "+3c", "+4c", "+5c"} <= set(codes(hand._discard))


def test_1_2_ruling_empty_draw_pile_is_rebuilt_from_the_shuffled_discard_pile():
    game = new_game("cantina", stacks=[100] * 8)
    hand = game.start_hand()
    assert hand.draw_pile_size() == 62 - 40
    select_all(game)  # everyone discards all five: 40 cards needed, 22 in the pile
    check_round(game)
    assert game.hand.phase == "improve"
    assert any(r.kind == "reshuffle" for r in hand._log)
    assert all(len(peek_cards(hand, s)) == 5 for s in range(8))
    assert game.card_count() == 62
    dealt_first = {c.code for r in hand._log if r.kind == "deal" for c in r.cards}
    redealt = {c.code for r in hand._log if r.kind == "shift" for c in r.cards}
    assert redealt & dealt_first  # discarded cards came back through the reshuffle


def test_1_2_improve_adds_only_new_cards_and_discards_the_rest():
    game = new_game("cantina", stacks=[100, 100])
    start(game, BOB, ANN, then=["+9c", "+9s", "+9t", "-9c", "-9s", "-9t", "+8c", "+8s"])
    game.select(1, ["-1s", "-2s", "-3s"])
    game.select(0, ["+1c"])
    check_round(game)
    hand = game.hand
    assert hand.phase == "improve"
    with pytest.raises(InvalidSelection, match="dealt in the shift"):
        game.select(1, ["-4s"])  # discarded in the shift, cannot come back
    new_bob = codes(peek_cards(hand, 1))
    game.select(1, [new_bob[0]])
    game.select(0, [])
    assert codes(peek_selection(hand, 1)) == ["-1s", "-2s", "-3s", new_bob[0]]
    assert codes(peek_selection(hand, 0)) == ["+1c"]
    assert peek_cards(hand, 1) == [] and peek_cards(hand, 0) == []
    assert hand.phase == "betting_2"


def test_1_2_betting_round_2_follows_improve_then_reveal():
    game = new_game("cantina", stacks=[100, 100])
    start(game, BOB, ANN)
    select_all(game, {1: BOB, 0: ANN})
    check_round(game)
    select_all(game)
    assert game.hand.phase == "betting_2"
    check_round(game)
    assert game.hand.is_complete
    result = game.results[-1]
    assert set(result["showdown"]) == {"Ann", "Bob"}
    assert result["showdown"]["Bob"]["cards"] == BOB


def test_1_2_last_player_standing_wins_every_pot_at_once_without_showing():
    game = new_game("cantina", stacks=[100, 100, 100])
    start(game, BOB, CAT, ANN)
    select_all(game)
    game.bet(1, 5)
    game.fold(2)
    game.fold(0)
    assert game.hand.is_complete
    result = game.results[-1]
    assert result["showdown"] == {}
    assert result["pots"][0]["winners"] == ["Bob"]
    assert result["folded"] == ["Cat", "Ann"]
    assert game.stacks == [98, 104, 98]  # the uncalled 5 came back to Bob
