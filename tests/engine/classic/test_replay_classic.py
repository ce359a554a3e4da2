"""The replay format for Classic Sabacc (docs/replay.md): scripted fixtures, errors, the command, exports."""

import io
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command

from games.engine import Game, ReplayError
from games.engine.options import build_options
from games.engine.replay import export_replay, play_replay
from tests.engine.classic.helpers import check_round, new_game, stand_all, start
from tests.engine.helpers import check_replay_fixture

REPLAYS = Path(__file__).parents[1] / "replays" / "classic"
FIXTURES = sorted(REPLAYS.glob("*.json"))
UNORDERED = ("eligible", "winners", "folded")
MULTISETS = ("cards", "field")

# The worked example of the format's documentation, exactly as written there.
DOCUMENTED_HAND = {
    "number": 1,
    "dealer": "Ann",
    "forced": {"Bob": 1, "Ann": 1},
    "sabacc_antes": {"Bob": 1, "Ann": 1},
    "rounds": 1,
    "ended": "called",
    "called_by": "Bob",
    "rolls": 3,
    "shifts": [2],
    "folded": [],
    "showdown": {
        "Bob": {"cards": ["+12s", "+9c", "-8"], "field": ["+9c"], "total": 13, "hand": "ordinary"},
        "Ann": {"cards": ["+15f", "+2c"], "field": ["+15f"], "total": 17, "hand": "ordinary"},
    },
    "penalties": {},
    "pots": [{"amount": 12, "eligible": ["Bob", "Ann"], "winners": ["Ann"], "paid": {"Ann": 12}}],
    "sabacc_pot": {"before": 0, "antes": 2, "penalties": 0, "from_pots": 0, "winners": [], "paid": {}, "after": 2},
    "carry_over": 0,
    "stacks": {"Ann": 55, "Bob": 43},
}


def normal(value, key=None):
    """Drop the orders that do not matter: names in eligible/winners/folded, cards in cards/field (as multisets)."""
    if isinstance(value, dict):
        return {k: normal(v, k) for k, v in value.items()}
    if isinstance(value, list):
        if key in UNORDERED or key in MULTISETS:
            return sorted(value)
        return [normal(v) for v in value]
    return value


def load(name: str) -> dict:
    return json.loads((REPLAYS / f"{name}.json").read_text())


def result_of(name: str) -> dict:
    return play_replay(load(name)["replay"])


def test_fixture_set_covers_the_required_scenarios():
    names = {path.stem for path in FIXTURES}
    assert {
        "idiots_array_beats_pure_sabacc",
        "bomb_out_capped_penalty",
        "repeated_sudden_demise",
        "shift_changes_the_winner",
        "locked_card_survives_a_shift",
        "sabacc_pot_carried_over_and_won",
        "all_in_side_pots",
        "documented_example",
        "invalid_unknown_card",
        "invalid_wrong_phase",
        "invalid_trade_locked_card",
    } <= names


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_classic_fixture_gives_its_expected_result_or_error(path):
    check_replay_fixture(path, normal)  # the Classic form: multisets unordered too


def test_documented_example_gives_the_documented_result():
    result = result_of("documented_example")
    assert normal(result["hands"][0]) == normal(DOCUMENTED_HAND)
    assert result["sabacc_pot"] == 2 and result["carry_over"] == 0


def test_idiots_array_beats_pure_sabacc_and_takes_the_sabacc_pot():
    hand = result_of("idiots_array_beats_pure_sabacc")["hands"][0]
    assert hand["showdown"]["Bob"]["hand"] == "idiots_array" and hand["showdown"]["Ann"]["hand"] == "pure_sabacc"
    assert hand["pots"][0]["winners"] == ["Bob"] and hand["sabacc_pot"]["winners"] == ["Bob"]


def test_bomb_out_pays_the_hand_pot_capped_by_the_stack():
    result = result_of("bomb_out_capped_penalty")
    hand = result["hands"][0]
    assert hand["pots"][0]["amount"] == 18
    assert hand["penalties"] == {"Cat": 3}  # owed 18, had 3 left
    assert result["stacks"]["Cat"] == 0 and result["sabacc_pot"] == 6


