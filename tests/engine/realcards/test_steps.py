"""A real-cards table's steps: each verified (a clear refusal that changes nothing) and then applied."""

import pytest

from games.engine.errors import IllegalAction, InvalidAmount, InvalidCard, InvalidSelection, NotYourTurn, WrongPhase
from games.engine.realcards.due import due
from tests.engine.realcards.helpers import coruscant_to_reveal, snapshot, table


def test_the_dealer_is_told_what_to_do_and_the_antes_are_posted_by_themselves():
    game = table()
    assert due(game)["due"] == "deal" and due(game)["dealer"] == 0
    assert "deal five cards each" in due(game)["says"]
    game.step({"step": "deal"})
    assert due(game)["due"] == "dice"
    assert game.game.hand.contributions == {1: 2, 2: 2, 0: 2}  # the cantina ante, posted automatically
    assert game.stacks == [98, 98, 98]


def test_a_step_out_of_turn_is_refused_and_changes_nothing():
    game = table()
    game.step({"step": "deal"})
    game.step({"step": "dice", "dice": {"number": 5, "suit": "square"}})
    for seat in (1, 2, 0):
        game.step({"step": "act", "seat": seat, "verb": "select", "count": 3})
    before = snapshot(game)
    assert due(game)["seats"] == [1]
    with pytest.raises(NotYourTurn, match="waiting for P1"):
        game.step({"step": "act", "seat": 2, "verb": "check"})
    with pytest.raises(InvalidAmount):
        game.step({"step": "act", "seat": 1, "verb": "bet", "amount": 99999})
    with pytest.raises(WrongPhase, match="No roll is due"):
        game.step({"step": "dice", "dice": {"number": 5, "suit": "square"}})
    with pytest.raises(WrongPhase):
        game.step({"step": "reveal", "seat": 1, "cards": ["+1c", "+2c", "+3c"]})
    with pytest.raises(IllegalAction, match="Unknown step"):
        game.step({"step": "shuffle"})
    assert snapshot(game) == before


def test_only_legal_choices_are_offered_with_their_bounds():
    game = table()
    game.step({"step": "deal"})
    game.step({"step": "dice", "dice": {"number": 5, "suit": "square"}})
    assert due(game)["choices"][1] == {
        "verbs": ["select"],
        "count": [0, 5],
        "says": "enter how many cards they keep (0 to 5)",
    }
    for seat in (1, 2, 0):
        game.step({"step": "act", "seat": seat, "verb": "select", "count": 3})
    choices = due(game)["choices"][1]
    assert choices["verbs"] == ["check", "bet", "fold", "allin"]
    assert choices["min_bet"] == 1 and choices["max_bet"] == 98
    assert "selectable" not in choices


def test_bad_dice_and_bad_counts_say_what_is_allowed():
    game = table()
    game.step({"step": "deal"})
    with pytest.raises(InvalidSelection, match="faces are 0, 5, -5, 10, -10"):
        game.step({"step": "dice", "dice": {"number": 3, "suit": "circle"}})
    game.step({"step": "dice", "dice": {"number": 5, "suit": "square"}})
    with pytest.raises(InvalidSelection, match="0 to 5"):
        game.step({"step": "act", "seat": 1, "verb": "select", "count": 6})


def test_the_reveal_asks_the_hands_still_in_for_as_many_cards_as_they_hold():
    game = table(players=4)
    d = coruscant_to_reveal(game, keep=2, fold=(3,))
    assert d["due"] == "reveal"
    assert [row["seat"] for row in d["seats"]] == [1, 2, 0]  # seat 3 folded: never asked
    assert {row["cards"] for row in d["seats"]} == {2}
    with pytest.raises(IllegalAction, match="folded; folded hands are never shown"):
        game.step({"step": "reveal", "seat": 3, "cards": ["+1c", "+2c"]})
    with pytest.raises(InvalidSelection, match="shows 2 cards"):
        game.step({"step": "reveal", "seat": 1, "cards": ["+1c"]})


