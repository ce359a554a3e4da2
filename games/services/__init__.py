"""Writes around games: recording a result played at a physical table, correcting one, checking one
without writing (`result_check`), and tables. One module per subject; every public name is re-exported
here, so `from games.services import result_record` keeps working."""

from games.services.checks import (
    MAX_SEATS,
    MIN_SEATS,
    SeatInput,
    _places_from_credits,
    check_places,
)
from games.services.results import PreparedResult, result_check, result_correct, result_record
from games.services.tables import table_create

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "PreparedResult",
    "SeatInput",
    "_places_from_credits",
    "check_places",
    "result_check",
    "result_correct",
    "result_record",
    "table_create",
]
