"""A table's snapshot (`RealTable.snapshot`, games/tabletop/state.py): every write saves one that fits its steps, and
the game loaded from it is the game rebuilt from the steps, through reveals, a correction, undos (the deal's too)
and the next hands; a missing, stale or damaged snapshot falls back to the rebuild; the hand history and the
document are those of the steps; the snapshot shows nowhere; the writer's game is its version's readers'."""

import json
import logging

import pytest

from config.errors import ApplicationError
from games.engine.realcards.due import due
from games.tabletop import cache, services, state
from games.tabletop.history import table_document, table_history
from games.tabletop.models import RealTable
from games.tabletop.present import public_view, table_view
from tests.tabletop.helpers import play_to_reveal, started_table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_play_cache")]


def assert_same(loaded, fresh) -> None:
    assert loaded.steps == fresh.steps and loaded.changes == fresh.changes
    assert loaded.stacks == fresh.stacks and loaded.results() == fresh.results()
    assert loaded.game._snapshot() == fresh.game._snapshot()
    assert (loaded.boards, loaded.shown, loaded.named, loaded.need) == (
        fresh.boards,
        fresh.shown,
        fresh.named,
        fresh.need,
    )
    assert due(loaded) == due(fresh)
    assert public_view(loaded) == public_view(fresh)


def checked(table: RealTable) -> RealTable:
    """The row after a write: its snapshot fits its steps, and loads as the rebuild."""
    table.refresh_from_db()
    assert state.fits(table), table.snapshot
    assert table.snapshot["n"] == len(table.steps)
    assert_same(state.load_game(table), state.rebuild(table))
    return table


def reveal_all(table, host, hands=(["+1c", "+2c"], ["+5s", "-5s"], ["+9t", "+8t"])) -> None:
    for seat, cards in enumerate(hands):
        services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": seat, "cards": cards})
        checked(table)


def test_every_write_saves_a_snapshot_the_game_loads_from_as_rebuilt():
    table, host, _, _ = started_table()
    checked(table)
    assert table.snapshot["at"] == 0 and table.snapshot["n"] == 0
    for hand in range(3):
        play_to_reveal(table, host)
        checked(table)
        reveal_all(table, host)
        if hand == 1:  # a hand mis-tapped, corrected before the next deal: the pots are paid again
            again = {"step": "reveal", "seat": 1, "cards": ["+9c", "+8c"]}
            services.realtable_step(actor=host, table=table, step=again)
            checked(table)
    assert table.snapshot["at"] > 0  # the state before the last hand's deal: a load plays that hand's steps only
    first_deal_of_the_last_hand = table.snapshot["at"]
    assert table.steps[first_deal_of_the_last_hand] == {"step": "deal"}
    last = table.steps[-1]
    services.realtable_undo(actor=host, table=table)  # the last reveal
    assert checked(table).snapshot["at"] == first_deal_of_the_last_hand
    services.realtable_step(actor=host, table=table, step=last)
    checked(table)
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    undone_deal = checked(table).snapshot["at"]
    services.realtable_undo(actor=host, table=table)  # a deal undone: its hand's state is gone, rebuilt
    assert checked(table).snapshot["at"] < undone_deal


def test_a_missing_stale_or_damaged_snapshot_falls_back_to_the_rebuild(caplog):
    table, host, _, _ = started_table()
    for _ in range(2):
        play_to_reveal(table, host)
        reveal_all(table, host)
    play_to_reveal(table, host)
    table.refresh_from_db()
    saved = dict(table.snapshot)
    fresh = state.rebuild(table)

    table.snapshot = None  # a table saved before snapshots
    assert not state.fits(table)
    assert_same(state.load_game(table), fresh)

    table.snapshot = {**saved, "n": saved["n"] - 1}  # saved with other steps
    assert not state.fits(table)
    assert_same(state.load_game(table), fresh)

    table.snapshot = {**saved, "f": 0}  # an older format: refused by the engine, logged, rebuilt
    with caplog.at_level(logging.WARNING, logger="games.tabletop.state"):
        assert_same(state.load_game(table), fresh)
    assert "rebuilt from its steps" in caplog.text

    # Steps written without a snapshot (the last one dropped): the snapshot no longer fits; the next write saves one.
    RealTable.objects.filter(pk=table.pk).update(steps=table.steps[:-1])
    table.refresh_from_db()
    assert not state.fits(table)
    assert_same(state.load_game(table), state.rebuild(table))
    now = due(state.load_game(table))
    seat = now["seats"][0]
    verb = "check" if "check" in now["choices"][seat]["verbs"] else "call"
    services.realtable_step(actor=host, table=table, step={"step": "act", "seat": seat, "verb": verb})
    checked(table)


