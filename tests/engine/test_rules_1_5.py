"""RULES 1.5: presets, escalation, the button, eliminations, re-buys, the end of the game and standings."""

import random

import pytest

from games.engine import PRESETS, Game, IllegalAction, InvalidOptions, WrongPhase, resolve_options
from tests.engine.helpers import finish_hand, new_game, peek_cards, play_hand


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        (
            "halcyon",
            {
                "starting_stack": 10,
                "ante": 1,
                "small_blind": 0,
                "big_blind": 0,
                "min_bet": 1,
                "betting": "fixed_stay",
                "stay_cost": 1,
                "escalation": "none",
                "tie_rule": "draw",
                "end_rule": "everyone_deals",
                "roller": "left_of_dealer",
            },
        ),
        (
            "cantina",
            {
                "starting_stack": 100,
                "ante": 2,
                "small_blind": 0,
                "big_blind": 0,
                "min_bet": 1,
                "betting": "no_limit",
                "escalation": "cantina",
                "tie_rule": "split",
                "odd_credits": "left_of_dealer",
                "end_rule": "last_player",
                "hands": None,
            },
        ),
        (
            "better",
            {
                "starting_stack": 450,
                "ante": 0,
                "small_blind": 5,
                "big_blind": 10,
                "min_bet": 10,
                "betting": "no_limit",
                "escalation": "double_blinds",
                "tie_rule": "split",
                "odd_credits": "carry",
                "end_rule": "last_player",
            },
        ),
        (
            "casino",
            {
                "ante": 10,
                "small_blind": 0,
                "big_blind": 0,
                "min_bet": 10,
                "betting": "no_limit",
                "escalation": "none",
                "tie_rule": "split",
                "odd_credits": "carry",
                "end_rule": "never",
            },
        ),
    ],
)
def test_1_5_presets_bundle_the_table_of_options(preset, expected):
    options = resolve_options("coruscant_shift", preset)
    assert {k: options[k] for k in expected} == expected


def test_1_5_every_option_can_be_overridden_and_bad_ones_are_named():
    assert resolve_options("coruscant_shift", "halcyon", {"stay_cost": 2})["stay_cost"] == 2
    with pytest.raises(InvalidOptions, match="Unknown option 'antee'; the options are: starting_stack, ante"):
        resolve_options("coruscant_shift", "cantina", {"antee": 3})
    with pytest.raises(InvalidOptions, match="'tie_rule' must be one of split, draw; got 'coin'"):
        resolve_options("coruscant_shift", "cantina", {"tie_rule": "coin"})
    with pytest.raises(
        InvalidOptions, match="'min_bet' must be a whole number of at least 1 and at most 1,000,000,000; got 0"
    ):
        resolve_options("coruscant_shift", "cantina", {"min_bet": 0})
    with pytest.raises(
        InvalidOptions, match="Unknown preset 'vegas'; the presets are: halcyon, cantina, better, casino"
    ):
        resolve_options("coruscant_shift", "vegas")
    with pytest.raises(InvalidOptions, match="Unknown variant"):
        resolve_options("pazaak", "cantina")
    assert PRESETS == ("halcyon", "cantina", "better", "casino")


def test_1_5_better_blinds_and_casino_ante_follow_the_min_bet():
    options = resolve_options("coruscant_shift", "better", {"min_bet": 25})
    assert (options["small_blind"], options["big_blind"]) == (12, 25)
    # RULES 1.5, one blind overridden (new): the small blind is half the overridden big blind.
    options = resolve_options("coruscant_shift", "better", {"min_bet": 25, "big_blind": 30})
    assert (options["small_blind"], options["big_blind"]) == (15, 30)
    assert resolve_options("coruscant_shift", "casino", {"min_bet": 20})["ante"] == 20
    assert resolve_options("coruscant_shift", "casino", {"min_bet": 20, "ante": 5})["ante"] == 5


def test_1_5_cantina_ante_escalates_by_players_remaining():
    game = new_game("cantina", stacks=[100, 100, 100, 100], dealer=0)
    play_hand(game, winner=1)
    assert game.levels.ante == 2
    game.start_hand()  # four players hold credits: +2
    assert game.levels.ante == 4 and game.hand.forced == {0: 4, 1: 4, 2: 4, 3: 4}
    game = new_game("cantina", stacks=[100, 2, 100, 100, 100, 100], dealer=0)
    play_hand(game, winner=0)  # Bob is all-in with the ante and loses: five remain
    game.start_hand()
    assert game.levels.ante == 2 + 1
    game = new_game("cantina", stacks=[100, 100, 2], dealer=0)
    play_hand(game, winner=0)  # Cat goes out: two remain, +5
    game.start_hand()
    assert game.levels.ante == 2 + 5
    game = new_game("cantina", stacks=[100, 100, 100], dealer=0)
    play_hand(game, winner=0)
    game.start_hand()
    assert game.levels.ante == 2 + 3


