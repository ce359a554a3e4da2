"""Replay speed: the engine's replay of documents against a plain reading of the same games.

Random-legal 6-seat Cantina games are played and exported as `sabacc-replay/2` documents (every hand's whole deck
and every decision). `play_replay(document)` reads each document, checks it and plays it through the engine; the
peer, a plain reading, plays the same games again from their seeds with the same decisions straight through
`Game.act`, with no document to read or check. Both must end with the same stacks. The ratio is the price of
reading and checking a document. Run with `python -m bench.replay_bench [games] [hands per game]`.
"""

import random
import sys
import time

from bench.engine_bench import random_legal
from bench.loops import SEATS
from games.engine.options import build_options
from games.engine.replay import export_replay, play_replay
from games.engine.state import Game

GAMES = 40
HANDS = 25
ROUNDS = 5


def _new_game(seed: int) -> Game:
    options = build_options("coruscant_shift", "cantina")
    players = [(f"P{seat + 1}", options.starting_stack) for seat in range(SEATS)]
    return Game.new(options=options, players=players, rng=random.Random(seed), preset="cantina")


def documents(games: int, hands: int) -> list[tuple[int, dict]]:
    """(seed, document) of `games` games of up to `hands` random-legal hands each."""
    made = []
    for seed in range(games):
        game, decide = _new_game(seed), random.Random(10_000 + seed)
        while game.hands_played < hands and game.can_start_hand():
            game.start_hand()
            while game.in_hand:
                seat = game.waiting_for()[0]
                random_legal(game, seat, game.legal_actions(seat), decide)
        made.append((seed, export_replay(game, version=2)))
    return made


def plain(seed: int, document: dict) -> Game:
    """The same game again from its seed, its decisions applied straight through `Game.act`."""
    game = _new_game(seed)
    variant = game.variant
    for hand in document["hands"]:
        game.start_hand()
        for action in hand["actions"]:
            verb = action["do"]
            game.act(game.names.index(action["player"]), verb, **variant.replay_args(verb, action))
    return game


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES
    hands = int(sys.argv[2]) if len(sys.argv) > 2 else HANDS
    docs = documents(games, hands)
    for seed, document in docs:  # the two readings agree before anything is timed
        stacks = {row["player"]: row["stack"] for row in play_replay(document)["standings"]}
        again = plain(seed, document)
        assert stacks == dict(zip(again.names, again.stacks, strict=True)), f"game {seed} differs"
    spent = {"replay": 0.0, "plain": 0.0}
    for _ in range(ROUNDS):  # in turns, so a busier moment falls on both
        begin = time.perf_counter()
        for _, document in docs:
            play_replay(document)
        spent["replay"] += time.perf_counter() - begin
        begin = time.perf_counter()
        for seed, document in docs:
            plain(seed, document)
        spent["plain"] += time.perf_counter() - begin
    played = ROUNDS * sum(len(document["hands"]) for _, document in docs)
    print(f"Replay bench: {games} Cantina games, {played // ROUNDS} hands, {ROUNDS} rounds")
    print(f"engine replay (play_replay, document read and checked): {played / spent['replay']:8.0f} hands/s")
    print(f"plain reading (same seeds and decisions, Game.act):     {played / spent['plain']:8.0f} hands/s")
    print(f"ratio replay/plain time: {spent['replay'] / spent['plain']:.2f}x")


if __name__ == "__main__":
    main()
