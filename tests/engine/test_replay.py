"""The sabacc-replay/1 format: our fixtures, the REPLAY.md example, errors, exports and the command."""

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from games.engine import Game, ReplayError, resolve_options
from games.engine.replay import export_replay, play_replay
from tests.engine.helpers import check_replay_fixture, normal, play_hand

REPLAYS = Path(__file__).parent / "replays"
FIXTURES = sorted(REPLAYS.glob("*.json"))

# The worked example's result exactly as the format's documentation gives it.
BOB_AND_JANE_RESULT = {
    "format": "sabacc-replay-result/1",
    "complete": True,
    "hands": [
        {
            "number": 1,
            "dealer": "Bob",
            "target": -5,
            "suit": "circle",
            "forced": {"Bob": 2, "Jane": 2},
            "showdown": {
                "Bob": {"cards": ["-8s", "-4c", "+2c", "+5t", "0"], "total": -5, "distance": 0, "suit_count": 3},
                "Jane": {"cards": ["-5c", "-3c", "-2t", "+5c", "0"], "total": -5, "distance": 0, "suit_count": 4},
            },
            "folded": [],
            "pots": [{"amount": 12, "eligible": ["Bob", "Jane"], "winners": ["Jane"], "paid": {"Jane": 12}}],
            "carry_over": 0,
            "stacks": {"Bob": 94, "Jane": 106},
        }
    ],
    "stacks": {"Bob": 94, "Jane": 106},
    "carry_over": 0,
    "finished": False,
    "standings": [{"player": "Jane", "place": 1, "stack": 106}, {"player": "Bob", "place": 2, "stack": 94}],
}


def load(name: str) -> dict:
    return json.loads((REPLAYS / f"{name}.json").read_text())


def test_fixture_set_covers_the_required_scenarios():
    names = {path.stem for path in FIXTURES}
    assert {
        "bob_and_jane",
        "side_pots_all_ins",
        "draw_tie",
        "odd_credit_carry",
        "odd_credit_left_of_dealer",
        "fold_out",
        "heads_up_blinds",
        "halcyon_game",
        "partial",
        "invalid_unknown_card",
        "invalid_duplicate_card",
        "invalid_illegal_action",
    } <= names


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_replay_fixture_gives_its_expected_result_or_error(path):
    check_replay_fixture(path)


def test_bob_and_jane_matches_the_documented_result_exactly():
    assert normal(play_replay(load("bob_and_jane")["replay"])) == normal(BOB_AND_JANE_RESULT)


def test_error_messages_name_the_problem():
    assert load("invalid_unknown_card")["error"].startswith("Hand 1 deck: Unknown card '+11t'")
    assert load("invalid_duplicate_card")["error"] == (
        "Hand 1 deck: card -5c is listed more than once; the deck holds it once."
    )
    assert load("invalid_illegal_action")["error"] == (
        "Hand 1, action 8 (Bob raise): You cannot raise: nobody has bet this round; bet or check instead."
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"format": "sabacc-replay/3"},
            'Unknown replay format \'sabacc-replay/3\'; expected "sabacc-replay/1" or "sabacc-replay/2".',
        ),
        ({"preset": "vegas"}, "Unknown preset 'vegas'; the presets are: halcyon, cantina, better, casino."),
        ({"variant": "pazaak"}, "options: Unknown variant 'pazaak'; the variants are: "),
        ({"options": {"antee": 1}}, "options: Unknown option 'antee'"),
        ({"dealer": "Zed"}, "dealer: 'Zed' is not one of the seated players (Bob, Jane)."),
        ({"seats": [{"player": "Bob", "stack": 100}]}, "seats: must be a list of 2 to 8 entries"),
    ],
)
def test_invalid_documents_are_refused_with_one_line(change, message):
    document = load("bob_and_jane")["replay"] | change
    with pytest.raises(ReplayError) as caught:
        play_replay(document)
    assert str(caught.value).startswith(message)


def test_invalid_hand_parts_are_refused():
    document = load("bob_and_jane")["replay"]
    hand = document["hands"][0]
    cases = [
        ({**hand, "dice": {"number": 3, "suit": "circle"}}, "Hand 1 dice: Dice number 3 is not a face"),
        ({k: v for k, v in hand.items() if k != "dice"}, "Hand 1: dice are missing"),
        ({**hand, "actions": [{"player": "Zed", "do": "check"}]}, "Hand 1, action 1 (Zed check): 'Zed' is not one"),
        ({**hand, "actions": [{"player": "Bob", "do": "dance"}]}, "Hand 1, action 1 (Bob dance): unknown verb"),
        (
            {**hand, "actions": [{"player": "Bob", "do": "select", "cards": ["+9t"]}]},
            "Hand 1, action 1 (Bob select): You do not hold +9t in your hand; "
            "you may choose from: -8s, -4c, +2c, +5t, 0.",
        ),
        (
            {**hand, "actions": [*hand["actions"], {"player": "Bob", "do": "check"}]},
            "Hand 1, action 11 (Bob check): Hand 1 is over",
        ),
    ]
    for changed, message in cases:
        with pytest.raises(ReplayError) as caught:
            play_replay({**document, "hands": [changed]})
        assert str(caught.value).startswith(message), str(caught.value)
    unfinished = {**hand, "actions": hand["actions"][:3]}
    with pytest.raises(ReplayError, match="Hand 2: hand 1 is not finished \\(waiting for Bob\\)"):
        play_replay({**document, "hands": [unfinished, hand]})


