"""Numbers typed into the control room's forms: only ASCII digits count ('¹'.isdigit() is true, int('¹') fails)."""

import pytest

from config.errors import ApplicationError
from tournaments.actions import int_field


@pytest.mark.parametrize("raw", ["¹", "٣", "-²", "1" * 13, "", "1.5"])
def test_a_whole_number_field_refuses_what_is_not_ascii_digits(raw):
    with pytest.raises(ApplicationError, match="must be a whole number"):
        int_field({"stack": raw}, "stack", "The chip count")


@pytest.mark.parametrize(("raw", "value"), [("0", 0), (" 250 ", 250), ("-3", -3)])
def test_a_whole_number_field_reads_ascii_digits(raw, value):
    assert int_field({"stack": raw}, "stack", "The chip count") == value
