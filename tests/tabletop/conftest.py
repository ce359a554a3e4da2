"""The browser fixtures of tests/e2e, for the real-cards table's browser test."""

from tests.e2e.conftest import browser, streams_end_before_the_database  # noqa: F401
