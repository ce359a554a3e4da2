from itertools import pairwise

import pytest

from tournaments.errors import TournamentLogicError
from tournaments.structures import (
    PRESETS,
    Level,
    better_preset,
    cantina_preset,
    payable,
    preset_for_duration,
    structure_from_json,
    structure_to_json,
    suggest_structure,
    validate_structure,
)

STANDARD = [5, 50, 100, 200, 500, 1000]


def test_a_valid_structure_round_trips_through_json():
    levels = [Level(small_blind=5, big_blind=10, length=15), Level(length=10, is_break=True)]
    levels.append(Level(small_blind=10, big_blind=20, ante=5, length=15))
    assert structure_from_json(structure_to_json(levels)) == levels
    assert validate_structure(levels) == []


def test_decreasing_blinds_are_refused_with_the_level_named():
    levels = [Level(small_blind=10, big_blind=20, length=10), Level(small_blind=5, big_blind=10, length=10)]
    with pytest.raises(TournamentLogicError, match=r"Level 2: the small blind \(5\) is lower.*never decreases"):
        validate_structure(levels)


def test_an_ante_larger_than_the_big_blind_is_refused():
    with pytest.raises(TournamentLogicError, match=r"ante \(30\) is larger than the big blind \(20\)"):
        validate_structure([Level(small_blind=10, big_blind=20, ante=30, length=10)])


def test_an_amount_not_payable_in_the_chip_set_is_refused():
    with pytest.raises(TournamentLogicError, match="big blind of 12 cannot be paid with chips of 5, 50"):
        validate_structure([Level(small_blind=5, big_blind=12, length=10)], denominations=STANDARD)


def test_colour_up_prompt_when_the_smallest_chip_is_no_longer_needed():
    levels = [Level(small_blind=25, big_blind=50, length=10), Level(small_blind=50, big_blind=100, length=10)]
    prompts = validate_structure(levels, denominations=STANDARD)
    assert prompts == [
        "From level 2 no forced bet needs the 5-credit chips: colour them up to 50-credit chips (chip race) "
        "at the break before it."
    ]


def test_payable_finds_sums_of_several_denominations():
    assert payable(7, [2, 5])
    assert not payable(3, [2, 5])
    assert payable(0, [5])


@pytest.mark.parametrize(
    "data, message",
    [
        ([], "non-empty list"),
        ([{"big_blind": 10, "length": 5, "colour": "red"}], "unknown keys"),
        ([{"big_blind": -1, "length": 5}], "big_blind must be a whole number"),
        ([{"big_blind": 10, "length": 5, "unit": "days"}], "unit must be one of minutes, hands, orbits, seconds"),
    ],
)
def test_bad_json_says_what_is_allowed(data, message):
    with pytest.raises(TournamentLogicError, match=message):
        structure_from_json(data)


def test_a_structure_of_breaks_only_or_starting_with_a_break_is_refused():
    with pytest.raises(TournamentLogicError, match="at least one playing level"):
        validate_structure([Level(length=10, is_break=True)])
    with pytest.raises(TournamentLogicError, match="cannot start with a break"):
        validate_structure([Level(length=10, is_break=True), Level(big_blind=2, length=5)])


def test_cantina_preset_raises_the_ante_by_5_3_2_1_as_the_field_shrinks():
    levels = cantina_preset(start_ante=2, players=6)
    antes = [level.ante for level in levels]
    # 6 and 5 remain: +1 each; 4: +2; 3: +3; 2: +5.
    assert antes == [2, 3, 4, 6, 9, 14]
    assert all(level.unit == "hands" and level.big_blind == 0 for level in levels)
    validate_structure(levels)


def test_better_preset_doubles_the_blinds_each_orbit():
    levels = better_preset(small_blind=5, big_blind=10, levels=4)
    assert [(level.small_blind, level.big_blind) for level in levels] == [(5, 10), (10, 20), (20, 40), (40, 80)]
    assert {level.unit for level in levels} == {"orbits"}
    validate_structure(levels, denominations=STANDARD)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_valid(name):
    validate_structure(PRESETS[name]())


@pytest.mark.parametrize("duration, players, stack", [(60, 6, 450), (240, 30, 450), (120, 9, 100), (600, 300, 10_000)])
def test_the_suggestion_is_valid_fits_the_duration_and_uses_the_chips(duration, players, stack):
    levels = suggest_structure(duration_minutes=duration, players=players, starting_stack=stack, denominations=STANDARD)
    validate_structure(levels, denominations=STANDARD)
    total = sum(level.length for level in levels)
    assert duration - levels[0].length < total <= duration
    assert levels[-1].big_blind > levels[0].big_blind


@pytest.mark.parametrize("stack, chips", [(350, [10, 50]), (450, STANDARD), (100, [5, 25])])
def test_every_suggested_level_raises_the_blinds(stack, chips):
    """A small stack in coarse chips once gave 10/20 three times running: each level now raises the blinds."""
    levels = suggest_structure(duration_minutes=180, players=12, starting_stack=stack, denominations=chips)
    validate_structure(levels, denominations=chips)
    assert all(a.big_blind < b.big_blind for a, b in pairwise(levels))


def test_a_suggestion_for_nonsense_is_refused():
    with pytest.raises(TournamentLogicError, match="at least 10 minutes"):
        suggest_structure(duration_minutes=5, players=6, starting_stack=450)


@pytest.mark.parametrize("duration, stack", [(60, 450), (180, 450), (240, 1000), (600, 10_000), (10, 2)])
@pytest.mark.parametrize("ante_only", [False, True])
def test_a_preset_by_duration_is_valid_lasts_about_that_long_and_rises(duration, stack, ante_only):
    levels = preset_for_duration(
        duration_minutes=duration, starting_stack=stack, ante_only=ante_only, denominations=STANDARD
    )
    validate_structure(levels, denominations=STANDARD, no_blinds="Corellian Spike" if ante_only else None)
    playing = [level for level in levels if not level.is_break]
    total = sum(level.length for level in levels)
    assert duration - playing[0].length - 10 <= total <= duration + playing[0].length
    key = "ante" if ante_only else "big_blind"
    assert getattr(playing[-1], key) > getattr(playing[0], key) or duration == 10
    if ante_only:
        assert all(level.small_blind == level.big_blind == 0 and level.ante % 5 == 0 for level in playing)
        assert all(later.ante > earlier.ante for earlier, later in pairwise(playing))


def test_a_long_preset_has_breaks_between_levels_never_first_or_last():
    levels = preset_for_duration(duration_minutes=240, starting_stack=450, break_every=4, break_minutes=10)
    kinds = [level.is_break for level in levels]
    assert kinds.count(True) >= 2
    assert not kinds[0] and not kinds[-1]
    assert all(level.length == 10 for level in levels if level.is_break)
    assert all(kinds[i - 4 : i] == [False] * 4 for i, is_break in enumerate(kinds) if is_break)


def test_a_preset_for_nonsense_is_refused():
    with pytest.raises(TournamentLogicError, match="at least 10 minutes"):
        preset_for_duration(duration_minutes=5, starting_stack=450)
    with pytest.raises(TournamentLogicError, match="starting stack of 2"):
        preset_for_duration(duration_minutes=60, starting_stack=1)
