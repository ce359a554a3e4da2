"""Why each pot went where it did, in words and data."""

from games.engine.realcards.explain import explain_hand
from tests.engine.realcards.helpers import coruscant_to_reveal, table


def test_a_fold_out_a_best_hand_and_a_named_split_are_each_explained():
    game = table()
    coruscant_to_reveal(game, keep=2, fold=(1, 2))
    (entry,) = explain_hand(game, 1)
    assert entry["why"] == "fold_out" and entry["winners"] == ["P0"]
    assert entry["says"] == "Pot 1 (6): everyone else folded; P0 takes it."

    coruscant_to_reveal(game, keep=2)
    game.step({"step": "reveal", "seat": 2, "cards": ["+3c", "-3c"]})
    game.step({"step": "reveal", "seat": 0, "cards": ["+3s", "-2s"]})
    game.step({"step": "reveal", "seat": 1, "cards": ["+5t", "-5s"]})
    (entry,) = explain_hand(game, 2)
    assert entry["why"] == "best_hand" and entry["winners"] == ["P2"]
    assert entry["hands"]["P2"] == {"cards": ["+3c", "-3c"], "total": 0, "distance": 0, "suit_count": 2}
    assert entry["says"].startswith("Pot 1 (15): P2 showed the best hand: ")
    assert "P2 +3c -3c (total 0, distance 0, suit count 2)" in entry["says"]

    coruscant_to_reveal(game, keep=1)
    game.step({"step": "winners", "pot": 0, "seats": [0, 1]})
    (entry,) = explain_hand(game, 3)
    assert entry["why"] == "named" and entry["says"].startswith("Pot 1 (")
    assert "the table named P0 and P1" in entry["says"]


def test_a_tie_split_is_explained_as_shared():
    game = table()
    coruscant_to_reveal(game, keep=2)
    game.step({"step": "reveal", "seat": 1, "cards": ["+3c", "-3c"]})
    game.step({"step": "reveal", "seat": 2, "cards": ["+4c", "-4c"]})
    game.step({"step": "reveal", "seat": 0, "cards": ["+5t", "-5s"]})
    (entry,) = explain_hand(game, 1)
    assert entry["why"] == "split" and entry["winners"] == ["P1", "P2"]
    assert entry["paid"] == {"P1": 3, "P2": 3}
