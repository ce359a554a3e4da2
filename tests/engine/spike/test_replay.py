"""`sabacc-replay/1` for Corellian Spike (docs/replay.md): fixtures, the worked example, every error kind,
partial hands, exports, the public log and the `replay` command."""

import copy
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from games.engine import ReplayError
from games.engine.public_log import public_log
from games.engine.replay import export_replay, play_replay, replay_game, replay_result
from tests.engine.helpers import normal
from tests.engine.spike.helpers import new_game, start

REPLAYS = Path(__file__).parents[1] / "replays" / "spike"
FIXTURES = sorted(REPLAYS.glob("*.json"))


def example() -> dict:
    return json.loads((REPLAYS / "galaxy_worked_example.json").read_text())["replay"]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_gives_its_expected_result(path):
    fixture = json.loads(path.read_text())
    assert normal(play_replay(fixture["replay"])) == normal(fixture["result"])


def test_the_worked_example_gives_the_documented_result():
    result = play_replay(example())
    hand = result["hands"][0]
    assert hand["showdown"]["Bob"] == {"cards": ["+10t", "-10s", "0"], "total": 0, "hand": "prime_sabacc"}
    assert hand["showdown"]["Jane"]["hand"] == "sabacc"
    assert hand["card_costs"] == {"Jane": 1, "Bob": 1}
    assert hand["pots"] == [{"amount": 26, "eligible": ["Bob", "Jane"], "winners": ["Bob"], "paid": {"Bob": 26}}]
    assert hand["sabacc_pot"] == {"amount": 2, "winners": ["Bob"], "paid": {"Bob": 2}, "carry_over": 0}
    assert result["stacks"] == {"Bob": 64, "Jane": 36} and result["sabacc_pot"] == 0


def _changed(path: str, value) -> dict:
    document = example()
    target = document
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if key.isdigit() else target[key]
    last = keys[-1]
    if value is _DELETE:
        del target[int(last) if last.isdigit() else last]
    else:
        target[int(last) if last.isdigit() else last] = value
    return document


_DELETE = object()


def _appended(action: dict) -> dict:
    document = example()
    document["hands"][0]["actions"].append(action)
    return document


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (
            "variant",
            "spike",
            "options: Unknown variant 'spike'; the variants are: coruscant_shift, classic, corellian_spike.",
        ),
        ("preset", "cantina", "Unknown preset 'cantina'; the presets are: galaxy_series, cantina_spike."),
        ("options", {"market": "bazaar"}, "options: Option 'market' must be one of galaxy, discard_pile"),
        ("options", {"ante": 0}, "options: Option 'ante' must be a whole number of at least 1"),
        ("dealer", _DELETE, "dealer: missing; name the first hand's dealer"),
        ("seats", [{"player": "Bob"}], "seats: must be a list of 2 to 8 entries"),
        ("seats.1.stack", 0, "seats: Jane's stack must be a whole number of at least 1; got 0."),
        ("hands.0.deck.0", "+11t", "Hand 1 deck: Unknown card '+11t': a card is a value from -10 to +10"),
        ("hands.0.deck.1", "+3c", "Hand 1 deck: card +3c is listed more than once; the deck holds it once."),
        ("hands.0.dice", [5, 7], "Hand 1 dice: the spike dice are two whole numbers from 1 to 6"),
        ("hands.0.dice", _DELETE, 'Hand 1: round 3 needs the spike dice; give "dice": [a, b].'),
        ("hands.0.actions.0", {"player": "Jane", "do": "bet", "amount": 1}, "Hand 1, action 1 (Jane bet): it is"),
        ("hands.0.actions.0", {"player": "Bob", "do": "stand"}, "Hand 1, action 1 (Bob stand): It is not Bob's"),
        ("hands.0.actions.0", {"player": "Jane", "do": "select"}, "Hand 1, action 1 (Jane select): unknown verb"),
        (
            "hands.0.actions.0",
            {"player": "Jane", "do": "buy", "from": "wing"},
            "Hand 1, action 1 (Jane buy): there is no Wing in round 1; the face-up cards are: pilot.",
        ),
        (
            "hands.0.actions.0",
            {"player": "Jane", "do": "buy", "from": "discard"},
            "Hand 1, action 1 (Jane buy): the discard pile is face down at this table",
        ),
        (
            "hands.0.actions.0",
            {"player": "Jane", "do": "trade", "from": "deck"},
            'Hand 1, action 1 (Jane trade): trade needs "card"',
        ),
        ("hands.0.actions.0", {"player": "Jane", "do": "buy"}, 'Hand 1, action 1 (Jane buy): buy needs "from"'),
        (
            "hands.0.actions.1",
            {"player": "Bob", "do": "trade", "card": "+3c", "from": "deck"},
            "Hand 1, action 2 (Bob trade): You do not hold +3c; you hold -8s, +10t.",
        ),
        (
            "hands.0.actions.9",
            {"player": "Jane", "do": "stand"},
            "Hand 1, action 10 (Jane stand): the spike dice matched: Jane must spike a card first.",
        ),
        ("hands.0.actions.2", {"player": "Jane", "do": "call"}, "Hand 1, action 3 (Jane call): You cannot call"),
        ("hands.0.actions.16", {"player": "Jane", "do": "check"}, "Hand 1, action 17 (Jane check): Hand 1 is over"),
        ("hands.0.actions.3", {"player": "Bob", "do": "fold"}, None),
    ],
)
def test_bad_documents_and_actions_are_refused_with_one_line(path, value, message):
    if message is None:
        # Bob folds where he bet: the hand ends and the next listed action is refused.
        message = "Hand 1, action 5 (Jane call): Hand 1 is over"
    document = _changed(path, value) if not path.endswith(".16") else _appended(value)
    with pytest.raises(ReplayError) as caught:
        play_replay(document)
    assert str(caught.value).startswith(message), str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_price_above_the_stack_is_refused():
    document = example()
    document["seats"][1]["stack"] = 4  # Jane: 3 antes leave 1; the Wing costs 2 in round 2
    document["hands"][0]["actions"][:3] = [
        {"player": "Jane", "do": "stand"},
        {"player": "Bob", "do": "stand"},
        {"player": "Jane", "do": "check"},
        {"player": "Bob", "do": "check"},
        {"player": "Jane", "do": "buy", "from": "wing"},
    ]
    with pytest.raises(ReplayError, match=r"^Hand 1, action 5 \(Jane buy\): the Wing costs 2 credits; Jane has 1\.$"):
        play_replay(document)


