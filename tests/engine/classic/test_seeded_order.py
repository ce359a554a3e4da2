"""REPLAY-classic, the seeded order of unlisted cards, with the document's test vectors."""

import hashlib

from games.engine.classic.cards import codes, full_deck, parse_cards
from games.engine.classic.order import complete_pile, deck_label, pile_label, seeded_order


def test_seeded_order_vector_seed_0_whole_deck():
    assert codes(seeded_order(full_deck(), 0, deck_label(1)))[:8] == [
        "0",
        "+1f",
        "+6t",
        "+6c",
        "+5f",
        "+13s",
        "-17",
        "-8",
    ]


def test_seeded_order_vector_seed_minus_3_hand_3():
    assert codes(seeded_order(full_deck(), -3, "hand/3/deck"))[:8] == [
        "-2",
        "+2t",
        "-17",
        "+10c",
        "-11",
        "+14s",
        "+15s",
        "+4s",
    ]


def test_seeded_order_vector_copies_of_a_face_card():
    cards = parse_cards(["0", "0", "-2", "+5c"])
    assert codes(seeded_order(cards, 7, pile_label(2, 1))) == ["-2", "0", "+5c", "0"]


def test_seeded_order_vector_a_single_copy_has_copy_number_1():
    assert codes(seeded_order(parse_cards(["+5c", "0"]), 7, "hand/2/reshuffle/1")) == ["0", "+5c"]


def test_seeded_order_digests_as_documented():
    assert hashlib.sha256(b"0/hand/1/deck/+1s/1").hexdigest().startswith("2db63bc7")
    assert hashlib.sha256(b"7/hand/2/reshuffle/1/0/1").hexdigest().startswith("1f9dcf31")
    assert hashlib.sha256(b"7/hand/2/reshuffle/1/0/2").hexdigest().startswith("a5f59c79")


def test_seeded_order_does_not_depend_on_the_order_the_cards_come_in():
    deck = full_deck()
    assert seeded_order(deck[::-1], 5, "hand/1/deck") == seeded_order(deck, 5, "hand/1/deck")
    assert seeded_order(deck, 5, "hand/1/deck") != seeded_order(deck, 6, "hand/1/deck")


def test_listed_cards_come_first_then_the_rest_one_copy_less_per_listing():
    listed = parse_cards(["-17", "+3s"])
    pile = complete_pile(listed, full_deck(), 0, deck_label(1))
    assert pile[:2] == listed
    assert len(pile) == 76
    assert codes(pile).count("-17") == 2
    assert pile[2:] == seeded_order([c for c in full_deck() if c.code != "+3s"][:-1], 0, deck_label(1))
