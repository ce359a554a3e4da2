"""The readers' cache of rebuilt games (games/tabletop/cache.py): a cached game shows exactly what a fresh rebuild
shows, every change (a step, an undo, the end) is a new version and so a new game, and readers share one build."""

import pytest

from games.engine.realcards.due import due
from games.tabletop import cache, services
from games.tabletop.present import table_view
from tests.tabletop.helpers import play_to_reveal, started_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_play_cache")]


def _same(table) -> None:
    table.refresh_from_db()
    cached, fresh = cache.shown_game(table), services.load_game(table)
    assert cached.steps == fresh.steps and cached.changes == fresh.changes
    assert due(cached) == due(fresh)
    assert cached.stacks == fresh.stacks and cached.results() == fresh.results()
    if cached.need is None:  # while a roll is due the spectator view waits for it
        assert cached.game.spectator_view() == fresh.game.spectator_view()
    # Read twice, the page is the same (readers only read the shared game).
    assert table_view(table, host=True, mine=None) == table_view(table, host=True, mine=None)


def test_a_cached_game_equals_a_fresh_rebuild_at_every_step():
    table, host, _, _ = started_table()
    _same(table)
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    _same(table)
    services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 0, "suit": "circle"}})
    _same(table)
    table.refresh_from_db()
    assert len(table.steps) == 2
    services.realtable_undo(actor=host, table=table)
    _same(table)
    assert due(cache.shown_game(table))["due"] == "dice"  # the undo is seen: a new version, a new game


def test_each_version_is_built_once_and_a_change_builds_anew(monkeypatch):
    table, host, _, _ = started_table(has_dice=False)
    built = []
    original = cache.load_game
    monkeypatch.setattr(cache, "load_game", lambda t: built.append(t.version) or original(t))
    first = cache.shown_game(table)
    assert cache.shown_game(table) is first and built == [table.version]
    play_to_reveal(table, host)
    table.refresh_from_db()
    after = cache.shown_game(table)
    assert after is not first and built == [built[0], table.version]
    assert after.steps == services.load_game(table).steps
    services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 0, "cards": ["+1c", "+2c"]})
    services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 1, "cards": ["-5s", "+9t"]})
    services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 2, "cards": ["0", "-10t"]})
    _same(table)
    services.realtable_finish(actor=host, table=table)
    table.refresh_from_db()
    assert table_view(table, host=False, mine=None)["seed"] == table.master
    _same(table)
