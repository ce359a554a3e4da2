"""`config.db`: which database errors mean "busy" (answered 503, nothing saved) and which are run again.

PostgreSQL's lost lock races are run again by `retry_on_conflict`; SQLite's "database is locked" comes only after
its 20 s busy timeout has already waited, so it is answered 503 at once rather than waited for four times over."""

import sqlite3

from django.db import OperationalError

from config.db import is_transient, retry_on_conflict


class FakePgError(Exception):
    sqlstate = "40P01"  # deadlock_detected


def wrapped(cause: BaseException) -> OperationalError:
    error = OperationalError(str(cause))
    error.__cause__ = cause
    return error


def test_sqlite_locked_is_busy_and_not_run_again():
    calls = []

    @retry_on_conflict
    def write():
        calls.append(1)
        raise wrapped(sqlite3.OperationalError("database is locked"))

    error = None
    try:
        write()
    except OperationalError as exc:
        error = exc
    assert error is not None and is_transient(error)
    assert len(calls) == 1


def test_a_postgresql_lost_race_is_run_again_and_other_errors_are_faults():
    calls = []

    @retry_on_conflict
    def write():
        calls.append(1)
        if len(calls) < 3:
            raise wrapped(FakePgError("deadlock detected"))
        return "saved"

    assert write() == "saved" and len(calls) == 3
    assert not is_transient(wrapped(sqlite3.OperationalError("no such table: league_league")))
    assert is_transient(wrapped(sqlite3.OperationalError("database table is locked: league_league")))
