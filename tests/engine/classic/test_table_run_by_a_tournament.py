"""End rule `never` for classic (a tournament's table, RULES 3.7 otherwise): players join and leave between hands
with their stacks, and the table ends when it is closed."""

import pytest

from tests.engine.table_moves import (
    check_join_and_leave_between_hands,
    check_the_table_ends_only_when_closed,
    check_the_variants_own_end_rule_refuses_join_and_leave,
)

PRESETS = pytest.mark.parametrize("preset", ["classic", "universe"])


@PRESETS
def test_players_join_and_leave_between_hands_with_their_stacks(preset):
    check_join_and_leave_between_hands("classic", preset)


@PRESETS
def test_the_table_ends_only_when_it_is_closed(preset):
    check_the_table_ends_only_when_closed("classic", preset)


@PRESETS
def test_the_variants_own_end_rule_still_refuses_join_and_leave(preset):
    check_the_variants_own_end_rule_refuses_join_and_leave("classic", preset)