def test_replay_of_a_finished_game_refuses_more_hands():
    document = load("halcyon_game")["replay"]
    extra = {**document, "hands": [*document["hands"], {"dice": {"number": 0, "suit": "circle"}, "actions": []}]}
    with pytest.raises(ReplayError, match=r"Hand 4: the game is already over after hand 3\."):
        play_replay(extra)


def test_unlisted_cards_follow_in_an_order_fixed_by_the_seed():
    document = load("fold_out")["replay"]
    first = play_replay(document)
    assert play_replay(document) == first
    hand = {"dice": {"number": 0, "suit": "circle"}, "actions": [{"player": "Ann", "do": "select", "cards": []}]}
    seen = set()
    for seed in range(4):
        try:
            play_replay(
                {
                    **document,
                    "seed": seed,
                    "hands": [{**hand, "actions": [{"player": "Ann", "do": "select", "cards": ["+10c"]}]}],
                }
            )
            seen.add(seed)
        except ReplayError:
            pass
    assert seen and len(seen) < 4  # whether Ann holds +10c depends on the seed


def play_random_game(preset: str, stacks: list[int], seed: int, hands: int = 6) -> Game:
    rng = random.Random(seed)
    options = resolve_options("coruscant_shift", preset)
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"][: len(stacks)]
    game = Game.new(
        options=options, players=list(zip(names, stacks, strict=True)), rng=random.Random(seed), preset=preset
    )
    while not game.is_over and game.hands_played < hands:
        if not game.in_hand:
            if not game.can_start_hand():
                break
            game.start_hand()
            continue
        seat = game.waiting_for()[0]
        legal = game.legal_actions(seat)
        verb = rng.choice(legal.verbs)
        if verb == "select":
            game.select(seat, [c for c in legal.selectable if rng.random() < 0.5])
        elif verb == "bet":
            game.bet(seat, legal.min_bet)
        elif verb == "raise":
            game.raise_to(seat, legal.min_raise_to)
        elif verb == "allin" and rng.random() < 0.2:
            game.all_in(seat)
        elif verb == "fold" and rng.random() < 0.3:
            game.fold(seat)
        elif legal.can_check:
            game.check(seat)
        elif legal.can_call:
            game.call(seat)
        else:
            game.fold(seat)
    return game


@pytest.mark.parametrize("preset", ["halcyon", "cantina", "better", "casino"])
def test_export_replays_to_the_same_result(preset):
    for seed in range(5):
        game = play_random_game(preset, [60, 45, 30, 80][: 2 + seed % 3], seed)
        document = json.loads(json.dumps(export_replay(game)))
        result = play_replay(document)
        assert result["hands"] == game.results
        assert result["stacks"] == {name: game.stacks[s] for s, name in enumerate(game.names)}
        assert result["finished"] == game.is_over


def test_export_of_a_hand_in_progress_replays_part_way():
    game = play_random_game("cantina", [100, 100, 100], seed=3, hands=1)
    game.start_hand()
    game.select(game.waiting_for()[0], [])
    result = play_replay(export_replay(game))
    assert result["complete"] is False
    assert len(result["hands"]) == game.hands_played + 1


def test_export_of_a_game_with_rebuys_is_a_version_2_document_that_replays_it():
    game = Game.new(
        options=resolve_options("coruscant_shift", "casino"),
        players=[("A", 450), ("B", 10)],
        dealer=0,
        rng=random.Random(1),
    )
    play_hand(game, winner=0)
    game.rebuy(1, 100)
    document = json.loads(json.dumps(export_replay(game)))
    assert document["format"] == "sabacc-replay/2"
    assert document["after"] == [{"do": "rebuy", "player": "B", "amount": 100}]
    result = play_replay(document)
    assert result["format"] == "sabacc-replay-result/2"
    assert result["stacks"] == {"A": game.stacks[0], "B": 100} and result["hands"] == game.results


# ----- the management command -------------------------------------------------------------


def test_command_prints_the_result_and_exits_0(tmp_path):
    path = tmp_path / "bj.json"
    path.write_text(json.dumps(load("bob_and_jane")["replay"]))
    out, err = io.StringIO(), io.StringIO()
    call_command("replay", str(path), stdout=out, stderr=err)
    assert normal(json.loads(out.getvalue())) == normal(BOB_AND_JANE_RESULT)
    assert err.getvalue() == ""


