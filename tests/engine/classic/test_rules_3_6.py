"""RULES 3.6: the presets `classic` and `universe`, and every option overridable with checked values."""

import pytest

from games.engine.classic.options import PRESETS, ClassicOptions, build_classic_options, option_names
from games.engine.errors import InvalidOptions


def test_3_6_classic_preset_is_the_adaptation():
    opts = build_classic_options("classic")
    assert opts.to_dict() == {
        "starting_stack": 100,
        "ante": 1,
        "sabacc_ante": 1,
        "min_bet": 1,
        "min_raise": "min_bet",
        "max_bet": None,
        "call_round": 4,
        "max_rounds": None,
        "shift_rolls": "turns_and_rounds",
        "hand_ranking": "magnitude",
        "declare_totals": True,
        "hands": None,
    }


def test_3_6_universe_preset_differs_in_the_three_places():
    classic, universe = build_classic_options("classic").to_dict(), build_classic_options("universe").to_dict()
    differ = {k for k in classic if classic[k] != universe[k]}
    assert differ == {"call_round", "shift_rolls", "declare_totals"}
    assert (universe["call_round"], universe["shift_rolls"], universe["declare_totals"]) == (5, "rounds", False)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("starting_stack", 7),
        ("ante", 3),
        ("sabacc_ante", 0),
        ("min_bet", 2),
        ("min_raise", "last_increment"),
        ("max_bet", 40),
        ("call_round", 2),
        ("max_rounds", 9),
        ("shift_rolls", "off"),
        ("hand_ranking", "signed"),
        ("declare_totals", False),
        ("hands", 12),
    ],
)
@pytest.mark.parametrize("preset", PRESETS)
def test_3_6_every_option_can_be_overridden(preset, name, value):
    assert getattr(build_classic_options(preset, {name: value}), name) == value
    assert name in option_names()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"ante": 0}, "'ante' must be a whole number of at least 1"),
        ({"sabacc_ante": -1}, "'sabacc_ante' must be a whole number of at least 0"),
        ({"starting_stack": 1_000_000_001}, "at most 1,000,000,000"),
        ({"call_round": True}, "'call_round' must be a whole number"),
        ({"max_bet": 0}, "'max_bet' must be a whole number of at least 1"),
        ({"min_bet": 5, "max_bet": 4}, "'max_bet' \\(4\\) must be at least the min bet"),
        ({"call_round": 4, "max_rounds": 3}, "'max_rounds' \\(3\\) must be at least 'call_round'"),
        ({"shift_rolls": "always"}, "'shift_rolls' must be one of turns_and_rounds, rounds, off"),
        ({"hand_ranking": "highest"}, "'hand_ranking' must be one of magnitude, signed"),
        ({"declare_totals": "yes"}, "'declare_totals' must be true or false"),
        ({"blinds": 2}, "Unknown option 'blinds'; the options are: starting_stack"),
        ({"hands": 0}, "'hands' must be a whole number of at least 1"),
    ],
)
def test_3_6_bad_values_are_refused_naming_the_option_and_what_is_allowed(overrides, message):
    with pytest.raises(InvalidOptions, match=message):
        build_classic_options("classic", overrides)


def test_3_6_unknown_preset_is_refused_with_the_presets():
    with pytest.raises(InvalidOptions, match="the classic presets are: classic, universe"):
        build_classic_options("cantina")


def test_3_6_options_round_trip_through_a_dict():
    opts = build_classic_options("universe", {"max_bet": 10})
    assert ClassicOptions.from_dict(opts.to_dict()) == opts
