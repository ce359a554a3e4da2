"""`Twister(text)` draws exactly as `random.Random(text)`: every deck, pile, dealer's draw and Classic roll comes from
it, so a difference would change every seeded hand (compiled it runs its own Mersenne Twister in C; as plain Python
it asks `random.Random`). The suite runs it compiled when `make install` built the engine (test_native checks)."""

import copy
import random

from games import native
from games.engine.twister import Twister

TEXTS = [
    "",
    "a",
    "0",
    "0123456789abcdef0123456789abcdef/dice",
    "é/reshuffle/3",
    "\x00leading zero byte",
    "x" * 300,
    "y" * 574,  # the longest text seeded in C: 574 bytes and the 64 of its SHA-512 are 160 words
    "z" * 575,  # one byte more: seeded by `random.Random` itself
    "w" * 5000,
] + [f"{seed:032x}/reshuffle/{seed % 7}" for seed in range(300)]


def test_one_shuffle_of_any_size_is_random_random_shuffle():
    for n, text in enumerate(TEXTS):
        for size in (0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 62, 64, 65, 76, 128, 129, 300, 1000 + n):
            ours, theirs = list(range(size)), list(range(size))
            Twister(text).shuffle(ours)
            random.Random(text).shuffle(theirs)
            assert ours == theirs, (text, size)


def test_repeated_draws_follow_the_same_generator_past_its_624_words():
    # The dealer's draw shuffles a whole deck again on a tie; a Classic hand rolls again and again. Mixed draws,
    # through several regenerations of the state, stay in step with `random.Random`.
    for text in TEXTS[::7]:
        ours, theirs = Twister(text), random.Random(text)
        for round_ in range(40):
            deck_a, deck_b = list(range(62 + round_)), list(range(62 + round_))
            ours.shuffle(deck_a)
            theirs.shuffle(deck_b)
            assert deck_a == deck_b
            assert [ours.random() for _ in range(round_ % 5)] == [theirs.random() for _ in range(round_ % 5)]


def test_random_is_random_random():
    for text in TEXTS:
        ours, theirs = Twister(text), random.Random(text)
        assert [ours.random() for _ in range(700)] == [theirs.random() for _ in range(700)]


def test_a_copy_draws_on_from_where_the_original_was():
    # Real-cards tables deep-copy a game to try a step; a copied hand's generators must go on as the original's.
    ours = Twister("copied")
    ours.random()
    twin = copy.deepcopy(ours)
    assert [twin.random() for _ in range(700)] == [ours.random() for _ in range(700)]
    deck_a, deck_b = list(range(76)), list(range(76))
    copy.copy(twin).shuffle(deck_a)
    ours.shuffle(deck_b)
    assert deck_a == deck_b


def test_a_shuffle_moves_the_items_it_is_given_and_nothing_else():
    cards = [object() for _ in range(76)]
    pile = list(cards)
    Twister("pile").shuffle(pile)
    assert sorted(map(id, pile)) == sorted(map(id, cards)) and pile != cards


def test_compiled_when_the_engine_is_compiled():
    # The speed comes from the compiled type; a build that left it out would still pass the tests above.
    from games.engine import twister

    if "games.engine.twister" in native.status()["available"]:
        assert twister.__file__.endswith(".so")
