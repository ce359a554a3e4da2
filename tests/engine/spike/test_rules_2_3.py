"""RULES 2.3, who wins: every special hand and every step of the tie-breaker chain, each through a scripted
replay (two players end with the given hands; the result names the hands and the winner), and the rulings."""

import pytest

from games.engine.cards import parse_cards
from games.engine.spike.evaluation import HAND_NAMES, classify, evaluate
from tests.engine.spike.helpers import showdown

# Each special hand of the table (Ruling 2.3.1) with its example, and a hand of the next row down that it beats
# (the deck holds two Sylops only, so a Pure Sabacc meets the best hand without one, a Rhylet).
SPECIAL_HANDS = [
    ("pure_sabacc", ["0", "0"], ["+2c", "+2s", "+2t", "-3c", "-3s"]),
    ("full_sabacc", ["0", "+10c", "+10s", "-10c", "-10t"], ["0", "+5c", "+5t", "-5s", "-5t"]),
    ("fleet", ["0", "+5c", "+5t", "-5s", "-5t"], ["0", "+10t", "-10s"]),
    ("prime_sabacc", ["0", "+10t", "-10s"], ["0", "+4c", "-4s"]),
    ("yee_haa", ["0", "+4c", "-4s"], ["+2c", "+2s", "+2t", "-3c", "-3s"]),
    ("rhylet", ["+2c", "+2s", "+2t", "-3c", "-3s"], ["+6c", "+6s", "-6c", "-6t"]),
    ("squadron", ["+6c", "+6s", "-6c", "-6t"], ["+1c", "+2s", "+3t", "+4c", "-10s"]),
    ("gee_whiz", ["+1c", "+2s", "+3t", "+4c", "-10s"], ["+1s", "-2c", "-3s", "+4t"]),
    ("straight_khyron", ["+1c", "-2s", "-3t", "+4s"], ["+3c", "+3s", "+3t", "-9c"]),
    ("banthas_wild", ["+3c", "+3s", "+3t", "-9c"], ["+4c", "-4s", "+6t", "-6c"]),
    ("rule_of_two", ["+4c", "-4s", "+6t", "-6c"], ["+9c", "-3s", "-6t"]),
]


@pytest.mark.parametrize(("name", "better", "worse"), SPECIAL_HANDS, ids=[row[0] for row in SPECIAL_HANDS])
def test_2_3_1_each_special_hand_beats_the_row_below(name, better, worse):
    hand = showdown({"Ann": worse, "Bob": better})
    assert hand["showdown"]["Bob"]["hand"] == name
    below = "rhylet" if name == "pure_sabacc" else HAND_NAMES[HAND_NAMES.index(name) + 1]
    assert hand["showdown"]["Ann"]["hand"] == below
    assert hand["pots"][0]["winners"] == ["Bob"]
    # Every special hand is a Sabacc: its winner takes the Sabacc pot too.
    assert hand["sabacc_pot"]["winners"] == ["Bob"]


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        (["0", "0"], "pure_sabacc"),
        (["0", "+10c", "+10s", "-10c", "-10t"], "full_sabacc"),
        (["0", "+5c", "+5t", "-5s", "-5t"], "fleet"),
        (["0", "+1c", "+1s", "-1c", "-1t"], "fleet"),
        (["0", "+10t", "-10s"], "prime_sabacc"),
        (["0", "+4c", "-4s"], "yee_haa"),
        (["+2c", "+2s", "+2t", "-3c", "-3s"], "rhylet"),
        (["+4c", "+4s", "-4t", "-2c", "-2s"], "rhylet"),
        (["+6c", "+6s", "-6c", "-6t"], "squadron"),
        (["+10c", "+10s", "-10c", "-10t"], "squadron"),
        (["+1c", "+2s", "+3t", "+4c", "-10s"], "gee_whiz"),
        (["-1c", "-2s", "-3t", "-4c", "+10s"], "gee_whiz"),
        (["+1c", "-2s", "-3t", "+4s"], "straight_khyron"),
        (["+3c", "+3s", "+3t", "-9c"], "banthas_wild"),
        (["+5c", "+5s", "-5t", "-2c", "-3c"], "banthas_wild"),
        (["+4c", "-4s", "+6t", "-6c"], "rule_of_two"),
        (["+3c", "+3s", "-1c", "-1t", "-4s"], "rule_of_two"),
        (["+9c", "-4s", "-5t"], "sabacc"),
        (["+5c", "-5s"], "sabacc"),
        (["+7c", "-5s"], "nulrhek"),
    ],
)
def test_2_3_1_the_table_names_each_example(cards, name):
    assert classify(parse_cards(cards)) == name


def test_2_3_2_kinds_are_absolute_values_and_a_sylop_is_never_part_of_one():
    # +4 and -4 are a pair: two pairs of different kinds make a Rule of Two.
    assert classify(parse_cards(["+4c", "-4s", "+6t", "-6c"])) == "rule_of_two"
    # A Sylop does not make a third of a kind: 0 +3 +3 -6 is a plain Sabacc, not a Bantha's Wild.
    assert classify(parse_cards(["0", "+3c", "+3s", "-6t"])) == "sabacc"


def test_2_3_3_a_card_more_than_the_row_names_is_not_that_hand():
    assert classify(parse_cards(["+1c", "-2s", "-3t", "+4s", "0"])) == "sabacc"
    assert classify(parse_cards(["0", "0", "+5c", "-5s"])) == "sabacc"
    assert classify(parse_cards(["+1c", "-2s", "-3t", "+4s"])) == "straight_khyron"