def test_1_5_better_blinds_double_when_the_button_reaches_the_first_dealer():
    game = new_game("better", stacks=[450, 450, 450], dealer=1)
    seen = []
    for _ in range(7):
        play_hand(game, winner=0)
        seen.append((game.hand.dealer, game.levels.small_blind, game.levels.big_blind, game.levels.min_bet))
    assert seen == [
        (1, 5, 10, 10),
        (2, 5, 10, 10),
        (0, 5, 10, 10),
        (1, 10, 20, 20),
        (2, 10, 20, 20),
        (0, 10, 20, 20),
        (1, 20, 40, 40),
    ]


def test_1_5_better_doubling_is_not_stalled_when_the_first_dealer_is_out():
    game = new_game("better", stacks=[450, 10, 450], dealer=1)
    play_hand(game, winner=0, shove=(1,))  # Bob (first dealer) goes all-in and loses everything
    assert game.stacks[1] == 0
    play_hand(game, winner=0)  # button 2
    assert game.levels.big_blind == 10
    play_hand(game, winner=2)  # button 0: passes Bob's seat on the way to 1? not yet
    assert game.hand.dealer == 0 and game.levels.big_blind == 10
    play_hand(game, winner=2)  # button skips Bob's seat 1 to reach 2: it passed the first dealer
    assert game.hand.dealer == 2 and game.levels.big_blind == 20


def test_1_5_halcyon_ends_after_everyone_dealt():
    game = new_game("halcyon", stacks=[10, 10, 10], dealer=2)
    dealers = []
    while not game.is_over:
        play_hand(game, winner=len(dealers) % 3)
        dealers.append(game.hand.dealer)
    assert dealers == [2, 0, 1]
    with pytest.raises(WrongPhase, match="game is over"):
        game.start_hand()


def test_1_5_halcyon_button_never_returns_and_ends_early_when_one_holds_everything():
    game = new_game("halcyon", stacks=[10, 1, 10], dealer=0)
    play_hand(game, winner=0)  # Bob out after the ante
    play_hand(game, winner=0)  # dealer 2; Bob is skipped
    assert game.hand.dealer == 2 and game.is_over is True  # 0 and 2 have dealt; Bob is out
    game = new_game("halcyon", stacks=[10, 1], dealer=0)
    play_hand(game, winner=0)
    assert game.is_over and game.stacks == [11, 0]


def test_1_5_cantina_ends_after_the_set_number_of_hands_or_when_one_holds_all():
    game = new_game("cantina", stacks=[100, 100, 100], hands=2)
    play_hand(game, winner=0)
    assert not game.is_over
    play_hand(game, winner=1)
    assert game.is_over
    game = new_game("cantina", stacks=[100, 2])
    play_hand(game, winner=0)
    assert game.is_over and game.stacks == [102, 0]


def test_1_5_better_ends_when_one_player_holds_all_credits():
    game = new_game("better", stacks=[450, 10, 10], dealer=0)
    play_hand(game, winner=0)
    assert not game.is_over or game.stacks.count(0) == 2
    while not game.is_over:
        play_hand(game, winner=0)
    assert game.stacks == [470, 0, 0]


def test_1_5_casino_never_ends_and_players_rebuy_between_hands():
    game = new_game("casino", stacks=[450, 10])
    play_hand(game, winner=0)
    assert not game.is_over and game.stacks == [460, 0]
    with pytest.raises(WrongPhase, match="at least two players with credits"):
        game.start_hand()
    game.rebuy(1, 450)
    hand = game.start_hand()
    assert 1 in hand.seats
    with pytest.raises(WrongPhase, match="between hands"):
        game.rebuy(0, 10)


def test_1_5_casino_players_join_and_leave_between_hands():
    game = new_game("casino", stacks=[450, 450])
    seat = game.join("Zed", 300)
    assert seat == 2 and game.stacks == [450, 450, 300]
    assert 2 in game.start_hand().seats
    with pytest.raises(WrongPhase, match="between hands"):
        game.join("Yan", 100)
    with pytest.raises(WrongPhase, match="between hands"):
        game.leave(0)
    finish_hand(game, winner=0)
    before = game.total_credits()
    taken = game.leave(1)
    assert game.total_credits() == before - taken and game.stacks[1] == 0
    assert 1 not in game.start_hand().seats
    assert game.spectator_view()["players"][1]["left"] is True
    copy = Game.from_json(game.to_json())
    assert copy.to_json() == game.to_json() and copy.names == ["Ann", "Bob", "Zed"]
    with pytest.raises(WrongPhase, match="only join a cash game"):
        new_game("cantina").join("Zed", 10)


