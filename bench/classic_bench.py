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
from games.engine.bots.classic import PLAY, ClassicRandomBot
from games.engine.draws import choice, randint
from games.engine.options import build_options
from games.engine.state import Game


def new_classic(rng: random.Random, preset: str = "classic") -> Game:
    options = build_options("classic", preset)
    players = [(f"P{seat + 1}", options.starting_stack) for seat in range(SEATS)]
    return Game.new(options=options, players=players, rng=rng, variant="classic", preset=preset)


def _random(game: Game, seat: int, rng: random.Random) -> None:
    """The engine-only path: a random legal decision read from the seat's `ClassicLegal` itself and applied with
    `Game.act`, as Cantina's `engine_bench.random_legal` reads its `LegalActions` (no dict, no `Decision`). It makes
    the draws `ClassicRandomBot`'s `random_decision` makes from the same legal actions, in the same order, so both
    paths play the same games (tests/bench/test_benches.py holds them together)."""
    legal = game.legal_actions(seat)
    verb = choice(rng, legal._verb_list())
    if verb in PLAY:
        unlockable, lockable = legal.unlockable, legal.lockable
        unlock = choice(rng, unlockable) if unlockable and rng.random() < 0.2 else None
        card = None
        if verb == "trade":
            if not legal.tradeable and unlock is None:
                unlock = choice(rng, unlockable)  # every card is in the field: free one to trade it
            card = choice(rng, [*legal.tradeable, *([unlock] if unlock else [])])
        lock = choice(rng, lockable) if lockable and rng.random() < 0.3 else None
        if lock is not None and lock == card and lockable.count(lock) < 2:
            lock = None
        if verb == "trade":
            game.act(seat, verb, card=card, unlock=unlock, lock=lock)
        else:
            game.act(seat, verb, unlock=unlock, lock=lock)
        return
    call_hand = legal.can_call_hand and verb != "fold" and rng.random() < 0.5
    if verb == "bet":
        game.act(seat, verb, amount=randint(rng, legal.min_bet, legal.max_bet), call_hand=call_hand)
    elif verb == "raise":
        game.act(seat, verb, amount=randint(rng, legal.min_raise_to, legal.max_raise_to), call_hand=call_hand)
    elif verb == "fold":
        game.act(seat, verb)
    else:
        game.act(seat, verb, call_hand=call_hand)


def report(budget: float) -> list[str]:
    """The Classic lines of `make bench`: hands per second beside pokerkit, and the ratio."""
    return variant_report("Classic Sabacc", new_classic, ClassicRandomBot, _random, budget)


if __name__ == "__main__":
    warnings.simplefilter("ignore")  # pokerkit warns on every fold when a check was free
    print("\n".join(report(float(sys.argv[1]) if len(sys.argv) > 1 else 8.0)))