def test_repeated_sudden_demise_among_the_tied_players_only():
    hand = result_of("repeated_sudden_demise")["hands"][0]
    assert [hand["showdown"][p]["sudden_demise"]["cards"] for p in ("Bob", "Cat", "Ann")] == [
        ["+1c", "+2t"],
        ["-2"],
        ["+1f", "+1t"],
    ]
    assert hand["pots"][0]["winners"] == ["Bob"]
    assert hand["sabacc_pot"]["winners"] == []  # Ruling 3.3.7: 23 after Sudden Demise cards is not shown


def test_shift_changes_the_winner_and_a_locked_card_survives_one():
    changed = result_of("shift_changes_the_winner")["hands"][0]
    assert changed["shifts"] == [3] and changed["pots"][0]["winners"] == ["Bob"]
    locked = result_of("locked_card_survives_a_shift")["hands"][0]
    assert locked["shifts"] == [2] and locked["showdown"]["Ann"]["field"] == ["+15s"]
    assert "+15s" in locked["showdown"]["Ann"]["cards"]


def test_sabacc_pot_carried_over_and_won_and_side_pots():
    carried = result_of("sabacc_pot_carried_over_and_won")
    assert [h["sabacc_pot"]["after"] for h in carried["hands"]] == [2, 0]
    assert carried["hands"][1]["sabacc_pot"]["paid"] == {"Ann": 4}
    side = result_of("all_in_side_pots")["hands"][0]
    assert [(p["amount"], p["winners"]) for p in side["pots"]] == [(33, ["Bob"]), (20, ["Cat"])]


def test_a_replay_may_stop_part_way_and_reports_the_pot_so_far():
    result = result_of("universe_partial")
    assert result["complete"] is False
    assert result["hands"][0]["complete"] is False and result["hands"][0]["pot"] == 12
    assert sum(result["stacks"].values()) + result["sabacc_pot"] + result["hands"][0]["pot"] == 100


