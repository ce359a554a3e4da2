"""Corellian Spike speed against pokerkit: 6-seat Galaxy Series games between random-legal bots, side by side.

Our contestant: 6-seat `galaxy_series` games between `RandomBot`s (each deciding from its seat's
`view_for()`, applied through `Game.act`), new games as games end. The peer: pokerkit's 6-seat no-limit
Texas hold'em with random legal decisions, exactly as in `bench.engine_bench`. Also shown: our engine
alone (random decisions drawn from `legal_actions()`, no views). Run with
`python -m bench.spike_bench [seconds per contestant]`.
"""

import random
import sys
import warnings

from bench.engine_bench import BUDGET_SECONDS, SEATS, SPEED_AIM, pokerkit_hands, rates
from bench.loops import engine_only, with_bots
from games.engine.bots import RandomBot
from games.engine.bots.base import apply_decision
from games.engine.bots.random_legal import random_decision
from games.engine.options import build_options
from games.engine.state import Game


def new_galaxy(rng: random.Random) -> Game:
    options = build_options("corellian_spike", "galaxy_series")
    players = [(f"P{seat + 1}", options.starting_stack) for seat in range(SEATS)]
    return Game.new(options=options, players=players, rng=rng, variant="corellian_spike", preset="galaxy_series")


def spike_bots(rng: random.Random, hands: int) -> int:
    """Play `hands` hands of 6-seat Galaxy Series through the random bot, which decides from the seat's view."""
    return with_bots(new_galaxy, RandomBot, rng, hands)


def _random(game: Game, seat: int, rng: random.Random) -> None:
    apply_decision(game, seat, random_decision(game.legal_actions(seat).to_dict(), rng))


def spike_engine(rng: random.Random, hands: int) -> int:
    """The same games with random decisions drawn from `legal_actions()` (no view is built)."""
    return engine_only(new_galaxy, _random, rng, hands)


def main() -> None:
    warnings.simplefilter("ignore")  # pokerkit warns on every fold when a check was free
    budget = float(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].replace(".", "").isdigit() else BUDGET_SECONDS
    measured = rates({"bots": spike_bots, "engine": spike_engine, "pokerkit": pokerkit_hands}, budget)
    (via_bots, bots_count), (engine, engine_count), (peer, peer_count) = measured.values()
    ratio = via_bots / peer
    print(f"ours, Galaxy Series, random-legal bots (view_for):  {via_bots:8.0f} hands/s ({bots_count} hands)")
    print(f"pokerkit 0.7 (6-seat NLHE, random legal):           {peer:8.0f} hands/s ({peer_count} hands)")
    print(f"ratio bots/pokerkit: {ratio:.1f}x (aim >= {SPEED_AIM:.0f}x: {'met' if ratio >= SPEED_AIM else 'NOT met'})")
    print(f"ours, Galaxy Series, engine only (no views):        {engine:8.0f} hands/s ({engine_count} hands)")
    print(f"ratio engine only/pokerkit: {engine / peer:.1f}x")


if __name__ == "__main__":
    main()
