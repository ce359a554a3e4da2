"""The replay form of real-cards games, `sabacc-realcards/1`, and `manage.py replay` re-running it."""

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from games.engine.errors import ReplayError
from games.engine.realcards.document import export_document, play_document, replay_result, steps_by_hand
from tests.engine.realcards.helpers import MASTER, coruscant_to_reveal, table
from tests.engine.realcards.twins import play_twins


def last_table(variant, preset, seed):
    """The real-cards game of a played pair, once its last hand is over."""
    *_, (_online, real) = play_twins(variant, preset, seed, players=3, max_hands=3)
    return real


def finished_spike_game():
    return last_table("corellian_spike", "galaxy_series", 7)


def site_rolled_game():
    """A finished Halcyon game of two, every roll the site's, every hand folded at the first turn."""
    game = table(preset="halcyon", players=2, stack=10)
    while not game.game.over:
        game.step({"step": "deal"})
        game.step({"step": "dice", "by": "site"})
        while game.game.waiting_for() and not game.game.hand.is_complete:
            seat = game.game.waiting_for()[0]
            if game.game.hand.phase in ("select", "improve"):
                game.step({"step": "act", "seat": seat, "verb": "select", "count": 0})
            else:
                game.step({"step": "act", "seat": seat, "verb": "fold"})
    return game


def test_a_document_round_trips_to_the_same_result():
    for variant, preset in (
        ("coruscant_shift", "better"),
        ("corellian_spike", "cantina_spike"),
        ("classic", "classic"),
    ):
        real = last_table(variant, preset, 3)
        document = export_document(real)
        assert document["format"] == "sabacc-realcards/1"
        assert "deck" not in document and not any("deck" in step or "seed" in step for step in document["steps"])
        again = play_document(json.loads(json.dumps(document)))
        assert again.stacks == real.stacks
        assert export_document(again) == document


def test_the_seed_is_in_the_document_only_once_the_game_is_over():
    game = table()
    coruscant_to_reveal(game, keep=1, fold=(1, 2))
    assert "seed" not in export_document(game)
    finished = finished_spike_game()
    assert finished.game.over
    assert export_document(finished)["seed"] == "0" * 32


def test_site_rolls_are_checked_against_a_revealed_seed():
    game = site_rolled_game()
    document = export_document(game)
    assert document["seed"] == MASTER
    play_document(document)  # every site roll matches the seed
    rolled = document["steps"][1]["dice"]
    document["steps"][1]["dice"] = {"number": 10 if rolled["number"] != 10 else -10, "suit": rolled["suit"]}
    del document["result"]
    with pytest.raises(ReplayError, match="step 2 \\(dice\\): the site's roll 1 of hand 1"):
        play_document(document)


def test_a_listed_result_that_the_steps_do_not_give_is_refused():
    document = export_document(finished_spike_game())
    name = next(iter(document["result"]["stacks"]))
    document["result"]["stacks"][name] += 1
    with pytest.raises(ReplayError, match="result: the steps give stacks"):
        play_document(document)


def test_a_bad_step_is_reported_with_its_number():
    document = export_document(finished_spike_game())
    document["steps"][2] = {"step": "act", "seat": 0, "verb": "juggle"}
    with pytest.raises(ReplayError, match=r"step 3 \(act\): Unknown action 'juggle'"):
        play_document(document)
    with pytest.raises(ReplayError, match="Unknown format"):
        play_document({"format": "sabacc-replay/2"})


def test_manage_py_replay_re_runs_a_real_cards_document(tmp_path):
    document = export_document(finished_spike_game())
    path = tmp_path / "table.json"
    path.write_text(json.dumps(document))
    out, err = io.StringIO(), io.StringIO()
    call_command("replay", str(path), stdout=out, stderr=err)
    printed = json.loads(out.getvalue())
    assert printed == replay_result(document)
    assert printed["format"] == "sabacc-realcards-result/1"
    assert printed["stacks"] == document["result"]["stacks"]
    document["result"]["over"] = not document["result"]["over"]
    path.write_text(json.dumps(document))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(path), stdout=out, stderr=err)
    assert exited.value.code == 2 and out.getvalue() == ""
    assert err.getvalue().startswith("replay: result: the steps give over")


def test_the_example_in_docs_replay_md_plays_to_its_result():
    text = (Path(__file__).resolve().parents[3] / "docs" / "replay.md").read_text()
    section = text.split("## Real-cards documents")[1]
    block = section.split("```json")[1].split("```")[0]
    document = json.loads(block)
    game = play_document(document)  # refused if the listed result differed
    assert game.stacks == [94, 106]


def test_steps_are_grouped_by_hand_for_a_history():
    game = table()
    game.step({"step": "levels", "ante": 3, "small_blind": 0, "big_blind": 0})
    coruscant_to_reveal(game, keep=1, fold=(1, 2))
    coruscant_to_reveal(game, keep=1, fold=(2, 0))
    hands = steps_by_hand(game.steps)
    assert sorted(hands) == [0, 1, 2]
    assert hands[0] == [{"step": "levels", "ante": 3, "small_blind": 0, "big_blind": 0}]
    assert hands[1][0] == {"step": "deal"} and hands[2][0] == {"step": "deal"}
    assert sum(len(v) for v in hands.values()) == len(game.steps)


def test_manage_py_replay_verify_checks_a_finished_games_site_rolls(tmp_path):
    game = site_rolled_game()
    document = export_document(game)
    path = tmp_path / "table.json"
    path.write_text(json.dumps(document))
    out, err = io.StringIO(), io.StringIO()
    call_command("replay", str(path), "--verify", stdout=out, stderr=err)
    assert out.getvalue().strip() == f"verified: {game.game.hands_played} site rolls"
    del document["seed"]
    path.write_text(json.dumps(document))
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(path), "--verify", stdout=io.StringIO(), stderr=(err := io.StringIO()))
    assert exited.value.code == 2 and "has no seed" in err.getvalue()