def test_command_reports_one_line_on_stderr_and_exits_2(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(load("invalid_illegal_action")["replay"]))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(path), stdout=out, stderr=err)
    assert exited.value.code == 2
    assert out.getvalue() == ""
    assert err.getvalue().strip() == "replay: " + load("invalid_illegal_action")["error"]
    assert err.getvalue().strip().count("\n") == 0


def test_command_refuses_bad_json_and_missing_files(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    for target in (str(path), str(tmp_path / "missing.json")):
        out, err = io.StringIO(), io.StringIO()
        with pytest.raises(SystemExit) as exited:
            call_command("replay", target, stdout=out, stderr=err)
        assert exited.value.code == 2 and out.getvalue() == ""
        assert err.getvalue().startswith("replay: ") and err.getvalue().strip().count("\n") == 0


def test_command_as_a_process_reads_standard_input():
    root = Path(__file__).resolve().parents[2]
    ok = subprocess.run(
        [sys.executable, "manage.py", "replay", "-"],
        input=json.dumps(load("bob_and_jane")["replay"]),
        capture_output=True,
        text=True,
        cwd=root,
        timeout=60,
        check=False,
    )
    assert ok.returncode == 0 and ok.stderr == ""
    assert json.loads(ok.stdout)["stacks"] == {"Bob": 94, "Jane": 106}
    bad = subprocess.run(
        [sys.executable, "manage.py", "replay", "-"],
        input=json.dumps(load("invalid_duplicate_card")["replay"]),
        capture_output=True,
        text=True,
        cwd=root,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == "replay: " + load("invalid_duplicate_card")["error"]


def test_seat_problems_are_reported_as_they_are():
    document = load("bob_and_jane")["replay"]
    seats = [{"player": "Bob", "stack": 100}, {"player": "Bob", "stack": 100}]
    with pytest.raises(ReplayError, match=r"Player names must differ; 'Bob' appears twice\."):
        play_replay({**document, "seats": seats, "dealer": "Bob"})
    seats = [{"player": "Bob", "stack": 0}, {"player": "Jane", "stack": 100}, {"player": "Kim", "stack": 100}]
    with pytest.raises(ReplayError, match=r"Bob has no credits and cannot deal\."):
        play_replay({**document, "seats": seats})


def test_export_of_a_game_loaded_mid_hand_replays_to_the_same_state():
    game = play_random_game("better", [450, 450, 450], seed=11, hands=3)
    if not game.is_over:
        game.start_hand()
        game.select(game.waiting_for()[0], [])
    copy = Game.from_json(game.to_json(), history=game.history_json())
    assert export_replay(copy) == export_replay(game)
    result = play_replay(export_replay(copy))
    assert result["stacks"] == {name: copy.stacks[s] for s, name in enumerate(copy.names)}


def test_dice_of_the_wrong_type_are_refused_with_one_line():
    # REPLAY.md: an invalid document gives one clear line (a ReplayError), never a crash.
    document = load("bob_and_jane")["replay"]
    hand = document["hands"][0]
    cases = [
        ({"number": [5], "suit": "circle"}, "Hand 1 dice: Dice number [5] is not a face of the gold die"),
        ({"number": 5.0, "suit": "circle"}, "Hand 1 dice: Dice number 5.0 is not a face of the gold die"),
        ({"number": 5, "suit": ["circle"]}, "Hand 1 dice: Dice suit ['circle'] is not a face of the silver die"),
        ({"number": 5, "suit": {}}, "Hand 1 dice: Dice suit {} is not a face of the silver die"),
    ]
    for dice, message in cases:
        with pytest.raises(ReplayError) as caught:
            play_replay({**document, "hands": [{**hand, "dice": dice}]})
        assert str(caught.value).startswith(message), str(caught.value)


def test_command_refuses_text_that_is_not_utf8_or_json_it_cannot_read(tmp_path):
    # REPLAY.md: any unreadable or invalid document is one line on standard error and exit status 2.
    not_utf8 = tmp_path / "latin1.json"
    not_utf8.write_bytes(b'\xff\xfe{"format": "sabacc-replay/1"}')
    too_deep = tmp_path / "deep.json"
    too_deep.write_text("[" * 100_000 + "]" * 100_000)
    too_long = tmp_path / "long.json"  # Python refuses to read an integer of more than 4300 digits
    too_long.write_text('{"format": "sabacc-replay/1", "seed": ' + "1" * 5000 + "}")
    for target in (not_utf8, too_deep, too_long):
        out, err = io.StringIO(), io.StringIO()
        with pytest.raises(SystemExit) as exited:
            call_command("replay", str(target), stdout=out, stderr=err)
        assert exited.value.code == 2 and out.getvalue() == ""
        assert err.getvalue().startswith("replay: ") and err.getvalue().strip().count("\n") == 0