def test_the_history_and_the_document_are_those_of_the_steps():
    table, host, _, _ = started_table(has_dice=False)
    for _ in range(2):
        play_to_reveal(table, host)
        reveal_all(table, host)
    services.realtable_step(actor=host, table=table, step={"step": "reveal", "seat": 2, "cards": ["-1t", "0"]})
    play_to_reveal(table, host)
    table.refresh_from_db()
    assert table.snapshot["at"] > 0
    from_snapshot = (table_history(table), table_document(table))
    table.snapshot = None
    assert (table_history(table), table_document(table)) == from_snapshot
    services.realtable_finish(actor=host, table=table)
    table.refresh_from_db()
    document = table_document(table)
    table.snapshot = None
    assert table_document(table) == document


def test_the_snapshot_shows_nowhere(client):
    table, host, ann, _ = started_table(has_dice=False)
    play_to_reveal(table, host)
    reveal_all(table, host)
    play_to_reveal(table, host)
    table.refresh_from_db()
    saved = json.dumps(table.snapshot)
    assert table.master not in saved  # the seed of the site's rolls is not in it
    client.force_login(ann)
    answer = client.get(f"/api/tabletop/{table.code}/", HTTP_ACCEPT="application/json")
    page = client.get(f"/tabletop/{table.code}/")
    assert answer.status_code == page.status_code == 200
    body = answer.json()
    assert "snapshot" not in body and "snapshot" not in json.dumps(body)
    pieces = [json.dumps(table.snapshot["table"]), json.dumps(table.snapshot["results"]), '"at":', '"f": 1']
    for text in (answer.content.decode(), page.content.decode()):
        assert not any(piece in text for piece in pieces)


def test_the_writer_hands_its_game_to_the_readers(django_capture_on_commit_callbacks, monkeypatch):
    table, host, _, _ = started_table()
    with django_capture_on_commit_callbacks(execute=True):
        services.realtable_step(actor=host, table=table, step={"step": "deal"})
    table.refresh_from_db()

    def no_load(_table):
        raise AssertionError("a reader loaded the game its writer kept")

    monkeypatch.setattr(cache, "load_game", no_load)
    shown = cache.shown_game(RealTable.objects.defer("steps", "changes", "snapshot").get(pk=table.pk))
    assert_same(shown, state.rebuild(table))
    assert table_view(table, host=True, mine=None)["prompt"]["due"] == "dice"
    # A refused step keeps nothing: the readers' game stays the committed one.
    with pytest.raises(ApplicationError), django_capture_on_commit_callbacks(execute=True):
        services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 99}})
    assert cache.shown_game(table) is shown


def test_a_step_worked_out_before_the_lock_is_worked_out_again_when_the_table_moved_on(monkeypatch):
    table, host, _, _ = started_table()
    locked = services._step_locked

    def another_deals_first(**kwargs):
        monkeypatch.setattr(services, "_step_locked", locked)
        services.realtable_step(actor=host, table=table, step={"step": "deal"})  # while this one waited for the lock
        return locked(**kwargs)

    monkeypatch.setattr(services, "_step_locked", another_deals_first)
    with pytest.raises(ApplicationError, match=r"still being played|must wait"):
        services.realtable_step(actor=host, table=table, step={"step": "deal"})
    checked(table)
    assert table.steps == [{"step": "deal"}] and [c["did"] for c in table.changes] == [{"step": "deal"}]
    # Unmoved, the step worked out first is the one saved.
    services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 0, "suit": "circle"}})
    assert checked(table).steps[-1] == {"step": "dice", "dice": {"number": 0, "suit": "circle"}}
