"""A fingerprint of what the engine does in seeded games: `python -m tests.engine.native_digest` prints it.

Every variant and preset, sensible and random bots: the seat's view and the spectator's view after every
decision, the legal actions, the saved state and the replay export at the end. `test_native.py` compares the
fingerprint of the compiled engine with that of the plain-Python engine (`SABACC_ENGINE=python`).
"""

import hashlib
import json
import random

from games.engine.bots import BOTS, apply_decision
from games.engine.options import build_options, variant_presets
from games.engine.replay import export_replay
from games.engine.state import Game

GAMES_PER_PRESET = 4
MAX_HANDS = 10


def fingerprint() -> tuple[str, int]:
    """(the SHA-256 of everything fed, the number of decisions played)."""
    digest = hashlib.sha256()
    decisions = 0

    def feed(value: object) -> None:
        digest.update(json.dumps(value, sort_keys=True, default=str).encode())

    for variant, presets in variant_presets().items():
        for preset in presets:
            for number in range(GAMES_PER_PRESET):
                rng = random.Random(f"{variant}/{preset}/{number}")
                options = build_options(variant, preset)
                players = [(f"P{seat + 1}", options.starting_stack) for seat in range(3 + number)]
                game = Game.new(options=options, players=players, rng=rng, variant=variant, preset=preset)
                kinds = sorted(BOTS)
                bots = [BOTS[kinds[seat % len(kinds)]](random.Random(f"{number}/{seat}")) for seat in range(3 + number)]
                hands = 0
                while hands < MAX_HANDS and game.can_start_hand():
                    game.start_hand()
                    while game.in_hand:
                        seat = game.waiting_for()[0]
                        view = game.view_for(seat)
                        feed(view)
                        feed(game.spectator_view())
                        apply_decision(game, seat, bots[seat].decide(view))
                        decisions += 1
                    hands += 1
                feed(game.to_json())
                feed(export_replay(game))
    return digest.hexdigest(), decisions


if __name__ == "__main__":
    import games.native

    print(*fingerprint())
    print(games.native.describe())