def test_1_5_a_player_who_left_gets_their_seat_back_and_the_table_holds_eight():
    game = new_game("casino", stacks=[450] * 8)
    with pytest.raises(WrongPhase, match="table is full"):
        game.join("Zed", 100)
    game.leave(3)
    with pytest.raises(WrongPhase, match="has left the table"):
        game.rebuy(3, 100)
    assert game.join("Dan", 200) == 3 and game.stacks[3] == 200
    game.leave(5)
    assert game.join("Zed", 100) == 5 and game.names[5] == "Zed"
    with pytest.raises(IllegalAction, match="Zed is already seated"):
        game.join("Zed", 100)
    copy = Game.from_json(game.to_json())
    assert copy.names == game.names and copy.stacks == game.stacks


def test_1_5_rebuys_only_when_the_options_allow():
    game = new_game("cantina", stacks=[100, 2, 100])
    play_hand(game, winner=0)
    with pytest.raises(WrongPhase, match="Re-buys are not allowed"):
        game.rebuy(1, 50)
    assert not game.can_rebuy(1, 50)
    game = new_game("cantina", stacks=[100, 2, 100], rebuys=True)
    play_hand(game, winner=0)
    assert game.can_rebuy(1, 50) and not game.can_rebuy(0, 50)
    game.rebuy(1, 50)
    assert game.stacks[1] == 50 and 1 not in game.out_at


def test_1_5_first_dealer_by_high_card_draw_with_ties_drawing_again():
    counts = [0, 0, 0, 0]
    for seed in range(60):
        game = new_game("cantina", stacks=[100] * 4, dealer=None, seed=seed)
        counts[game.first_dealer] += 1
        last = game.dealer_draw[-1]
        top = max(int(code[:-1]) if code != "0" else 0 for code in last.values())
        winners = [s for s, code in last.items() if (int(code[:-1]) if code != "0" else 0) == top]
        assert winners == [game.first_dealer]
        for earlier in game.dealer_draw[:-1]:
            values = [int(c[:-1]) if c != "0" else 0 for c in earlier.values()]
            assert values.count(max(values)) > 1  # only a tie makes players draw again
    assert all(counts)


def test_1_5_a_named_dealer_deals_first():
    game = new_game("cantina", stacks=[100] * 3, dealer=2)
    assert game.start_hand().dealer == 2


def test_1_5_button_moves_clockwise_to_the_next_player_with_credits():
    game = new_game("cantina", stacks=[100, 100, 2, 100], dealer=0)
    play_hand(game, winner=0)  # Cat goes out
    play_hand(game, winner=0)
    assert game.hand.dealer == 1
    play_hand(game, winner=0)
    assert game.hand.dealer == 3


def test_1_5_a_player_without_credits_is_out_of_the_game():
    game = new_game("cantina", stacks=[100, 100, 2])
    play_hand(game, winner=0)
    assert game.out_at == {2: 1}
    hand = game.start_hand()
    assert 2 not in hand.seats and len(peek_cards(hand, 2)) == 0


def test_1_5_standings_rank_by_credits_then_later_elimination_and_share_equal_places():
    game = new_game("cantina", stacks=[100, 2, 2, 100])
    play_hand(game, winner=0)  # Bob and Cat both go out in hand 1
    places = {row["player"]: row["place"] for row in game.standings()}
    assert places == {"Ann": 1, "Dan": 2, "Bob": 3, "Cat": 3}
    game = new_game("cantina", stacks=[50, 50, 50])
    assert [row["place"] for row in game.standings()] == [1, 1, 1]
    game.out_at = {1: 2, 2: 3}
    game.stacks = [150, 0, 0]
    assert [(row["player"], row["place"]) for row in game.standings()] == [("Ann", 1), ("Cat", 2), ("Bob", 3)]


def test_1_5_a_table_seats_two_to_eight_players():
    options = resolve_options("coruscant_shift", "cantina")
    for count in (2, 8):
        Game.new(options=options, players=[(f"p{i}", 10) for i in range(count)], rng=random.Random(0))
    for count in (1, 9):
        with pytest.raises(InvalidOptions, match="2 to 8 players"):
            Game.new(options=options, players=[(f"p{i}", 10) for i in range(count)], rng=random.Random(0))


def test_1_5_if_the_first_dealer_left_before_the_first_hand_the_next_player_deals():
    game = new_game("casino", stacks=[450, 450, 450], dealer=1)
    game.leave(1)
    assert game.start_hand().dealer == 2


def test_1_5_options_beyond_a_billion_are_refused():
    with pytest.raises(InvalidOptions, match="'starting_stack' must be a whole number of at least 1 and at most"):
        resolve_options("coruscant_shift", "cantina", {"starting_stack": 2**40})
    with pytest.raises(InvalidOptions, match="'ante_increments' must be four whole numbers from 0 to 1,000,000,000"):
        resolve_options("coruscant_shift", "cantina", {"ante_increments": [5, 3, 2, 2**40]})
