"""RULES 1.3: who wins, ties and side pots."""

from games.engine.cards import SYLOP, Card
from games.engine.evaluation import score
from games.engine.ties import draw_off, split
from tests.engine.helpers import check_round, new_game, select_all, start

BOB = ["-8s", "-4c", "+2c", "+5t", "0"]
JANE = ["-5c", "+10t", "+7c", "+3s", "+2t"]


def play_to_showdown(game, first=None, improve=None):
    select_all(game, first)
    check_round(game)
    select_all(game, improve)
    check_round(game)
    assert game.hand.is_complete
    return game.results[-1]


def test_1_3_total_distance_and_suit_count():
    cards = [Card(-8, "s"), Card(-4, "c"), Card(2, "c"), Card(5, "t"), SYLOP]
    s = score(cards, -5, "c")
    assert (s.total, s.distance, s.suit_count) == (-5, 0, 3)
    s = score(cards, 10, "t")
    assert (s.total, s.distance, s.suit_count) == (-5, 15, 2)


def test_1_3_smaller_distance_wins():
    game = new_game("cantina", stacks=[100, 100])
    start(game, ["+5c", "+1s", "+2s", "+3s", "+4s"], ["+6c", "-1s", "-2s", "-3s", "-4s"], target=5, suit="square")
    result = play_to_showdown(game, {1: ["+5c"], 0: ["+6c"]})
    assert result["showdown"]["Bob"]["distance"] == 0
    assert result["showdown"]["Ann"]["distance"] == 1
    assert result["pots"][0]["winners"] == ["Bob"]


def test_1_3_at_equal_distance_the_larger_suit_count_wins_bob_and_jane():
    game = new_game("cantina", stacks=[100, 100], dealer=0)  # Ann deals, so Bob (seat 1) is dealt first
    start(game, JANE, BOB, then=["-3c", "-2t", "+5c", "0"], target=-5, suit="circle")
    result = play_to_showdown(game, {0: BOB, 1: ["-5c"]}, {1: ["-3c", "-2t", "+5c", "0"]})
    assert result["showdown"]["Ann"]["suit_count"] == 3
    assert result["showdown"]["Bob"]["suit_count"] == 4
    assert result["pots"][0]["winners"] == ["Bob"]


def test_1_3_empty_selection_cannot_win():
    game = new_game("cantina", stacks=[100, 100])
    # target 0: the empty selection totals 0 (distance 0) yet loses to a selection 10 away
    start(game, ["+10c", "+1s", "+2s", "+3s", "+4s"], ["+6c", "-1s", "-2s", "-3s", "-4s"], target=0)
    result = play_to_showdown(game, {1: ["+10c"], 0: []})
    assert result["showdown"]["Ann"]["distance"] == 0
    assert result["pots"][0]["winners"] == ["Bob"]


def test_1_3_all_empty_selections_tie():
    game = new_game("cantina", stacks=[100, 100], odd_credits="left_of_dealer")
    start(game, ["+10c", "+1s", "+2s", "+3s", "+4s"], ["+6c", "-1s", "-2s", "-3s", "-4s"], target=0)
    result = play_to_showdown(game)
    assert sorted(result["pots"][0]["winners"]) == ["Ann", "Bob"]
    assert game.stacks == [100, 100]


def tie_hands():
    # both select four cards totalling 0 with two circles; the fifth card is discarded
    return (
        ["+1c", "-1c", "+2s", "-2s", "+10t"],
        ["+3c", "-3c", "+4s", "-4s", "+10s"],
        ["+5c", "-5c", "+6s", "-6s", "+9t"],
    )


def test_1_3_split_with_odd_credits_carried_to_the_next_hands_main_pot():
    game = new_game("cantina", stacks=[100, 100, 100], ante=1, odd_credits="carry", escalation="none")
    bob, cat, ann = tie_hands()
    start(game, bob, cat, ann, target=0)
    result = play_to_showdown(game, {1: bob[:4], 2: cat[:4], 0: ["+9t"]})
    pot = result["pots"][0]
    assert pot["amount"] == 3 and sorted(pot["winners"]) == ["Bob", "Cat"]
    assert pot["paid"] == {"Bob": 1, "Cat": 1}
    assert result["carry_over"] == 1 and game.carry == 1
    assert game.total_credits() == 300
    hand = game.start_hand()
    assert hand.pots()[0].amount == 3 + 1
    assert game.carry == 0 and game.total_credits() == 300


def test_1_3_split_with_odd_credits_left_of_dealer():
    bob, cat, ann = tie_hands()
    loser = ["+8s", "+1t", "+2t", "+3t", "+4t"]
    # dealer Ann (seat 0): the order from the dealer's left is Bob, Cat, Ann
    game = new_game("cantina", stacks=[100, 100, 100], ante=1, odd_credits="left_of_dealer", dealer=0)
    start(game, loser, cat, ann, target=0)
    result = play_to_showdown(game, {1: ["+8s"], 2: cat[:4], 0: ann[:4]})
    assert result["pots"][0]["paid"] == {"Cat": 2, "Ann": 1}
    assert result["carry_over"] == 0
    game = new_game("cantina", stacks=[100, 100, 100], ante=1, odd_credits="left_of_dealer", dealer=0)
    start(game, bob, loser, ann, target=0)
    result = play_to_showdown(game, {1: bob[:4], 2: ["+8s"], 0: ann[:4]})
    assert result["pots"][0]["paid"] == {"Bob": 2, "Ann": 1}


