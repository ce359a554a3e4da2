"""`Game.pay_leftovers`: at a table its organiser ends (a tournament's), the Sabacc pot and carry-over are paid
to the players holding credits, so no credit leaves the table; kept by save/load and by export -> replay."""

import json
import random

import pytest

from games.engine.bots import SensibleBot, apply_decision
from games.engine.errors import WrongPhase
from games.engine.options import build_options
from games.engine.replay import export_replay, play_replay
from games.engine.state import Game

BLINDLESS = [("corellian_spike", "galaxy_series"), ("classic", "classic")]


def new_game(variant: str, preset: str, *, end_rule: str = "never", seed: int = 3) -> Game:
    return Game.new(
        options=build_options(variant, preset, {"end_rule": end_rule}),
        players=[(f"P{seat}", 80) for seat in range(4)],
        dealer=0,
        rng=random.Random(seed),
        variant=variant,
        preset=preset,
    )


def play_hand(game: Game, seed: int) -> None:
    bots = [SensibleBot(random.Random(f"{seed}/{seat}")) for seat in range(len(game.names))]
    game.start_hand()
    while game.in_hand:
        seat = game.waiting_for()[0]
        apply_decision(game, seat, bots[seat].decide(game.view_for(seat)))


def left_in_pots(game: Game) -> int:
    return game.carry + sum(game.pools.values())


def with_a_sabacc_pot(variant: str, preset: str) -> Game:
    for seed in range(40):
        game = new_game(variant, preset, seed=seed)
        for number in range(3):
            if game.can_start_hand():
                play_hand(game, number)
        if left_in_pots(game) and game.can_pay_leftovers():
            return game
    raise AssertionError("no game left credits in its Sabacc pot")


@pytest.mark.parametrize(("variant", "preset"), BLINDLESS)
def test_the_pots_left_go_to_the_players_holding_credits_and_nothing_is_lost(variant, preset):
    game = with_a_sabacc_pot(variant, preset)
    total = sum(game.stacks) + left_in_pots(game)
    before = list(game.stacks)
    left = left_in_pots(game)
    shares = game.pay_leftovers()
    holders = [seat for seat, stack in enumerate(before) if stack > 0]
    assert sorted(shares) == sorted(holders) and sum(shares.values()) == left
    assert max(shares.values()) - min(shares.values()) <= 1  # an even split, odd credits one each
    assert left_in_pots(game) == 0 and sum(game.stacks) == total
    assert all(game.stacks[seat] == before[seat] + shares.get(seat, 0) for seat in range(len(before)))
    with pytest.raises(WrongPhase, match="Nothing is left"):
        game.pay_leftovers()
    loaded = Game.from_json(game.to_json(), history=game.history_json())
    assert loaded.to_json() == game.to_json()
    game.close_table()
    document = json.loads(json.dumps(export_replay(game)))
    assert document["after"][:1] == [{"do": "leftovers"}]
    result = play_replay(document)
    assert result["stacks"] == {name: game.stacks[seat] for seat, name in enumerate(game.names)}
    assert result["sabacc_pot"] == 0


@pytest.mark.parametrize(("variant", "preset"), BLINDLESS)
def test_closing_the_table_pays_what_is_left_and_an_old_export_paying_after_closing_replays_the_same(variant, preset):
    game = with_a_sabacc_pot(variant, preset)
    total = sum(game.stacks) + left_in_pots(game)
    game.close_table()  # RULES 1.5 "Credits left at the end": closing pays out by itself
    assert left_in_pots(game) == 0 and sum(game.stacks) == total and sum(game.leftovers_paid.values()) > 0
    with pytest.raises(WrongPhase, match="Nothing is left"):
        game.pay_leftovers()
    loaded = Game.from_json(game.to_json(), history=game.history_json())
    assert loaded.stacks == game.stacks and loaded.leftovers_paid == game.leftovers_paid
    document = json.loads(json.dumps(export_replay(game)))
    assert document["after"][-2:] == [{"do": "close"}, {"do": "leftovers"}]
    stacks = dict(zip(game.names, game.stacks, strict=True))
    assert play_replay(document)["stacks"] == stacks
    assert play_replay(document)["leftovers"] == {game.names[s]: v for s, v in game.leftovers_paid.items()}
    # A tournament table's export may pay before closing (`pay_leftovers`): the same result.
    document["after"][-2:] = [{"do": "leftovers"}, {"do": "close"}]
    assert play_replay(document)["stacks"] == stacks


@pytest.mark.parametrize(("variant", "preset"), BLINDLESS)
def test_refused_mid_hand_and_where_the_game_keeps_its_pots(variant, preset):
    game = with_a_sabacc_pot(variant, preset)
    game.start_hand()
    before = game.to_json()
    with pytest.raises(WrongPhase, match="between hands"):
        game.pay_leftovers()
    assert game.to_json() == before
    own = new_game(variant, preset, end_rule="last_player")
    with pytest.raises(WrongPhase, match=r"pays out what is left in its pots when it ends"):
        own.pay_leftovers()


def test_a_game_saved_before_the_end_paid_out_loads_as_it_was_and_a_new_one_as_it_is():
    game = Game.new(
        options=build_options("classic", "classic", {"call_round": 1}),
        players=[("Ann", 100), ("Bob", 3)],
        dealer=0,
        rng=random.Random(1),
        variant="classic",
        preset="classic",
    )
    from tests.engine.classic.test_rules_3_4 import reveal

    reveal(game, {"Ann": ["+10s", "+5f"], "Bob": ["+15c", "+9t"]})  # Bob goes out: 3 left in the Sabacc pot
    assert game.is_over and game.stacks == [103, 0] and game.leftovers_paid == {0: 3}
    saved = json.loads(game.to_json())
    assert saved["tail"] == [["leftovers", [[0, 3]]]]
    again = Game.from_json(game.to_json())
    assert again.stacks == [103, 0] and again.pools == {} and again.leftovers_paid == {0: 3}
    # Saved the same way before games paid out at their end: the tail was empty and the pot stood.
    old = Game.from_json(json.dumps({**saved, "tail": []}))
    assert old.stacks == [100, 0] and old.pools == {"sabacc": 3} and old.leftovers_paid == {}
