"""Corellian Spike speed against pokerkit: 6-seat Galaxy Series games between random-legal bots, side by side.

Our contestant: 6-seat `galaxy_series` games between `RandomBot`s (each deciding from its seat's
`view_for()`, applied through `Game.act`), every hand dealt to six (a new game once a seat is out). The peer:
pokerkit's 6-seat no-limit Texas hold'em with random legal decisions, exactly as in `bench.engine_bench`. Also
shown: our engine alone (random decisions drawn from `legal_actions()`, no views). Run with
`python -m bench.spike_bench [seconds per contestant]`.
"""

import random
import sys
import warnings

from bench.engine_bench import SEATS, SPEED_AIM, budget_from, mixed, pokerkit_hands, rates
from bench.loops import dealt_average, engine_only, with_bots
from games.engine.bots import RandomBot
from games.engine.bots.base import apply_decision
from games.engine.bots.random_legal import random_decision
from games.engine.options import build_options
from games.engine.state import Game


def new_galaxy(rng: random.Random) -> Game:
    options = build_options("corellian_spike", "galaxy_series")
    players = [(f"P{seat + 1}", options.starting_stack) for seat in range(SEATS)]
    return Game.new(options=options, players=players, rng=rng, variant="corellian_spike", preset="galaxy_series")


def spike_bots(rng: random.Random, hands: int, *, six_handed: bool = True) -> int:
    """Play `hands` 6-handed hands of Galaxy Series through the random bot, which decides from the seat's view."""
    return with_bots(new_galaxy, RandomBot, rng, hands, six_handed=six_handed)


def _random(game: Game, seat: int, rng: random.Random) -> None:
    apply_decision(game, seat, random_decision(game.legal_actions(seat).to_dict(), rng))


def spike_engine(rng: random.Random, hands: int, *, six_handed: bool = True) -> int:
    """The same games with random decisions drawn from `legal_actions()` (no view is built)."""
    return engine_only(new_galaxy, _random, rng, hands, six_handed=six_handed)


def main() -> None:
    warnings.simplefilter("ignore")  # pokerkit warns on every fold when a check was free
    budget = budget_from(sys.argv)
    contestants = {
        "bots": spike_bots,
        "engine": spike_engine,
        "bots mixed": mixed(spike_bots),
        "pokerkit": pokerkit_hands,
    }
    measured = rates(contestants, budget)
    (via_bots, bots_count), (engine, engine_count) = measured["bots"], measured["engine"]
    peer, peer_count = measured["pokerkit"]
    print("Corellian Spike (Galaxy Series) against pokerkit, every hand 6-handed on both sides:")
    ratio = via_bots / peer
    print(f"ours, Galaxy Series, random-legal bots (view_for):  {via_bots:8.0f} hands/s ({bots_count} hands)")
    print(f"pokerkit 0.7 (6-seat NLHE, random legal):           {peer:8.0f} hands/s ({peer_count} hands)")
    print(f"ratio bots/pokerkit: {ratio:.1f}x (aim >= {SPEED_AIM:.0f}x: {'met' if ratio >= SPEED_AIM else 'NOT met'})")
    print(f"ours, Galaxy Series, engine only (no views):        {engine:8.0f} hands/s ({engine_count} hands)")
    print(f"ratio engine only/pokerkit: {engine / peer:.1f}x")
    print(
        f"as measured before (games played on to one player, {dealt_average(mixed(spike_engine)):.1f} players dealt "
        f"in on average): bots {measured['bots mixed'][0] / peer:.1f}x"
    )


if __name__ == "__main__":
    main()
