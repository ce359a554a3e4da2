"""The benchmarks' game loops, one for each way of deciding: bots from views, or the engine's legal actions.

Each plays `hands` 6-seat hands of games made by `new_game(rng)`, a new game whenever one ends, and returns the
number played; `bench.engine_bench.rates` times them beside pokerkit.
"""

import random
from collections.abc import Callable

from games.engine.bots import play_turn
from games.engine.state import Game

SEATS = 6


def with_bots(new_game: Callable[[random.Random], Game], bot: Callable, rng: random.Random, hands: int) -> int:
    """Bots of kind `bot` (one per seat, each with its own generator) decide from their seat's `view_for()`."""
    played = 0
    bots = [bot(random.Random(rng.random())) for _ in range(SEATS)]
    while played < hands:
        game = new_game(rng)
        while played < hands and game.can_start_hand():
            game.start_hand()
            while game.in_hand:
                seat = game.waiting_for()[0]
                play_turn(game, seat, bots[seat])
            played += 1
    return played


def engine_only(new_game: Callable[[random.Random], Game], decide: Callable, rng: random.Random, hands: int) -> int:
    """`decide(game, seat, rng)` applies a random legal decision read from `legal_actions()`: no view is built."""
    played = 0
    while played < hands:
        game = new_game(rng)
        while played < hands and game.can_start_hand():
            game.start_hand()
            while game.in_hand:
                decide(game, game.waiting_for()[0], rng)
            played += 1
    return played