def test_2_3_step_1_every_sabacc_beats_every_nulrhek():
    hand = showdown({"Ann": ["+1c", "+2s", "+3t", "+4c", "-9s"], "Bob": ["+9c", "-4s", "-5t"]})
    assert hand["showdown"]["Ann"] == {"cards": ["+1c", "+2s", "+3t", "+4c", "-9s"], "total": 1, "hand": "nulrhek"}
    assert hand["pots"][0]["winners"] == ["Bob"]


def test_2_3_step_2_the_nulrhek_closest_to_zero_wins():
    hand = showdown({"Ann": ["+9c", "-6s"], "Bob": ["+7c", "-6t"]})
    assert [hand["showdown"][p]["total"] for p in ("Ann", "Bob")] == [3, 1]
    assert hand["pots"][0]["winners"] == ["Bob"]
    # No Sabacc: the Sabacc pot is not won and carries over whole.
    assert hand["sabacc_pot"] == {"amount": 2, "winners": [], "paid": {}, "carry_over": 2}


def test_2_3_step_2_at_equal_distance_a_positive_total_beats_a_negative():
    hand = showdown({"Ann": ["+4c", "-6s"], "Bob": ["+8c", "-6t"]})
    assert [hand["showdown"][p]["total"] for p in ("Ann", "Bob")] == [-2, 2]
    assert hand["pots"][0]["winners"] == ["Bob"]


def test_2_3_step_3_more_cards_wins():
    hand = showdown({"Ann": ["+9c", "-4s", "-5t"], "Bob": ["+7c", "-2s", "-3t", "-2c"]})
    assert hand["showdown"]["Bob"]["hand"] == "sabacc"
    assert hand["pots"][0]["winners"] == ["Bob"]


def test_2_3_step_4_suited_beats_unsuited():
    hand = showdown({"Ann": ["+9s", "-4t", "-5s"], "Bob": ["+9c", "-4c", "-5c"]})
    assert hand["pots"][0]["winners"] == ["Bob"]


def test_2_3_step_5_the_higher_positive_total_wins():
    hand = showdown({"Ann": ["+8s", "-2t", "-6c"], "Bob": ["+9c", "-4s", "-5t"]})
    assert hand["pots"][0]["winners"] == ["Bob"]


def test_2_3_step_6_the_higher_highest_positive_card_wins():
    hand = showdown({"Ann": ["+5s", "+4t", "-9c"], "Bob": ["+6c", "+3s", "-9t"]})
    assert hand["pots"][0]["winners"] == ["Bob"]


def test_2_3_step_7_more_sylops_wins():
    hand = showdown({"Ann": ["+4s", "+2c", "-3t", "-3c"], "Bob": ["0", "+4c", "+2s", "-6t"]})
    assert [hand["showdown"][p]["hand"] for p in ("Ann", "Bob")] == ["sabacc", "sabacc"]
    assert hand["pots"][0]["winners"] == ["Bob"]


def test_2_3_step_8_equal_hands_tie_and_split_every_pot():
    hand = showdown({"Ann": ["+9c", "-4s", "-5t"], "Bob": ["+9s", "-4t", "-5c"]})
    assert sorted(hand["pots"][0]["winners"]) == ["Ann", "Bob"]
    assert hand["pots"][0]["paid"] == {"Ann": 2, "Bob": 2}
    assert hand["sabacc_pot"]["paid"] == {"Ann": 1, "Bob": 1}


def test_2_3_4_card_count_is_compared_before_suits_for_every_hand():
    # A suited three-card Sabacc loses to an unsuited four-card one.
    hand = showdown({"Ann": ["+9c", "-4c", "-5c"], "Bob": ["+7c", "-2s", "-3t", "-2c"]})
    assert hand["pots"][0]["winners"] == ["Bob"]


def test_2_3_5_the_sylop_trump_comes_after_the_highest_positive_card():
    # Bob has the Sylop but Ann the higher positive card (+6 against +5): Ann wins.
    ann, bob = parse_cards(["+6c", "+1s", "-4t", "-3c"]), parse_cards(["0", "+5c", "+2s", "-7t"])
    assert evaluate(ann).key > evaluate(bob).key
    hand = showdown({"Ann": ["+6c", "+1s", "-4t", "-3c"], "Bob": ["0", "+5c", "+2s", "-7t"]})
    assert hand["pots"][0]["winners"] == ["Ann"]


def test_2_3_6_two_hands_of_one_name_go_down_the_same_chain():
    hand = showdown({"Ann": ["0", "+3c", "+3s", "-3c", "-3t"], "Bob": ["0", "+5c", "+5t", "-5s", "-5t"]})
    assert [hand["showdown"][p]["hand"] for p in ("Ann", "Bob")] == ["fleet", "fleet"]
    assert hand["pots"][0]["winners"] == ["Bob"]


def test_2_3_7_only_the_single_highest_positive_card_counts():
    # Same positive total 9 and highest card +5; the second cards differ (+4 against +3 +1): a tie.
    ann, bob = parse_cards(["+5c", "+4s", "-9t"]), parse_cards(["+5s", "+3t", "+1c", "-9c"])
    assert evaluate(ann).key[5:7] == evaluate(bob).key[5:7]
    hand = showdown({"Ann": ["+5c", "+4s", "-2t", "-7c"], "Bob": ["+5s", "+3t", "+1c", "-9c"]})
    assert sorted(hand["pots"][0]["winners"]) == ["Ann", "Bob"]


def test_2_3_8_a_nulrhek_pays_no_penalty():
    hand = showdown({"Ann": ["+10c", "+9s"], "Bob": ["+9c", "-4s", "-5t"]}, stacks=50)
    # Ann put in her antes only (2 + 1): nothing more is taken from her stack.
    assert hand["stacks"]["Ann"] == 47
    assert hand["sabacc_pot"]["carry_over"] == 0
