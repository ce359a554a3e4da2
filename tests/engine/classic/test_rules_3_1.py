"""RULES 3.1: the 76-card deck, its codes and canonical order, and the dice."""

import random
from collections import Counter

import pytest

from games.engine.classic.cards import (
    DECK,
    canonical,
    canonical_pile,
    check_deck,
    codes,
    decode_cards,
    encode_cards,
    full_deck,
    parse_card,
)
from games.engine.classic.dice import check_roll, is_pair, roll_dice
from games.engine.errors import InvalidCard


def test_3_1_deck_has_76_cards_four_suits_of_fifteen_and_sixteen_face_cards():
    deck = full_deck()
    assert len(deck) == 76
    suits = Counter(card.suit for card in deck if card.suit is not None)
    assert suits == {"s": 15, "f": 15, "c": 15, "t": 15}
    for suit in "sfct":
        assert sorted(c.value for c in deck if c.suit == suit) == list(range(1, 16))
    faces = Counter(card.value for card in deck if card.suit is None)
    assert faces == {v: 2 for v in (0, -2, -8, -11, -13, -14, -15, -17)}


def test_3_1_canonical_order_is_sabers_flasks_coins_staves_then_face_cards():
    text = codes(full_deck())
    assert text[:3] == ["+1s", "+2s", "+3s"]
    assert text[14:17] == ["+15s", "+1f", "+2f"]
    assert text[45:47] == ["+1t", "+2t"]
    assert text[60:] == [
        "0",
        "0",
        "-2",
        "-2",
        "-8",
        "-8",
        "-11",
        "-11",
        "-13",
        "-13",
        "-14",
        "-14",
        "-15",
        "-15",
        "-17",
        "-17",
    ]
    shuffled = full_deck()
    random.Random(3).shuffle(shuffled)
    assert canonical(shuffled) == full_deck()


def test_3_1_a_pile_counted_into_canonical_order_is_the_sorted_pile():
    rng = random.Random(7)
    for size in (0, 1, 2, 30, 70, 76):
        for _ in range(50):
            pile = rng.sample(full_deck(), size)
            assert codes(canonical_pile(pile)) == codes(canonical(pile))


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("+1s", "+1s"),
        ("7s", "+7s"),
        ("15T", "+15t"),
        (" +12c ", "+12c"),
        ("-17", "-17"),
        ("+0", "0"),
        ("-0", "0"),
        ("0", "0"),
        ("-2", "-2"),
        ("11F", "+11f"),
    ],
)
def test_3_1_codes_are_read_case_insensitively_and_written_canonically(text, code):
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["-7s", "+16c", "0s", "2", "-3", "07s", "-08", "+0s", "17", "s", "", "+1x", None, 5])
def test_3_1_anything_else_is_an_unknown_card_with_what_is_allowed(text):
    with pytest.raises(InvalidCard, match="suit letter s, f, c or t"):
        parse_card(text)


def test_3_1_1_staves_take_the_letter_t_and_sabers_s():
    assert parse_card("+5t").suit == "t"
    assert parse_card("+5s").suit == "s"
    assert parse_card("+15t").name == "Ace of Staves"
    assert parse_card("+12c").name == "Commander of Coins"


def test_3_1_2_a_face_card_is_written_by_its_value_alone():
    assert parse_card("-17").name == "The Star"
    assert parse_card("0").name == "Idiot"
    assert parse_card("-2").name == "Queen of Air and Darkness"
    assert [c.code for c in DECK if c.is_face][::2] == ["0", "-2", "-8", "-11", "-13", "-14", "-15", "-17"]


def test_3_1_card_values_never_change_and_codes_round_trip_through_the_compact_encoding():
    deck = full_deck()
    random.Random(5).shuffle(deck)
    assert decode_cards(encode_cards(deck)) == deck
    assert "," not in encode_cards(deck)


def test_3_1_a_deck_must_hold_exactly_the_76_cards():
    check_deck(full_deck())
    extra = [*full_deck()[:-1], parse_card("+1s")]
    with pytest.raises(InvalidCard, match=r"\+1s is listed 2 times; the deck holds it once"):
        check_deck(extra)
    with pytest.raises(InvalidCard, match="-17 is missing"):
        check_deck(full_deck()[:-1])


def test_3_1_a_pair_of_dice_sets_off_a_shift_about_one_roll_in_six():
    assert is_pair((3, 3))
    assert not is_pair((3, 4))
    rng = random.Random(11)
    rolls = [roll_dice(rng) for _ in range(6000)]
    assert all(1 <= a <= 6 and 1 <= b <= 6 for a, b in rolls)
    pairs = sum(is_pair(r) for r in rolls)
    assert 800 < pairs < 1200


@pytest.mark.parametrize("value", [[0, 3], [1, 7], [1], [1, 2, 3], "11", [1.0, 2], [True, 2], None])
def test_3_1_a_written_roll_is_two_whole_numbers_from_1_to_6(value):
    with pytest.raises(ValueError, match="two whole numbers from 1 to 6"):
        check_roll(value)
    assert check_roll([6, 1]) == (6, 1)
