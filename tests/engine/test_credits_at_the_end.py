"""RULES 1.5 "Credits left at the end" (Spike Ruling 2.6.1, Classic 3.7.2, as amended): seeded random bot games of
every preset of every variant, ended every way a game ends (one player left, a `hands` limit, Halcyon's last
dealer, a table closed), finish with stacks that add up to the credits brought in; nothing stays on the table,
and save/load and export/replay give the same final stacks (issue 21, finding 1)."""

import json
import random

import pytest

from games.engine.bots import RandomBot, SensibleBot, play_turn
from games.engine.replay import export_replay, play_replay
from games.engine.state import Game
from games.engine.variant import get_variant, variant_names

GAMES_PER_PRESET = 10
MAX_HANDS = 60

PRESETS = [(variant, preset) for variant in variant_names() for preset in get_variant(variant).presets]


def play_to_the_end(variant: str, preset: str, seed: int) -> Game:
    rng = random.Random(f"credits/{variant}/{preset}/{seed}")
    plugin = get_variant(variant)
    # Half the games stop at a `hands` limit; some are a tournament's table (end rule 'never'), closed.
    overrides: dict = {"hands": rng.randint(1, 8)} if rng.random() < 0.5 else {}
    if rng.random() < 0.3:
        overrides = {"end_rule": "never"}
    if "odd_credits" in plugin.build_options(preset).to_dict() and rng.random() < 0.5:
        overrides["odd_credits"] = "carry"  # a carry-over may then be left on the table
    options = plugin.build_options(preset, overrides)
    players = rng.randint(2, 5)
    stacks = [rng.choice([options.starting_stack, rng.randint(3, 40)]) for _ in range(players)]
    game = Game.new(
        options=options,
        players=[(f"P{seat}", stack) for seat, stack in enumerate(stacks)],
        rng=random.Random(seed),
        variant=variant,
        preset=preset,
    )
    bots = [(SensibleBot if rng.random() < 0.5 else RandomBot)(random.Random(f"{seed}/{s}")) for s in range(players)]
    close_after = rng.randint(1, 10)
    while not game.is_over and game.hands_played < MAX_HANDS:
        if game.can_close_table() and game.hands_played >= close_after:
            game.close_table()  # a cash table or a tournament's table ends when it is closed
            break
        if not game.can_start_hand():
            break
        game.start_hand()
        while game.in_hand:
            seat = game.waiting_for()[0]
            play_turn(game, seat, bots[seat])
    return game


@pytest.mark.parametrize(("variant", "preset"), PRESETS)
def test_1_5_a_finished_games_stacks_add_up_to_the_credits_brought_in(variant, preset):
    ended = 0
    for seed in range(GAMES_PER_PRESET):
        game = play_to_the_end(variant, preset, seed)
        if not game.is_over:
            continue  # capped at MAX_HANDS: nothing ended, nothing to pay
        ended += 1
        where = f"{variant}/{preset} game {seed}"
        assert sum(game.stacks) == sum(game.starting_stacks), where
        assert game.carry == 0 and not any(game.pools.values()), where
        assert sum(game.leftovers_paid.values()) <= sum(game.starting_stacks), where
        loaded = Game.from_json(game.to_json(), history=game.history_json())
        assert loaded.stacks == game.stacks and loaded.leftovers_paid == game.leftovers_paid, where
        assert loaded.carry == 0 and not any(loaded.pools.values()), where
        result = play_replay(json.loads(json.dumps(export_replay(game))))
        assert result["finished"] and result["stacks"] == dict(zip(game.names, game.stacks, strict=True)), where
        assert result.get("leftovers", {}) == {game.names[s]: v for s, v in game.leftovers_paid.items()}, where
    assert ended, f"no {variant}/{preset} game ended"
