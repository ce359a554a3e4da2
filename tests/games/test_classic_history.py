"""A Classic game's hand history as the table saw it: plays, locks and the call in words, no hidden card."""

import json
from pathlib import Path

from games.history import public_history

EXAMPLE = json.loads(
    (Path(__file__).parents[1] / "engine" / "replays" / "classic" / "documented_example.json").read_text()
)["replay"]


def test_history_names_plays_locks_and_the_call_but_no_hidden_card():
    (hand,) = public_history(EXAMPLE)["hands"]
    texts = [step["text"] for step in hand["steps"]]
    assert texts[0] == "Ann deals two cards each."
    assert "Bob draws a card, locks +9c." in texts
    assert "Ann trades a card with the draw pile, locks +15f." in texts
    assert "Bob bets 5 and calls the hand." in texts
    trade = texts.index("Ann trades a card with the draw pile, locks +15f.")
    assert texts[trade + 1] == "The dice show 3-3: a Sabacc Shift redeals every unlocked card."
    assert texts[-1] == "Reveal: Ann wins 12."
    before_reveal = " ".join(texts[:-1])
    for hidden in ("-2", "+4t", "+7f", "+10s", "+12s", "-8", "+2c"):
        assert hidden not in before_reveal
    assert hand["result"]["showdown"]["Bob"]["field"] == ["+9c"]
