"""RULES 1.1: the deck, the Sylop, the dice and the card codes."""

import random
from collections import Counter

import pytest

from games.engine import InvalidCard, parse_card
from games.engine.cards import SYLOP, Card, check_deck, decode_cards, encode_cards, full_deck
from games.engine.dice import GOLD_FACES, SILVER_FACES, parse_dice, roll
from games.engine.evaluation import score


def test_1_1_deck_has_62_cards_three_suits_of_twenty_and_two_sylops():
    deck = full_deck()
    assert len(deck) == 62
    by_suit = Counter(card.suit for card in deck)
    assert by_suit == {"c": 20, "s": 20, "t": 20, None: 2}
    for suit in "cst":
        values = sorted(card.value for card in deck if card.suit == suit)
        assert values == list(range(-10, 0)) + list(range(1, 11))
    assert [card for card in deck if card.is_sylop] == [SYLOP, SYLOP]
    assert SYLOP.value == 0


def test_1_1_sylop_counts_in_every_suit():
    for suit in "cst":
        assert SYLOP.in_suit(suit)
        assert score([SYLOP, Card(3, suit)], 3, suit).suit_count == 2
    assert not Card(3, "c").in_suit("s")


def test_1_1_gold_die_gives_the_target_and_silver_die_the_suit():
    assert sorted(GOLD_FACES) == [-10, -5, 0, 0, 5, 10]
    assert sorted(SILVER_FACES) == ["circle", "square", "triangle"]
    rng = random.Random(3)
    rolls = [roll(rng) for _ in range(600)]
    assert {r.number for r in rolls} == {0, 5, -5, 10, -10}
    assert {r.suit for r in rolls} == {"circle", "square", "triangle"}
    zeros = sum(1 for r in rolls if r.number == 0)
    assert 140 < zeros < 260  # two faces of six show 0


def test_1_1_dice_parse_names_and_letters_and_refuse_other_faces():
    assert parse_dice({"number": -5, "suit": "circle"}).suit_letter == "c"
    assert parse_dice({"number": 10, "suit": "T"}).suit == "triangle"
    with pytest.raises(Exception, match="not a face of the gold die"):
        parse_dice({"number": 3, "suit": "circle"})
    with pytest.raises(Exception, match="not a face of the silver die"):
        parse_dice({"number": 0, "suit": "hexagon"})


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("+7c", "+7c"),
        ("7c", "+7c"),
        ("7C", "+7c"),
        ("-8s", "-8s"),
        ("-8S", "-8s"),
        ("+10T", "+10t"),
        ("0", "0"),
        (" 2t ", "+2t"),
    ],
)
def test_1_1_card_codes_are_case_insensitive_with_optional_plus_and_canonical_output(text, canonical):
    assert parse_card(text).code == canonical


@pytest.mark.parametrize("text", ["11c", "+0c", "7x", "", "c7", "--3s", 7, None])
def test_1_1_unknown_card_codes_are_refused_with_what_is_allowed(text):
    with pytest.raises(InvalidCard, match="like \\+7c"):
        parse_card(text)


def test_1_1_every_card_round_trips_through_code_and_compact_encoding():
    deck = full_deck()
    assert [parse_card(card.code) for card in deck] == deck
    assert decode_cards(encode_cards(deck)) == deck
    assert len(encode_cards(deck)) == 62


def test_1_1_the_compact_encoding_is_one_alphabet_character_per_card_index_in_both_decks():
    from games.engine.cards import _ALPHABET
    from games.engine.classic import cards as classic

    rng = random.Random(4)
    for alphabet, deck, encode in (
        (_ALPHABET, full_deck(), encode_cards),
        (classic._ALPHABET, classic.full_deck(), classic.encode_cards),
    ):
        for _ in range(20):
            rng.shuffle(deck)
            assert encode(deck) == "".join(alphabet[card.index] for card in deck)
            assert encode(iter(deck[:5])) == "".join(alphabet[card.index] for card in deck[:5])
        assert encode([]) == ""


def test_1_1_a_deck_with_a_card_twice_or_missing_is_refused():
    deck = full_deck()
    check_deck(deck)
    broken = [*deck[:-1], deck[0]]
    with pytest.raises(InvalidCard, match="-10c is listed 2 times"):
        check_deck(broken)
    with pytest.raises(InvalidCard, match="missing"):
        check_deck(deck[:-1])
