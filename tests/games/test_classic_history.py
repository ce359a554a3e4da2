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


def _result(name: str, number: int = 1) -> dict:
    document = json.loads((Path(__file__).parents[1] / "engine" / "replays" / "classic" / name).read_text())
    return public_history(document.get("replay", document))["hands"][number - 1]["result"]


def test_the_reveal_names_idiots_array_and_pure_sabacc_and_who_the_sabacc_pot_pays():
    result = _result("idiots_array_beats_pure_sabacc.json")
    assert result["showdown"]["Bob"]["title"] == "Idiot's Array"
    assert result["showdown"]["Ann"]["title"] == "Pure Sabacc"
    assert result["notes"] == ["The Sabacc pot pays Bob 2."]


def test_the_reveal_tells_a_bomb_out_with_its_penalty_and_the_sabacc_pot_carried_over():
    result = _result("bomb_out_capped_penalty.json")
    assert result["showdown"]["Cat"]["title"] == "bombed out"
    assert "title" not in result["showdown"]["Bob"]  # an ordinary total has no name
    assert result["notes"] == [
        "Cat bombed out and paid 3 into the Sabacc pot.",
        "The Sabacc pot of 6 carries over to the next hand.",
    ]


def test_the_reveal_tells_what_each_sudden_demise_card_made():
    showdown = _result("repeated_sudden_demise.json")["showdown"]
    assert showdown["Bob"]["title"] == "Sudden Demise: drew +1c, +2t, total +23, Pure Sabacc"
    assert showdown["Cat"]["title"] == "Sudden Demise: drew -2, total +18"


def test_a_carried_sabacc_pot_is_told_then_won():
    assert _result("sabacc_pot_carried_over_and_won.json", 1)["notes"] == [
        "The Sabacc pot of 2 carries over to the next hand."
    ]
    assert _result("sabacc_pot_carried_over_and_won.json", 2)["notes"] == ["The Sabacc pot pays Ann 4."]


def test_hand_titles_are_the_variants_own():
    from games.history import shown_title

    assert shown_title({"cards": ["+3c"], "total": 3, "distance": 1, "suit_count": 1}) is None  # Coruscant Shift
    assert shown_title({"cards": ["+1c", "-1c"], "total": 0, "hand": "prime_sabacc"}) == "Prime Sabacc"  # Spike
    assert shown_title({"cards": ["+9c", "+4t"], "field": [], "total": 13, "hand": "ordinary"}) is None
