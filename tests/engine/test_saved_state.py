"""The saved state stays small however long a game runs; earlier hands live in the separate history."""

import json

import pytest

from games.engine.errors import EngineError, InvalidState
from games.engine.replay import export_replay, play_replay
from games.engine.state import Game
from tests.engine.helpers import check_round, new_game, peek_cards, play_hand, select_all

STATE_SIZE_LIMIT = 4096


def showdown_hand(game: Game) -> None:
    """Start and play a hand to the showdown: everyone keeps two cards and checks or calls through."""
    hand = game.start_hand()
    select_all(game, {s: [c.code for c in peek_cards(hand, s)][:2] for s in hand.seats})
    check_round(game)
    select_all(game)
    check_round(game)


def into_second_betting_round(game: Game) -> None:
    """Start a hand and stop in its second betting round, after a bet and a call."""
    hand = game.start_hand()
    select_all(game, {s: [c.code for c in peek_cards(hand, s)][:3] for s in hand.seats})
    seat = game.waiting_for()[0]
    game.bet(seat, 5)
    check_round(game)
    select_all(game, {s: [c.code for c in peek_cards(hand, s)][:1] for s in game.waiting_for()})
    game.bet(game.waiting_for()[0], 7)
    assert game.hand.phase == "betting_2"


def long_game(hands: int) -> Game:
    """A 6-seat Cantina game (steady ante, deep stacks, so nobody goes out) after `hands` full hands."""
    game = new_game("cantina", stacks=[450] * 6, escalation="none")
    for _ in range(hands):
        showdown_hand(game)
    assert game.hands_played == hands and sum(1 for s in game.stacks if s > 0) == 6
    return game


def test_a_6_seat_state_after_60_hands_saved_mid_hand_is_under_4_kb():
    early = long_game(4)
    into_second_betting_round(early)
    game = long_game(64)
    into_second_betting_round(game)
    size = len(game.to_json().encode())
    assert size < STATE_SIZE_LIMIT, size
    # Bounded, not merely small: sixty more hands add nothing but a few digits.
    assert size <= len(early.to_json().encode()) + 64
    # The history is what grows, and it is kept apart.
    assert len(game.history_json()) > len(early.history_json()) + 60 * 20


def test_state_and_history_together_restore_a_game_that_exports_identically():
    game = long_game(12)
    into_second_betting_round(game)
    state, history = game.to_json(), game.history_json()
    copy = Game.from_json(state, history=history)
    assert copy.to_json() == state and copy.history_json() == history
    assert export_replay(copy) == export_replay(game)
    result = play_replay(export_replay(copy))
    assert result["stacks"] == {name: game.stacks[s] for s, name in enumerate(game.names)}
    assert len(result["hands"]) == 13 and result["complete"] is False
    # Both go on identically, and their histories keep agreeing.
    for g in (game, copy):
        check_round(g)
        showdown_hand(g)
    assert copy.to_json() == game.to_json() and copy.history_json() == game.history_json()
    assert export_replay(copy) == export_replay(game)


def test_a_game_loaded_without_its_history_plays_on_but_cannot_be_exported():
    game = long_game(3)
    into_second_betting_round(game)
    copy = Game.from_json(game.to_json())
    assert copy.view_for(0) == game.view_for(0)
    with pytest.raises(EngineError, match="loaded without its history"):
        export_replay(copy)
    with pytest.raises(InvalidState, match="loaded without its history"):
        copy.history_json()
    for g in (game, copy):
        check_round(g)
        showdown_hand(g)
    assert copy.to_json() == game.to_json()


def test_a_history_that_does_not_match_the_state_is_refused():
    game = long_game(3)
    stale = game.history_json()
    showdown_hand(game)
    with pytest.raises(InvalidState, match="history does not belong"):
        Game.from_json(game.to_json(), history=stale)
    with pytest.raises(InvalidState, match="history format"):
        Game.from_json(game.to_json(), history='{"f": 7, "hist": []}')


def test_the_history_keeps_between_hands_events():
    game = new_game("casino", stacks=[450, 10, 200])
    play_hand(game, winner=0, shove=(1,))
    game.rebuy(1, 300)
    for copy in (Game.from_json(game.to_json(), history=game.history_json()), game):
        assert copy.to_json() == game.to_json()
        document = export_replay(copy)  # sabacc-replay/2 writes the re-buy before the next hand
        assert document["after"] == [{"do": "rebuy", "player": "Bob", "amount": 300}]
    game.start_hand()
    copy = Game.from_json(game.to_json(), history=game.history_json())
    assert copy.history_json() == game.history_json()
    assert len(json.loads(game.history_json())["hist"]) == 2  # hand 1, then the re-buy


def test_a_format_1_save_with_history_inside_still_loads():
    game = long_game(5)
    into_second_betting_round(game)
    state = json.loads(game.to_json())
    entries = json.loads(game.history_json())["hist"]
    old = {key: value for key, value in state.items() if key != "n"}
    old.update({"f": 1, "hist": [*entries, state["cur"]], "cur": len(entries)})
    copy = Game.from_json(json.dumps(old))
    assert copy.to_json() == game.to_json()
    assert export_replay(copy) == export_replay(game)
    with pytest.raises(InvalidState, match="holds its own history"):
        Game.from_json(json.dumps(old), history=game.history_json())