def test_command_prints_the_result_and_reports_errors_in_one_line_with_exit_2(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(load("documented_example")["replay"]))
    out, err = io.StringIO(), io.StringIO()
    call_command("replay", str(good), stdout=out, stderr=err)
    assert json.loads(out.getvalue())["sabacc_pot"] == 2 and err.getvalue() == ""
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(load("invalid_trade_locked_card")["replay"]))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(bad), stdout=out, stderr=err)
    assert exited.value.code == 2 and out.getvalue() == ""
    assert err.getvalue().strip() == "replay: " + load("invalid_trade_locked_card")["error"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"preset": "cantina"}, "Unknown preset 'cantina'; the presets are: classic, universe."),
        ({"options": {"shift_rolls": "sometimes"}}, "options: Option 'shift_rolls' must be one of"),
        ({"dealer": "Zed"}, "dealer: 'Zed' is not one of the seated players"),
    ],
)
def test_invalid_documents_are_refused_with_one_line(change, message):
    with pytest.raises(ReplayError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        play_replay(load("documented_example")["replay"] | change)


def test_bad_rolls_and_bad_action_keys_are_refused():
    document = load("documented_example")["replay"]
    document["hands"][0]["dice"][1] = [3, 7]
    with pytest.raises(ReplayError, match=r"^Hand 1 dice: roll 2: a roll is two whole numbers from 1 to 6"):
        play_replay(document)
    document = load("documented_example")["replay"]
    document["hands"][0]["actions"][0]["amount"] = 3
    with pytest.raises(ReplayError, match=r"^Hand 1, action 1 \(Bob draw\): unknown key 'amount'; draw takes"):
        play_replay(document)


def played_game(seed: int, preset: str) -> Game:
    rng = random.Random(seed)
    game = Game.new(
        options=build_options("classic", preset, {"starting_stack": 30, "call_round": 2}),
        players=[("Ann", 30), ("Bob", 30), ("Cat", 30)],
        rng=random.Random(seed),
        variant="classic",
        preset=preset,
    )
    while game.can_start_hand() and game.hands_played < 6:
        game.start_hand()
        while game.in_hand:
            who = game.waiting_for()[0]
            legal = game.legal_actions(who)
            verb = rng.choice([v for v in legal.verbs if v != "fold"] or ["fold"])
            args: dict = {}
            if verb == "trade":
                args["card"] = rng.choice(legal.tradeable)
            if verb in ("draw", "trade", "stand") and legal.lockable and rng.random() < 0.4:
                args["lock"] = rng.choice(legal.lockable)
            if verb == "bet":
                args["amount"] = legal.min_bet
            if verb == "raise":
                args["amount"] = legal.min_raise_to
            if legal.can_call_hand and verb not in ("draw", "trade", "stand") and rng.random() < 0.5:
                args["call_hand"] = True
            if "lock" in args and args["lock"] == args.get("card"):
                del args["lock"]
            game.act(who, verb, **args)
    return game


@pytest.mark.parametrize("preset", ["classic", "universe"])
def test_export_lists_every_roll_and_pile_and_replays_to_the_same_result(preset):
    game = played_game(3, preset)
    document = json.loads(json.dumps(export_replay(game)))
    for hand in document["hands"]:
        assert Counter(hand["deck"]) == Counter(c.code for c in game.variant.deck())
        assert all(len(roll) == 2 for roll in hand["dice"])
    result = play_replay(document)
    assert result["hands"] == [dict(h) for h in game.results]
    assert result["sabacc_pot"] == game.pools.get("sabacc", 0)


def test_export_of_a_hand_in_progress_replays_part_way():
    game = new_game(call_round=1)
    start(game, {"Ann": ["+10s", "+5f"], "Bob": ["+9c", "+4t"]}, rolls=[(1, 2), (5, 5)] + [(1, 2)] * 10)
    stand_all(game)
    check_round(game)
    document = export_replay(game)
    assert document["hands"][0]["dice"] == [[1, 2], [5, 5], [1, 2]]
    assert len(document["hands"][0]["reshuffles"]) == 1
    result = play_replay(json.loads(json.dumps(document)))
    assert result["complete"] is False and result["hands"][0]["rounds"] == 2


def test_public_log_shows_locks_rolls_and_shifts_as_they_happen_but_never_a_hidden_card():
    from games.engine.public_log import public_log

    (hand,) = public_log(load("documented_example")["replay"])
    steps = hand["steps"]
    kinds = [step["kind"] for step in steps]
    assert [s["detail"] for s in steps if s["kind"] == "dice"] == ["2-5", "3-3", "1-6"]
    second_roll = [i for i, kind in enumerate(kinds) if kind == "dice"][1]
    assert steps[second_roll + 1] == {"kind": "sabacc_shift", "amount": 2}  # the pair's Shift, at once
    assert {"kind": "lock", "player": "Bob", "cards": ["+9c"]} in steps
    assert all("cards" not in s for s in steps if s["kind"] in ("deal", "draw", "trade", "shift"))
    before_reveal = json.dumps(steps[: kinds.index("reveal")])
    for hidden in ("+10s", "-2", "+4t", "+7f", "+12s", "-8", "+2c"):
        assert f'"{hidden}"' not in before_reveal
    assert hand["shifts"] == [2] and hand["rolls"] == [[2, 5], [3, 3], [1, 6]]


def test_verify_game_checks_every_roll_and_pile_against_the_revealed_seed():
    from games.engine.fairness import game_problems

    game = played_game(11, "classic")
    while not game.is_over:  # play on to the end, so that the seeds are revealed
        if not game.in_hand:
            game.start_hand()
        while game.in_hand:
            who = game.waiting_for()[0]
            legal = game.legal_actions(who)
            game.act(who, "allin" if legal.can_all_in else ("stand" if legal.can_stand else "call"))
    document = json.loads(json.dumps(export_replay(game)))
    assert game_problems(document) == []
    tampered = json.loads(json.dumps(document))
    hand = next(h for h in tampered["hands"] if h["dice"])
    a, b = hand["dice"][0]
    hand["dice"][0] = [a % 6 + 1, b]
    problems = game_problems(tampered)
    assert any("rolls listed are not the ones its seed makes" in p for p in problems)