def test_a_card_not_in_the_deck_or_shown_twice_is_refused_and_changes_nothing():
    game = table()
    coruscant_to_reveal(game, keep=2)
    before = snapshot(game)
    with pytest.raises(InvalidCard, match="11c"):
        game.step({"step": "reveal", "seat": 1, "cards": ["+11c", "+2c"]})
    with pytest.raises(InvalidSelection, match="already shown"):
        game.step({"step": "reveal", "seat": 1, "cards": ["+2c", "+2c"]})
    assert snapshot(game) == before
    game.step({"step": "reveal", "seat": 1, "cards": ["0", "+2c"]})
    before = snapshot(game)
    with pytest.raises(InvalidSelection, match=r"\+2c is already shown in hand 1"):
        game.step({"step": "reveal", "seat": 2, "cards": ["+2c", "-4t"]})
    game.step({"step": "reveal", "seat": 2, "cards": ["0", "-4t"]})  # the deck holds two Sylops
    with pytest.raises(InvalidSelection, match="0 is already shown in hand 1; the deck holds it 2 times"):
        game.step({"step": "reveal", "seat": 0, "cards": ["0", "+5s"]})
    assert len(game.steps) == len(before[0]) + 1


def test_the_reveal_is_settled_by_the_variants_own_evaluation():
    game = table()
    coruscant_to_reveal(game, keep=2)
    game.step({"step": "reveal", "seat": 1, "cards": ["+3c", "-3c"]})  # total 0, target 0, two circles
    game.step({"step": "reveal", "seat": 2, "cards": ["+3s", "-2s"]})
    game.step({"step": "reveal", "seat": 0, "cards": ["+5t", "-5s"]})  # total 0, no circle
    assert due(game)["due"] == "deal"
    (pot,) = game.results()[-1]["pots"]
    assert pot["winners"] == ["P1"] and pot["amount"] == 6
    assert game.stacks == [98, 104, 98]


def test_a_fold_out_asks_for_no_card():
    game = table(players=3)
    d = coruscant_to_reveal(game, keep=2, fold=(1, 2))
    assert d["due"] == "deal"
    assert game.stacks == [104, 98, 98]
    assert game.boards == {}


def test_a_step_failing_after_it_changed_something_leaves_the_game_as_it_was(monkeypatch):
    game = table()
    coruscant_to_reveal(game, keep=2)
    before = snapshot(game)

    rerun = type(game)._rerun
    calls = []

    def broken_once(self):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bug half-way through")
        rerun(self)

    monkeypatch.setattr(type(game), "_rerun", broken_once)
    with pytest.raises(RuntimeError):
        game.step({"step": "reveal", "seat": 1, "cards": ["+3c", "-3c"]})
    monkeypatch.undo()
    assert len(calls) > 1  # the game was rebuilt from its steps
    assert snapshot(game) == before
    game.step({"step": "reveal", "seat": 1, "cards": ["+3c", "-3c"]})
    assert game.boards[1]


def test_an_act_names_no_card():
    game = table()
    game.step({"step": "deal"})
    game.step({"step": "dice", "dice": {"number": 5, "suit": "square"}})
    with pytest.raises(IllegalAction, match="select takes count \\(no card is named\\); got cards"):
        game.step({"step": "act", "seat": 1, "verb": "select", "cards": ["+7c"]})
    spike = table(variant="corellian_spike", preset="galaxy_series")
    spike.step({"step": "deal"})
    seat = due(spike)["seats"][0]
    with pytest.raises(IllegalAction, match="got card"):
        spike.step({"step": "act", "seat": seat, "verb": "trade", "source": "deck", "card": "+1c"})
    choices = due(spike)["choices"][seat]
    assert "cards" not in choices and choices["trade_from"]


def test_verify_step_and_can_step_only_ask():
    game = table()
    coruscant_to_reveal(game, keep=2)
    before = snapshot(game)
    game.verify_step({"step": "reveal", "seat": 1, "cards": ["+3c", "-3c"]})
    assert game.can_step({"step": "reveal", "seat": 2, "cards": ["+3s", "-2s"]})
    assert not game.can_step({"step": "reveal", "seat": 2, "cards": ["+3s", "+3s"]})
    assert not game.can_step({"step": "deal"})
    assert snapshot(game) == before
    assert game.game.variant._game is game
