"""A Classic game's hand history as the table saw it: plays, locks and the call in words, no hidden card."""

import json
from pathlib import Path

from games.history import public_history
from games.words import card_name

EXAMPLE = json.loads(
    (Path(__file__).parents[1] / "engine" / "replays" / "classic" / "documented_example.json").read_text()
)["replay"]


def test_history_names_plays_locks_and_the_call_but_no_hidden_card():
    (hand,) = public_history(EXAMPLE)["hands"]
    texts = [step["text"] for step in hand["steps"]]
    assert texts[0] == "Ann deals two cards each."
    assert "Bob draws a card, locks 9 Coins." in texts
    assert "Ann trades a card with the draw pile, locks 15 Flasks (Ace)." in texts
    assert "Bob bets 5 and calls the hand." in texts
    trade = texts.index("Ann trades a card with the draw pile, locks 15 Flasks (Ace).")
    assert texts[trade + 1] == "The dice show 3-3: a Sabacc Shift redeals every unlocked card."
    assert texts[-1] == "Reveal: Ann wins 12."
    before_reveal = " ".join(texts[:-1])
    for hidden in ("-2", "+4t", "+7f", "+10s", "+12s", "-8", "+2c"):
        assert hidden not in before_reveal and card_name(hidden, "classic") not in before_reveal
    assert hand["result"]["showdown"]["Bob"]["field"] == ["+9c"]


def _result(name: str, number: int = 1) -> dict:
    document = json.loads((Path(__file__).parents[1] / "engine" / "replays" / "classic" / name).read_text())
    return public_history(document.get("replay", document))["hands"][number - 1]["result"]


def test_the_reveal_names_idiots_array_and_pure_sabacc_and_who_the_sabacc_pot_pays():
    result = _result("idiots_array_beats_pure_sabacc.json")
    assert result["showdown"]["Bob"]["title"] == "Idiot's Array"
    assert result["showdown"]["Ann"]["title"] == "Pure Sabacc"
    assert result["notes"] == ["The Sabacc pot pays 2 to Bob."]


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
    assert showdown["Bob"]["title"] == "Sudden Demise: drew 1 Coins, 2 Staves, total +23, Pure Sabacc"
    assert showdown["Cat"]["title"] == "Sudden Demise: drew Queen of Air and Darkness (\u22122), total +18"


def test_a_carried_sabacc_pot_is_told_then_won():
    assert _result("sabacc_pot_carried_over_and_won.json", 1)["notes"] == [
        "The Sabacc pot of 2 carries over to the next hand."
    ]
    assert _result("sabacc_pot_carried_over_and_won.json", 2)["notes"] == ["The Sabacc pot pays 4 to Ann."]


def test_hand_titles_are_the_variants_own():
    from games.history import shown_title

    assert shown_title({"cards": ["+3c"], "total": 3, "distance": 1, "suit_count": 1}) is None  # Coruscant Shift
    assert shown_title({"cards": ["+1c", "-1c"], "total": 0, "hand": "prime_sabacc"}) == "Prime Sabacc"  # Spike
    assert shown_title({"cards": ["+9c", "+4t"], "field": [], "total": 13, "hand": "ordinary"}) is None


def test_a_sabacc_pot_left_when_the_game_ends_is_told_paid_to_the_players_not_carried_over():
    # Issue 21 finding 1: the game-over panel said "carries over to the next hand" of a game that had ended.
    from games.engine.replay import export_replay
    from games.history import reveal_notes
    from tests.engine.classic.helpers import new_game
    from tests.engine.classic.test_rules_3_4 import reveal

    game = new_game(stacks=[100, 3], call_round=1)
    reveal(game, {"Ann": ["+10s", "+5f"], "Bob": ["+15c", "+9t"]})  # Bob bombs out and goes out: the game ends
    told = "The game is over: the 3 credits left on the table go to the players: Ann 3."
    panel = reveal_notes(game.spectator_view()["hand"]["result"])  # the table's game-over panel
    assert panel == ["Bob bombed out and paid 1 into the Sabacc pot.", told]
    (hand,) = public_history(export_replay(game))["hands"]
    assert hand["result"]["notes"] == panel and told not in [step["text"] for step in hand["steps"]]
    assert not any("carries over" in note for note in panel)


def test_a_closed_tables_history_ends_with_where_what_was_left_on_it_went():
    from games.engine.replay import export_replay
    from tests.engine.test_leftovers import with_a_sabacc_pot

    game = with_a_sabacc_pot("classic", "classic")  # end rule 'never': the table closes between hands
    game.close_table()
    paid = " and ".join(f"{game.names[s]} {amount}" for s, amount in game.leftovers_paid.items())
    hands = public_history(export_replay(game))["hands"]
    assert hands[-1]["steps"][-1]["text"].endswith(f"left on the table go to the players: {paid}.")
