"""The hand history shows what the table saw: it replays to the engine's own result, a folded hand is never
shown, and no deck order, seed or commitment comes out."""

import json
from pathlib import Path

import pytest

from games.engine.replay import play_replay
from games.history import HistoryError, public_history
from league.demo import bot_replay

REPLAYS = Path(__file__).resolve().parent.parent / "engine" / "replays"
VALID = ["bob_and_jane", "fold_out", "side_pots_all_ins", "halcyon_game", "draw_tie", "odd_credit_carry"]


def _document(name: str) -> dict:
    return json.loads((REPLAYS / f"{name}.json").read_text())["replay"]


@pytest.mark.parametrize("name", VALID)
def test_the_history_ends_where_the_engines_replay_ends(name):
    document = _document(name)
    history = public_history(document)
    result = play_replay(document)
    assert len(history["hands"]) == len(result["hands"])
    last = history["hands"][-1]["steps"][-1]["players"]
    assert {row["name"]: row["stack"] for row in last} == result["stacks"]
    for hand, summary in zip(history["hands"], result["hands"], strict=True):
        assert hand["result"]["stacks"] == summary["stacks"]
        actions = len(document["hands"][hand["number"] - 1]["actions"])
        assert len(hand["steps"]) >= actions + 2  # the deal, every action, the reveal


@pytest.mark.parametrize("name", VALID)
def test_a_folded_hand_is_never_shown_and_nothing_secret_comes_out(name):
    document = _document(name)
    history = public_history(document)
    text = json.dumps(history)
    assert "deck" not in text and "seed" not in text and "commitment" not in text
    for hand, played in zip(history["hands"], document["hands"], strict=True):
        folded = set(hand["result"]["folded"])
        assert folded.isdisjoint(hand["result"]["showdown"])
        selected = {
            code
            for action in played["actions"]
            if action["do"] == "select" and action["player"] in folded
            for code in action["cards"]
        }
        shown = {code for seat in hand["result"]["showdown"].values() for code in seat["cards"]}
        # A folded player's cards appear nowhere, unless another player showed the same card (the two Sylops).
        for code in selected - shown:
            assert f'"{code}"' not in json.dumps(hand)
        for step in hand["steps"]:
            assert "cards" not in json.dumps(step["players"])


def test_the_fold_out_hand_names_the_folds_and_shows_no_cards():
    hand = public_history(_document("fold_out"))["hands"][0]
    assert hand["result"]["showdown"] == {}
    assert [step["text"] for step in hand["steps"] if "folds" in step["text"]] == ["Ann folds.", "Bob folds."]


def test_a_bot_game_replays_hand_by_hand():
    document = bot_replay(["Ann", "Bob", "Cat"], seed="history")
    history = public_history(document)
    assert history["players"] == ["Ann", "Bob", "Cat"]
    assert sum(row["stack"] for row in history["hands"][-1]["steps"][-1]["players"]) == 3 * 450


@pytest.mark.parametrize(
    ("document", "says"),
    [
        ({"format": "sabacc-replay/9"}, "read sabacc-replay/1"),
        ({"format": "sabacc-replay/1", "preset": "nonsense", "seats": []}, "cannot be set up"),
        (
            {
                "format": "sabacc-replay/1",
                "preset": "cantina",
                "seats": [{"player": "A", "stack": 10}, {"player": "B", "stack": 10}],
                "hands": [{"dice": {"number": 5, "suit": "circle"}, "actions": [{"player": "Z", "do": "check"}]}],
            },
            "Hand 1, action 1",
        ),
    ],
)
def test_a_replay_that_cannot_be_shown_says_why(document, says):
    with pytest.raises(HistoryError, match=says):
        public_history(document)
