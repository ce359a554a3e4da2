"""The input boundary's whole numbers (config/inputs.py): ASCII digits only, bounded, a 400 that names the field."""

import pytest

from config.errors import ApplicationError
from config.inputs import is_digits, parse_whole_number, whole_number, whole_number_or


@pytest.mark.parametrize("raw", ["¹", "٣", "", None, "1.5", "1e3", "0x10", "1" * 19, "+5"])
def test_text_that_is_not_ascii_digits_is_refused_naming_the_field(raw):
    with pytest.raises(ApplicationError, match="The table must be a whole number") as caught:
        parse_whole_number(raw, "The table", field="table")
    assert caught.value.extra == {"field": "table"}


def test_a_number_out_of_its_range_is_refused_with_the_range():
    with pytest.raises(ApplicationError, match="at least 1 and at most 8; got 9"):
        parse_whole_number("9", "Seats", minimum=1, maximum=8)
    assert parse_whole_number(" 8 ", "Seats", minimum=1, maximum=8) == 8
    assert parse_whole_number("-3", "A change", signed=True) == -3
    with pytest.raises(ApplicationError):
        parse_whole_number("-3", "A count")


def test_a_typed_argument_must_be_an_int_in_range_and_not_a_bool():
    assert whole_number(5, "The round", minimum=1, maximum=10) == 5
    for value in (True, 0, 11, "5", 5.0):
        with pytest.raises(
            ApplicationError, match="The round must be a whole number of at least 1 and at most 10; got "
        ):
            whole_number(value, "The round", minimum=1, maximum=10)
    assert whole_number(None, "A place", maximum=8, allow_none=True) is None


def test_a_pages_lenient_number_falls_back_to_its_default():
    assert whole_number_or("3", 1) == 3
    assert whole_number_or("¹", 1) == 1
    assert whole_number_or(None, None) is None
    assert is_digits("123") and not is_digits("12a") and not is_digits("1" * 19)
