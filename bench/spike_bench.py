"""Corellian Spike speed against pokerkit: 6-seat Galaxy Series games between random-legal bots, side by side.

Our contestant: 6-seat `galaxy_series` games between `RandomBot`s (each deciding from its seat's
`view_for()`, applied through `Game.act`), every hand dealt to six (a new game once a seat is out). The peer:
pokerkit's 6-seat no-limit Texas hold'em with random legal decisions, exactly as in `bench.engine_bench`. Also
shown: our engine alone (random decisions drawn from `legal_actions()`, no views); `bench.loops.variant_report`
prints the lines. Run with `python -m bench.spike_bench [seconds per contestant]`.
"""

import random
import sys
import warnings

from bench.engine_bench import budget_from
from bench.loops import SEATS, variant_report
from games.engine.bots import RandomBot
from games.engine.bots.base import apply_decision
from games.engine.bots.random_legal import random_decision
from games.engine.options import build_options
from games.engine.state import Game


def new_galaxy(rng: random.Random) -> Game:
    options = build_options("corellian_spike", "galaxy_series")
    players = [(f"P{seat + 1}", options.starting_stack) for seat in range(SEATS)]
    return Game.new(options=options, players=players, rng=rng, variant="corellian_spike", preset="galaxy_series")


def _random(game: Game, seat: int, rng: random.Random) -> None:
    apply_decision(game, seat, random_decision(game.legal_actions(seat).to_dict(), rng))


def main() -> None:
    warnings.simplefilter("ignore")  # pokerkit warns on every fold when a check was free
    print(
        "\n".join(
            variant_report("Corellian Spike (Galaxy Series)", new_galaxy, RandomBot, _random, budget_from(sys.argv))
        )
    )


if __name__ == "__main__":
    main()
