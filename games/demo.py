"""Demo games: whole games between bots, for the demo data and the tests (the league demo asks through hooks)."""

import random


def bot_replay(names: list[str], *, seed: str, preset: str = "better", stack: int = 450, max_hands: int = 60) -> dict:
    """A whole game between sensible bots, seated under the given names, as a `sabacc-replay/1` document:
    the demo's (and tests') game with a hand history to step through."""
    from games.engine import Game, build_options
    from games.engine.bots import SensibleBot, play_turn
    from games.engine.replay import export_replay

    game = Game.new(
        options=build_options("coruscant_shift", preset),
        players=[(name, stack) for name in names],
        rng=random.Random(f"{seed}/table"),
        preset=preset,
    )
    bots = [SensibleBot(random.Random(f"{seed}/seat/{seat}")) for seat in range(len(names))]
    while not game.is_over and game.hands_played < max_hands and game.can_start_hand():
        game.start_hand()
        while game.in_hand:
            seat = game.waiting_for()[0]
            play_turn(game, seat, bots[seat])
    return export_replay(game, version=1)