def test_1_3_draw_tie_rule_highest_card_wins_and_ties_draw_again():
    game = new_game("cantina", stacks=[100, 100], tie_rule="draw")
    # Bob (first from the dealer's left) and Ann select all five; tie draws come off the top of the pile
    bob5, ann5 = ["+1c", "-1c", "+2s", "-2s", "0"], ["+3c", "-3c", "+4s", "-4s", "0"]
    start(game, bob5, ann5, then=["+7c", "+7s", "+2t", "+9t"], target=0)
    result = play_to_showdown(game, {1: bob5, 0: ann5})
    pot = result["pots"][0]
    assert pot["draws"] == {"Bob": ["+7c", "+2t"], "Ann": ["+7s", "+9t"]}
    assert pot["winners"] == ["Ann"] and pot["paid"] == {"Ann": 4}
    assert game.stacks == [102, 98]
    assert game.card_count() == 62


def test_1_3_ruling_a_draw_settles_every_pot_where_the_same_players_tie():
    game = new_game("cantina", stacks=[100, 100, 5], tie_rule="draw", dealer=0, escalation="none")
    bob, cat, ann = tie_hands()
    start(game, bob, cat, ann, then=["+7c", "+7s", "+7t", "+3t", "+8t", "+5t"], target=0)
    select_all(game, {1: bob[:4], 2: cat[:4], 0: ann[:4]})
    game.bet(1, 10)
    game.all_in(2)
    game.call(0)
    select_all(game)
    check_round(game)
    result = game.results[-1]
    main, side = result["pots"]
    assert (main["amount"], sorted(main["eligible"])) == (15, ["Ann", "Bob", "Cat"])
    assert main["draws"] == {"Bob": ["+3t"], "Cat": ["+8t"], "Ann": ["+5t"]}
    assert main["winners"] == ["Cat"]
    # the side pot between Bob and Ann is settled by the cards they already drew: no second draw
    assert (side["amount"], sorted(side["eligible"])) == (14, ["Ann", "Bob"])
    assert side["winners"] == ["Ann"] and side["draws"] == {"Bob": ["+3t"], "Ann": ["+5t"]}
    assert sum(1 for r in game.hand._log if r.kind == "tie_draw") == 3
    assert game.stacks == [100 - 12 + 14, 100 - 12, 15]


def test_1_3_ruling_empty_draw_pile_means_the_pot_is_split():
    winners, used = draw_off([1, 0], {}, lambda: None)
    assert winners == [1, 0] and used == {}
    pile = [Card(5, "c")]
    winners, used = draw_off([1, 0], {}, lambda: pile.pop() if pile else None)
    assert winners == [1, 0] and used == {1: [Card(5, "c")]}
    # in a game: eight players use up the draw pile exactly in the shift, then two tie
    hands, choices = [], {}
    high = iter(f"+{v}{s}" for s in "stc" for v in range(3, 11))
    low = iter(f"-{v}{s}" for s in "stc" for v in range(3, 11))
    for i in range(8):
        if i < 2:
            cards = [f"+{i + 1}c", f"-{i + 1}c"] + [next(low) for _ in range(3)]
            keep = cards[:2]
        else:
            cards = [next(high) for _ in range(3)] + [next(low) for _ in range(2)]
            keep = cards[:2] if i < 6 else cards[:3]
        hands.append(cards)
        choices[(i + 1) % 8] = keep
    game = new_game("cantina", stacks=[100] * 8, tie_rule="draw", dealer=0)
    start(game, *hands, target=0)
    result = play_to_showdown(game, choices)
    assert game.hand.draw_pile_size() == 0
    pot = result["pots"][0]
    assert sorted(pot["winners"]) == ["Bob", "Cat"]
    assert pot["paid"] == {"Bob": 8, "Cat": 8}
    assert "draws" not in pot


def test_1_3_split_helper_gives_odd_credits_from_the_dealers_left_or_carries_them():
    assert split(10, [4, 1, 2], "left_of_dealer") == ({4: 4, 1: 3, 2: 3}, 0)
    assert split(10, [4, 1, 2], "carry") == ({4: 3, 1: 3, 2: 3}, 1)


def test_1_3_side_pots_are_decided_one_by_one_among_their_eligible_players():
    game = new_game("cantina", stacks=[100, 100, 5], dealer=0, escalation="none")
    # Cat (short) has the best hand and wins only the main pot; Ann beats Bob for the side pot
    start(
        game,
        ["+10c", "+9c", "+8c", "+7c", "+6c"],
        ["0", "+1s", "+2s", "+3s", "+4s"],
        ["+1c", "+2c", "+3c", "+4c", "+5c"],
        target=0,
    )
    select_all(game, {1: ["+10c"], 2: ["0"], 0: ["+1c"]})
    game.bet(1, 10)
    game.all_in(2)
    game.call(0)
    select_all(game)
    check_round(game)
    main, side = game.results[-1]["pots"]
    assert main["winners"] == ["Cat"] and main["amount"] == 15
    assert side["winners"] == ["Ann"] and side["amount"] == 14
    assert game.stacks == [102, 88, 15]
