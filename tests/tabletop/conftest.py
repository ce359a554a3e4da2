"""Fixtures of the real-cards tests: a tournament night (a league, its organiser, a tournament event and members),
shared with the tournament tests, for the tournament's real-cards tables."""

from tests.tournaments.conftest import night  # noqa: F401
