"""Classic Sabacc engine speed against pokerkit: 6-seat Classic games between random-legal bots.

`ClassicRandomBot` decides from the seat's `view_for()` and the decision goes through `Game.act`, as in
the Coruscant Shift benchmark; pokerkit plays 6-seat no-limit hold'em, random legal (`engine_bench`).
The two take turns in short slices in one process (`engine_bench.rates`), so the ratio is fair
(`bench.loops.variant_report`). Run with `python -m bench.classic_bench [seconds per contestant]`.
"""

import random
import sys
import warnings

from bench.loops import SEATS, variant_report
from games.engine.bots import apply_decision
from games.engine.bots.classic import ClassicRandomBot, random_decision
from games.engine.options import build_options
from games.engine.state import Game


def new_classic(rng: random.Random, preset: str = "classic") -> Game:
    options = build_options("classic", preset)
    players = [(f"P{seat + 1}", options.starting_stack) for seat in range(SEATS)]
    return Game.new(options=options, players=players, rng=rng, variant="classic", preset=preset)


def _random(game: Game, seat: int, rng: random.Random) -> None:
    apply_decision(game, seat, random_decision(game.legal_actions(seat).to_dict(), rng))


def report(budget: float) -> list[str]:
    """The Classic lines of `make bench`: hands per second beside pokerkit, and the ratio."""
    return variant_report("Classic Sabacc", new_classic, ClassicRandomBot, _random, budget)


if __name__ == "__main__":
    warnings.simplefilter("ignore")  # pokerkit warns on every fold when a check was free
    print("\n".join(report(float(sys.argv[1]) if len(sys.argv) > 1 else 8.0)))
