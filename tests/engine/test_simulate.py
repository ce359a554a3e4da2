"""`manage.py simulate`: the summary of bot games and the refusal of bad arguments."""

import io
import re

import pytest
from django.core.management import CommandError, call_command

from games.engine.bots.simulate import seat_kinds, simulate


def run(*args: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    call_command("simulate", *args, stdout=out, stderr=err)
    return out.getvalue()


def line(output: str, start: str) -> str:
    matches = [row for row in output.splitlines() if row.startswith(start)]
    assert len(matches) == 1, output
    return matches[0]


@pytest.mark.parametrize("preset", ["halcyon", "cantina", "better", "casino"])
def test_simulate_prints_a_summary_with_the_invariants(preset):
    output = run("--preset", preset, "--players", "3", "--games", "4", "--seed", "2", "--max-hands", "30")
    assert line(output, "games:") == "games: 4"
    assert line(output, "credits conserved:") == "credits conserved: yes"
    assert line(output, "all 62 cards accounted for:") == "all 62 cards accounted for: yes"
    mean, low, high = re.fullmatch(
        r"hands per game: mean ([\d.]+), min (\d+), max (\d+)", line(output, "hands per game:")
    ).groups()
    assert 1 <= int(low) <= float(mean) <= int(high) <= 30
    assert float(line(output, "average pot:").split(": ")[1]) > 0
    wins = line(output, "wins per bot kind:")
    counts = [float(n) for n in re.findall(r"(?:random|sensible) ([\d.]+) of 4", wins)]
    assert len(counts) == 2 and sum(counts) == pytest.approx(4)


def test_casino_games_stop_at_the_hand_cap():
    output = run(
        "--preset", "casino", "--players", "2", "--games", "2", "--seed", "3", "--bots", "sensible", "--max-hands", "5"
    )
    assert line(output, "hands per game:") == "hands per game: mean 5.0, min 5, max 5"
    assert line(output, "games stopped at the 5-hand cap:") == "games stopped at the 5-hand cap: 2"


def test_a_run_is_repeatable_from_its_seed():
    args = ("--preset", "better", "--players", "4", "--games", "3", "--seed", "9")
    assert run(*args) == run(*args)
    assert run(*args) != run("--preset", "better", "--players", "4", "--games", "3", "--seed", "10")


def test_bots_are_assigned_round_robin():
    assert seat_kinds(5, ("random", "sensible")) == ["random", "sensible", "random", "sensible", "random"]
    summary = simulate(preset="cantina", players=3, games=2, seed=1, bots=("sensible", "random", "random"))
    assert summary.seats == {"sensible": 2, "random": 4}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--preset", "sabacc"), "Unknown preset 'sabacc'"),
        (("--players", "1"), "--players must be from 2 to 8; got 1"),
        (("--players", "9"), "--players must be from 2 to 8; got 9"),
        (("--games", "0"), "--games must be at least 1; got 0"),
        (("--max-hands", "0"), "--max-hands must be at least 1; got 0"),
        (("--bots", "random,wizard"), "Unknown bot 'wizard'"),
    ],
)
def test_bad_arguments_are_refused(args, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        run(*args)
