"""End rule `never` for corellian_spike (a tournament's table, RULES 2.6 otherwise): players join and leave
between hands with their stacks, and the table ends when it is closed."""

import pytest

from tests.engine.table_moves import (
    check_join_and_leave_between_hands,
    check_the_table_ends_only_when_closed,
    check_the_variants_own_end_rule_refuses_join_and_leave,
)

PRESETS = pytest.mark.parametrize("preset", ["galaxy_series", "cantina_spike"])


@PRESETS
def test_players_join_and_leave_between_hands_with_their_stacks(preset):
    check_join_and_leave_between_hands("corellian_spike", preset)


@PRESETS
def test_the_table_ends_only_when_it_is_closed(preset):
    check_the_table_ends_only_when_closed("corellian_spike", preset)


@PRESETS
def test_the_variants_own_end_rule_still_refuses_join_and_leave(preset):
    check_the_variants_own_end_rule_refuses_join_and_leave("corellian_spike", preset)
