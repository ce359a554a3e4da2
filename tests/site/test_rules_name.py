"""The rules' name on the league, event and game pages, for every variant and preset the engine offers."""

from itertools import pairwise

import pytest

from games.providers import rule_choices
from league.pages import rules_in_words, rules_name


def test_coruscant_shift_presets_read_as_adjectives():
    assert rules_name("coruscant_shift", "better") == "Better Coruscant Shift"


@pytest.mark.parametrize(
    ("variant", "preset", "expected"),
    [
        ("corellian_spike", "galaxy_series", "Corellian Spike (Galaxy Series)"),
        ("classic", "classic", "Classic"),
        ("classic", "universe", "Classic (Universe)"),
    ],
)
def test_other_variants_name_the_preset_once_without_underscores(variant, preset, expected):
    assert rules_name(variant, preset) == expected


def test_every_offered_preset_reads_cleanly():
    for variant, presets in rule_choices().items():
        for preset in presets:
            words = rules_in_words(variant, preset, {})
            assert "_" not in words, words
            first = words.split(",")[0]
            assert first == rules_name(variant, preset)
            tokens = first.replace("(", "").replace(")", "").split()
            assert all(a != b for a, b in pairwise(tokens)), first  # never "Classic Classic"
