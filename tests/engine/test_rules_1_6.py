"""RULES 1.6: chip sets and credits."""

import pytest

from games.engine import WrongPhase, resolve_options
from games.engine.chips import DEFAULT_STAKE, SIMPLE, STANDARD, breakdown, value_of
from tests.engine.helpers import finish_hand, new_game, play_hand


def test_1_6_a_chip_set_is_named_denominations_and_the_default_set_has_six():
    assert [(c.name, c.value) for c in STANDARD] == [
        ("beskar ingot", 1000),
        ("doodad", 500),
        ("gem", 200),
        ("gold", 100),
        ("silver", 50),
        ("bronze", 5),
    ]


def test_1_6_default_starting_stake_is_10_bronze_4_silver_2_gold_450_credits():
    assert value_of(DEFAULT_STAKE) == 450
    assert resolve_options("coruscant_shift", "better")["starting_stack"] == 450


def test_1_6_simple_chips_are_one_credit_each():
    assert breakdown(17, SIMPLE) == {"chips": {"chip": 17}, "loose": 0}
    assert resolve_options("coruscant_shift", "halcyon")["chips"] == "simple"


def test_1_6_chip_counts_are_a_display_fewest_chips_largest_first():
    assert breakdown(450) == {"chips": {"gem": 2, "silver": 1}, "loose": 0}
    assert breakdown(1785) == {
        "chips": {"beskar ingot": 1, "doodad": 1, "gem": 1, "silver": 1, "bronze": 7},
        "loose": 0,
    }
    assert breakdown(12) == {"chips": {"bronze": 2}, "loose": 2}


def test_1_6_stacks_are_stored_in_credits_and_views_show_chips_for_a_chip_set():
    game = new_game("better", stacks=[450, 450])
    play_hand(game, winner=0)
    assert all(isinstance(stack, int) for stack in game.stacks)
    row = game.spectator_view()["players"][0]
    assert row["stack"] == game.stacks[0]
    assert value_of(row["chips"]["chips"]) + row["chips"]["loose"] == game.stacks[0]


def test_1_6_special_item_stake_goes_to_the_winner_of_the_pot_it_was_lost_in():
    game = new_game("cantina", stacks=[100, 2, 100], item_stakes=True, escalation="none")
    play_hand(game, winner=0)  # Bob goes out with the ante
    assert game.stacks[1] == 0
    game.stake_item(1, "keys to the Falcon", 40)
    assert game.stacks[1] == 40 and 1 not in game.out_at
    game.start_hand()
    finish_hand(game, winner=2, shove=(1,))
    assert game.stacks[1] == 0
    assert game.item_transfers == [{"hand": 2, "item": "keys to the Falcon", "value": 40, "from": 1, "to": 2}]
    view = game.spectator_view()
    assert view["items"]["transfers"][0]["to"] == "Cat"
    copy = type(game).from_json(game.to_json())
    assert copy.item_transfers == game.item_transfers


def test_1_6_item_stakes_only_when_allowed_and_only_when_out_of_credits():
    game = new_game("cantina", stacks=[100, 2, 100])
    play_hand(game, winner=0)
    with pytest.raises(WrongPhase, match="item_stakes"):
        game.stake_item(1, "ring", 10)
    game = new_game("cantina", stacks=[100, 100], item_stakes=True)
    with pytest.raises(WrongPhase, match="only a player out of credits"):
        game.stake_item(0, "ring", 10)
