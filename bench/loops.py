"""The benchmarks' game loops, one for each way of deciding: bots from views, or the engine's legal actions.

Each plays `hands` hands of 6-seat games made by `new_game(rng)` and returns the number played;
`bench.engine_bench.rates` times them beside pokerkit, whose hands are all 6-handed. With `six_handed` (the
headline) a new game starts as soon as a seat is out of credits, so every hand is dealt to six players, as
pokerkit's are; without it (the figure shown before) a game plays on until one player is left, and its hands are
dealt to about half the table on average (`DEALT` counts them).
"""

import random
from collections.abc import Callable

from games.engine.bots import play_turn
from games.engine.state import Game

SEATS = 6
# {"hands": n, "seats": players dealt in, summed}: how many players the loops' hands were dealt to.
DEALT: dict[str, int] = {"hands": 0, "seats": 0}


def _next_game(game: Game | None, new_game: Callable[[random.Random], Game], rng: random.Random, six: bool) -> Game:
    if game is None or not game.can_start_hand() or (six and sum(1 for s in game.stacks if s > 0) < SEATS):
        return new_game(rng)
    return game


def _deal(game: Game) -> None:
    DEALT["hands"] += 1
    DEALT["seats"] += sum(1 for s in game.stacks if s > 0)
    game.start_hand()


def with_bots(
    new_game: Callable[[random.Random], Game],
    bot: Callable,
    rng: random.Random,
    hands: int,
    *,
    six_handed: bool = False,
) -> int:
    """Bots of kind `bot` (one per seat, each with its own generator) decide from their seat's `view_for()`."""
    played = 0
    bots = [bot(random.Random(rng.random())) for _ in range(SEATS)]
    game = None
    while played < hands:
        game = _next_game(game, new_game, rng, six_handed)
        _deal(game)
        while game.in_hand:
            seat = game.waiting_for()[0]
            play_turn(game, seat, bots[seat])
        played += 1
    return played


def engine_only(
    new_game: Callable[[random.Random], Game],
    decide: Callable,
    rng: random.Random,
    hands: int,
    *,
    six_handed: bool = False,
) -> int:
    """`decide(game, seat, rng)` applies a random legal decision read from `legal_actions()`: no view is built."""
    played = 0
    game = None
    while played < hands:
        game = _next_game(game, new_game, rng, six_handed)
        _deal(game)
        while game.in_hand:
            decide(game, game.waiting_for()[0], rng)
        played += 1
    return played


def dealt_average(play: Callable[[random.Random, int], int], hands: int = 300) -> float:
    """How many players a contestant's hands are dealt to, on average, over `hands` hands."""
    DEALT.update(hands=0, seats=0)
    play(random.Random(11), hands)
    return DEALT["seats"] / max(1, DEALT["hands"])


def variant_report(
    title: str,
    new_game: Callable[[random.Random], Game],
    bot: Callable,
    decide: Callable,
    budget: float,
) -> list[str]:
    """One variant's lines beside pokerkit: `bot` deciding from views, then the engine alone (`decide`), each hand
    6-handed on both sides, and the old mixed figure (games played on to one player) for comparison."""
    import games.native
    from bench.engine_bench import SPEED_AIM, aim_text, mixed, pokerkit_hands, rates

    def bots(rng: random.Random, hands: int, *, six_handed: bool = True) -> int:
        return with_bots(new_game, bot, rng, hands, six_handed=six_handed)

    def engine(rng: random.Random, hands: int, *, six_handed: bool = True) -> int:
        return engine_only(new_game, decide, rng, hands, six_handed=six_handed)

    measured = rates({"bots": bots, "engine": engine, "mixed": mixed(bots), "pokerkit": pokerkit_hands}, budget)
    (via_bots, bots_count), (alone, alone_count) = measured["bots"], measured["engine"]
    peer, peer_count = measured["pokerkit"]
    ratio = via_bots / peer
    return [
        f"{title} against pokerkit, {games.native.describe()}, every hand 6-handed on both sides:",
        f"ours, random-legal bots ({bot.__name__} from view_for): {via_bots:8.0f} hands/s ({bots_count} hands)",
        f"pokerkit 0.7 (6-seat NLHE, random legal), same run:   {peer:8.0f} hands/s ({peer_count} hands)",
        f"ratio bots/pokerkit: {ratio:.1f}x (aim >= {SPEED_AIM:.0f}x: {'met' if ratio >= SPEED_AIM else 'NOT met'})",
        f"ours, engine only (random legal_actions, no views):   {alone:8.0f} hands/s ({alone_count} hands)",
        f"ratio engine only/pokerkit: {alone / peer:.1f}x ({aim_text(alone / peer, ratio)})",
        f"as measured before (games played on to one player, {dealt_average(mixed(engine)):.1f} players dealt in on "
        f"average): bots {measured['mixed'][0] / peer:.1f}x",
    ]
