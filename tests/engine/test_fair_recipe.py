"""RULES 1.7, fair decks: each variant's by-hand recipe (`Variant.fair_recipe`, shown on the seeds page) is what the
engine does: followed with plain `random.Random`, it gives the engine's deck and dice for any hand seed."""

import random

import pytest

from games.engine.classic.chance import SeededChance
from games.engine.coruscant.dice import dice_from_seed
from games.engine.shuffle import deck_from_seed
from games.engine.spike.dice import dice_from_seed as spike_dice_from_seed
from games.engine.variant import get_variant

SEEDS = ("5f0c9a1b", "deadbeef", "0", "ünïcode")


@pytest.mark.parametrize("name,size", [("coruscant_shift", 62), ("corellian_spike", 62), ("classic", 76)])
def test_1_7_the_recipe_deck_is_the_canonical_order_shuffled_by_the_hand_seed(name, size):
    variant = get_variant(name)
    recipe = variant.fair_recipe(variant.build_options(next(iter(variant.presets))))
    assert recipe["deck_size"] == size == len(recipe["order"])
    for seed in SEEDS:
        by_hand = list(recipe["order"])
        random.Random(seed).shuffle(by_hand)
        assert by_hand == [card.code for card in deck_from_seed(seed, variant.deck())]


def test_1_7_the_recipe_dice_are_the_engines_dice():
    assert 'random.Random(s + "/dice")' in get_variant("coruscant_shift").dice_recipe
    assert 'random.Random(s + "/spike-dice")' in get_variant("corellian_spike").dice_recipe
    assert "1 + int(6 * rng.random())" in get_variant("classic").dice_recipe
    for seed in SEEDS:
        rng = random.Random(seed + "/dice")
        gold, silver = rng.choice((0, 0, 5, -5, 10, -10)), rng.choice(("circle", "triangle", "square"))
        assert (gold, silver) == (dice_from_seed(seed).number, dice_from_seed(seed).suit)
        rng = random.Random(seed + "/spike-dice")
        assert [rng.randint(1, 6), rng.randint(1, 6)] == spike_dice_from_seed(seed).to_list()
        rng, chance = random.Random(seed + "/dice"), SeededChance(seed)
        for _ in range(5):
            assert (1 + int(6 * rng.random()), 1 + int(6 * rng.random())) == chance.next_roll()


def test_1_7_a_spike_table_without_spike_dice_says_so():
    variant = get_variant("corellian_spike")
    options = variant.build_options("galaxy_series", {"spike_dice": False})
    assert variant.fair_recipe(options)["dice"].startswith("none")
