"""Shared checks for a variant whose table is run by someone else (end rule `never`, a tournament's table):
players join and leave between hands, credits are conserved, saves and replays keep it, and it ends only when
it is closed. Used by tests/engine/spike and tests/engine/classic."""

import json
import random

import pytest

from games.engine import Game
from games.engine.bots import SensibleBot, apply_decision
from games.engine.errors import WrongPhase
from games.engine.options import build_options
from games.engine.replay import export_replay, play_replay


def new_table(variant: str, preset: str, *, end_rule: str = "never", seed: int = 7, stacks=(60, 60, 60)) -> Game:
    options = build_options(variant, preset, {"end_rule": end_rule})
    return Game.new(
        options=options,
        players=[(f"P{seat}", stack) for seat, stack in enumerate(stacks)],
        dealer=0,
        rng=random.Random(seed),
        variant=variant,
        preset=preset,
    )


def unpaid(game: Game) -> int:
    """Credits the game keeps between hands outside the stacks (the carry-over and pots such as a Sabacc pot)."""
    return game.carry + sum(game.pools.values())


def play_hand(game: Game, seed: int) -> None:
    game.start_hand()
    bots = random.Random(seed)
    for _ in range(2000):
        if not game.in_hand:
            return
        seat = game.waiting_for()[0]
        apply_decision(game, seat, SensibleBot(random.Random(bots.random())).decide(game.view_for(seat)))
    raise AssertionError("the hand did not end")


def check_join_and_leave_between_hands(variant: str, preset: str) -> None:
    game = new_table(variant, preset)
    total = sum(game.stacks)
    play_hand(game, 1)
    assert game.total_credits() == total

    # Mid-hand a player can neither leave nor join: both wait for the hand break, and nothing changes.
    game.start_hand()
    saved = game.to_json()
    with pytest.raises(WrongPhase, match="between hands"):
        game.leave(1)
    with pytest.raises(WrongPhase, match="between hands"):
        game.join("P9", 40)
    assert game.to_json() == saved
    bots = random.Random(2)
    while game.in_hand:
        seat = game.waiting_for()[0]
        apply_decision(game, seat, SensibleBot(random.Random(bots.random())).decide(game.view_for(seat)))

    # Between hands: P1 leaves with their stack, P9 joins with 40, and the next hand deals P9 in, not P1.
    leaving = 1 if game.stacks[1] > 0 else 2
    stack = game.leave(leaving)
    assert stack > 0 and game.stacks[leaving] == 0
    seat = game.join("P9", 40)
    assert game.names[seat] == "P9" and game.stacks[seat] == 40
    assert game.total_credits() == total - stack + 40
    game.start_hand()
    assert seat in game.hand.seats and leaving not in game.hand.seats

    # A save mid-hand loads to the same game; the export replays to the same hands and stacks.
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
    bots = random.Random(3)
    while game.in_hand:
        seat_to_act = game.waiting_for()[0]
        apply_decision(game, seat_to_act, SensibleBot(random.Random(bots.random())).decide(game.view_for(seat_to_act)))
    assert game.total_credits() == total - stack + 40
    # The player who left comes back to their old seat with the chips they took.
    assert game.join(f"P{leaving}", stack) == leaving
    document = json.loads(json.dumps(export_replay(game)))
    result = play_replay(document)
    assert result["hands"] == game.results
    assert result["stacks"] == {name: game.stacks[s] for s, name in enumerate(game.names)}


def check_the_table_ends_only_when_closed(variant: str, preset: str) -> None:
    game = new_table(variant, preset, stacks=(50, 50))
    play_hand(game, 4)
    game.leave(0)  # one player holds credits: the game waits for players rather than ending
    assert not game.over and not game.can_start_hand()
    game.join("P5", 30)
    assert game.can_start_hand()
    game.close_table()
    assert game.over and game.revealed_seeds()


def check_the_variants_own_end_rule_refuses_join_and_leave(variant: str, preset: str) -> None:
    game = new_table(variant, preset, end_rule="last_player")
    assert "end_rule" not in game.options.to_dict()  # the variant's own rule is not written
    with pytest.raises(WrongPhase, match="cash game"):
        game.join("P9", 40)
    with pytest.raises(WrongPhase, match="cash game"):
        game.leave(0)
    with pytest.raises(Exception, match="'end_rule' must be one of last_player, never"):
        build_options(variant, preset, {"end_rule": "everyone_deals"})
