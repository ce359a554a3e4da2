"""Fixtures of the real-cards tests: a tournament night (a league, its organiser, a tournament event and members),
shared with the tournament tests, for the tournament's real-cards tables; and an empty cache of rebuilt games."""

import pytest

from tests.tournaments.conftest import night  # noqa: F401


@pytest.fixture
def empty_play_cache():
    """The readers' cache of rebuilt games (games/tabletop/cache.py) empty before and after the test: what a test
    reads from it is what the test built."""
    from games.tabletop import cache

    cache.forget()
    yield
    cache.forget()
