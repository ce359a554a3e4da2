"""A tournament's new level reaches a running online table at its next hand, never mid-hand, and only once."""

from django.urls import reverse

from games.engine import Game
from games.online.models import OnlineTable
from games.online.services import level_changed


def levels_of(game: Game) -> tuple[int, int, int]:
    return (game.levels.ante, game.levels.small_blind, game.levels.big_blind)


def level_events(table: OnlineTable) -> list:
    game = Game.from_json(table.state, history=table.history or None)
    return [entry["e"] for entry in game._history if "e" in entry and entry["e"][0] == "levels"]


def test_a_running_table_takes_the_new_level_at_its_next_hand_not_mid_hand(client, world, heads_up, scheduled):
    state, version = heads_up.state, heads_up.version
    first = levels_of(Game.from_json(state))
    assert first != (3, 25, 50)
    assert level_changed(event_id=world.event.pk, small_blind=25, big_blind=50, ante=3, level=2) == {
        "applied": [],
        "told": [heads_up.pk],
    }
    heads_up.refresh_from_db()
    # Mid-hand nothing changes in the game, and the next-hand task already scheduled stays current.
    assert heads_up.state == state and heads_up.version == version
    assert heads_up.pending_levels == {"level": 2, "ante": 3, "small_blind": 25, "big_blind": 50}
    client.force_login(world.users["organiser"])
    page = client.get(reverse("online-table", args=[heads_up.pk])).content.decode()
    assert "next (level 2), from the next hand: 25/50, ante 3" in page

    # A duplicate announcement (the clock task ran twice) changes nothing.
    assert level_changed(event_id=world.event.pk, small_blind=25, big_blind=50, ante=3, level=2) == {
        "applied": [],
        "told": [],
    }

    while "next_hand" not in scheduled.names():
        scheduled.run(scheduled.last("turn_timeout"))
    heads_up.refresh_from_db()
    assert levels_of(Game.from_json(heads_up.state)) == first  # the finished hand kept its forced bets
    call = scheduled.last("next_hand")
    assert scheduled.run(call) is True
    assert scheduled.run(call) is False  # the task run twice deals once and applies the level once
    heads_up.refresh_from_db()
    game = Game.from_json(heads_up.state)
    assert game.in_hand and game.hands_played == 1
    assert levels_of(game) == (3, 25, 50)
    assert heads_up.pending_levels is None
    assert level_events(heads_up) == [["levels", [3, 25, 50, max(50, heads_up.options["min_bet"])]]]
    page = client.get(reverse("online-table", args=[heads_up.pk])).content.decode()
    assert "Blinds <strong>25/50</strong>" in page and "from the next hand" not in page
    api = client.get(f"/api/tables/{heads_up.pk}/").json()["table"]
    assert api["levels"]["big_blind"] == 50 and api["next_levels"] is None


def test_an_open_table_takes_the_level_into_its_options_and_a_repeat_changes_nothing(world, open_table):
    table = open_table(seats=4)
    assert level_changed(event_id=world.event.pk, small_blind=10, big_blind=20, ante=1, level=2)["applied"] == [
        table.pk
    ]
    table.refresh_from_db()
    assert (table.options["ante"], table.options["small_blind"], table.options["big_blind"]) == (1, 10, 20)
    assert level_changed(event_id=world.event.pk, small_blind=10, big_blind=20, ante=1, level=2)["applied"] == []