def test_dice_given_while_the_spike_dice_are_off_are_refused():
    document = example()
    document["options"]["spike_dice"] = False
    with pytest.raises(ReplayError, match=r'^Hand 1: "dice" are given but the spike dice are off'):
        play_replay(document)
    del document["hands"][0]["dice"]
    document["hands"][0]["actions"] = document["hands"][0]["actions"][:9]
    assert play_replay(document)["complete"] is False


def test_a_hand_stopped_part_way_shows_the_pots_as_they_stand():
    document = example()
    document["hands"][0]["actions"] = document["hands"][0]["actions"][:4]  # Bob has bet 3
    result = play_replay(document)
    hand = result["hands"][0]
    assert result["complete"] is False and hand["showdown"] == {}
    assert hand["card_costs"] == {"Jane": 1}
    # Antes 4, Bob's uncalled 3 not returned yet, the Pilot's price: sliced as contributions stand.
    assert sum(p["amount"] for p in hand["pots"]) == 4 + 3 + 1
    assert hand["sabacc_pot"] == {"amount": 2, "winners": [], "paid": {}, "carry_over": 2}
    assert result["sabacc_pot"] == 2 and result["carry_over"] == 0


def test_a_hand_that_ends_before_round_3_needs_no_dice():
    document = example()
    del document["hands"][0]["dice"]
    document["hands"][0]["actions"][2:5] = [
        {"player": "Jane", "do": "check"},
        {"player": "Bob", "do": "bet", "amount": 3},
        {"player": "Jane", "do": "fold"},
    ]
    del document["hands"][0]["actions"][5:]
    result = play_replay(document)
    assert result["complete"] is True and result["hands"][0]["folded"] == ["Jane"]


def test_export_of_a_game_replays_to_the_same_result_and_keeps_the_spike_fields():
    game = new_game()
    start(game, ["+5c", "-5s"], ["+3c", "+4c"], then=["+1c", "+2c", "+3s"], dice=(6, 6))
    game.act(1, "trade", card="+5c", source="pilot")
    passive_until_spike(game)
    document = export_replay(game)
    assert document["variant"] == "corellian_spike" and document["hands"][0]["dice"] == [6, 6]
    assert "reshuffles" not in document["hands"][0]
    assert document["hands"][0]["actions"][0] == {"player": "Bob", "do": "trade", "card": "+5c", "from": "pilot"}
    assert play_replay(document) == play_replay(json.loads(json.dumps(document)))
    again = replay_game(document)
    assert replay_result(again) == replay_result(game)
    assert again.view_for(0)["cards"] == game.view_for(0)["cards"] and again.hand.phase == "spike"


def passive_until_spike(game) -> None:
    while game.in_hand and game.hand.phase != "spike":
        seat = game.waiting_for()[0]
        game.act(seat, "check" if "check" in game.legal_actions(seat).verbs else "stand")


def test_the_public_log_shows_what_the_table_saw_and_no_hidden_card():
    document = example()
    (hand,) = public_log(document)
    steps = hand["steps"]
    kinds = [step["kind"] for step in steps]
    assert kinds[:6] == ["ante", "sabacc_ante", "ante", "sabacc_ante", "deal", "deal"]
    assert {"kind": "pilot", "cards": ["+2c"]} in steps
    buy = next(s for s in steps if s["kind"] == "buy")
    assert buy == {"kind": "buy", "player": "Jane", "amount": 1, "detail": "pilot +2c"}
    trade = next(s for s in steps if s["kind"] == "trade")
    # Bob traded -8s (face down) for -9c (unseen): neither shows, even after the reveal.
    assert "cards" not in trade and trade["detail"] == "deck"
    spikes = [s for s in steps if s["kind"] == "spike"]
    assert all("cards" not in s for s in spikes) and len(spikes) == 2
    assert {"kind": "spike_roll", "detail": "5,5"} in steps
    text = json.dumps(hand["steps"])
    for hidden in ("-8s", "-9c", "+3c"):
        assert hidden not in text


def test_the_command_prints_the_result_and_exits_2_with_one_line_on_errors(tmp_path):
    path = tmp_path / "spike.json"
    path.write_text(json.dumps(example()))
    out, err = io.StringIO(), io.StringIO()
    call_command("replay", str(path), stdout=out, stderr=err)
    assert json.loads(out.getvalue())["stacks"] == {"Bob": 64, "Jane": 36} and err.getvalue() == ""
    bad = copy.deepcopy(example())
    bad["hands"][0]["actions"][0] = {"player": "Jane", "do": "buy", "from": "gunner"}
    path.write_text(json.dumps(bad))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(path), stdout=out, stderr=err)
    assert exited.value.code == 2 and out.getvalue() == ""
    assert err.getvalue().count("\n") == 1 and "there is no Gunner in round 1" in err.getvalue()
