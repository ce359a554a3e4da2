"""Classic Sabacc engine speed against pokerkit: 6-seat Classic games between random-legal bots.

`ClassicRandomBot` decides from the seat's `view_for()` and the decision goes through `Game.act`, as in
the Coruscant Shift benchmark; pokerkit plays 6-seat no-limit hold'em, random legal (`engine_bench`).
The two take turns in short slices in one process (`engine_bench.rates`), so the ratio is fair.
"""

import random

from bench.loops import SEATS, dealt_average, engine_only, with_bots
from games.engine.bots import apply_decision
from games.engine.bots.classic import ClassicRandomBot, random_decision
from games.engine.options import build_options
from games.engine.state import Game

SPEED_AIM = 5.0


def new_classic(rng: random.Random, preset: str = "classic") -> Game:
    options = build_options("classic", preset)
    players = [(f"P{seat + 1}", options.starting_stack) for seat in range(SEATS)]
    return Game.new(options=options, players=players, rng=rng, variant="classic", preset=preset)


def classic_bots(rng: random.Random, hands: int, *, six_handed: bool = True) -> int:
    """Play `hands` 6-handed hands of Classic (a new game once a seat is out), random-legal bots deciding from views."""
    return with_bots(new_classic, ClassicRandomBot, rng, hands, six_handed=six_handed)


def _random(game: Game, seat: int, rng: random.Random) -> None:
    apply_decision(game, seat, random_decision(game.legal_actions(seat).to_dict(), rng))


def classic_engine(rng: random.Random, hands: int, *, six_handed: bool = True) -> int:
    """The same games with decisions drawn straight from `legal_actions()` (no view built)."""
    return engine_only(new_classic, _random, rng, hands, six_handed=six_handed)


def report(budget: float) -> list[str]:
    """The Classic lines of `make bench`: hands per second beside pokerkit, and the ratio."""
    from bench.engine_bench import mixed, pokerkit_hands, rates

    contestants = {
        "classic": classic_bots,
        "classic engine": classic_engine,
        "classic mixed": mixed(classic_bots),
        "pokerkit": pokerkit_hands,
    }
    measured = rates(contestants, budget)
    (bots, bots_count), (engine, engine_count) = measured["classic"], measured["classic engine"]
    peer, peer_count = measured["pokerkit"]
    ratio = bots / peer
    verdict = "met" if ratio >= SPEED_AIM else "NOT met"
    import games.native

    return [
        f"classic Sabacc, {games.native.describe()}, every hand 6-handed on both sides:",
        f"classic, random-legal bots (ClassicRandomBot from view_for):  {bots:8.0f} hands/s ({bots_count} hands)",
        f"pokerkit 0.7 (6-seat NLHE, random legal), same run:           {peer:8.0f} hands/s ({peer_count} hands)",
        f"ratio classic bots/pokerkit: {ratio:.1f}x (aim >= {SPEED_AIM:.0f}x: {verdict})",
        f"classic, engine only (random legal_actions, no views):        {engine:8.0f} hands/s ({engine_count} hands)",
        f"ratio classic engine only/pokerkit: {engine / peer:.1f}x",
        f"as measured before (games played on to one player, {dealt_average(mixed(classic_engine)):.1f} players "
        f"dealt in on average): bots {measured['classic mixed'][0] / peer:.1f}x",
    ]


if __name__ == "__main__":
    import sys
    import warnings

    warnings.simplefilter("ignore")
    print("\n".join(report(float(sys.argv[1]) if len(sys.argv) > 1 else 8.0)))
