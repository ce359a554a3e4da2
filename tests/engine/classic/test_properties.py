"""Hypothesis properties over bot games of both Classic presets, with random option overrides.

At every step credits are conserved (stacks, the hand pot, the Sabacc pot and penalties together) and all
76 cards are accounted for; the same seed and decisions give the same game; save/load at any step changes
nothing; export then replay reproduces the game and its seeds verify; illegal actions are refused and
change nothing; and no view ever shows another player's unlocked cards.
"""

import functools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.bots import apply_decision
from games.engine.bots.classic import ClassicRandomBot, ClassicSensibleBot, random_decision
from games.engine.errors import EngineError, IllegalAction
from games.engine.fairness import game_problems
from games.engine.options import build_options
from games.engine.replay import export_replay, play_replay
from games.engine.state import Game
from tests.engine.helpers import bot_steps, replay_decisions

PRESETS = ("classic", "universe")
MAX_HANDS = 8

seeds = st.integers(min_value=0, max_value=2**32 - 1)
seat_counts = st.integers(min_value=2, max_value=8)
mixes = st.lists(st.booleans(), min_size=8, max_size=8)


@st.composite
def overrides(draw) -> dict:
    """Random values for the options of RULES 3.6 (each example overrides some of them)."""
    values: dict = {}
    if draw(st.booleans()):
        values["call_round"] = draw(st.integers(1, 5))
    if draw(st.booleans()):
        values["max_rounds"] = values.get("call_round", 5) + draw(st.integers(0, 3))
    for name, choices in (
        ("shift_rolls", ["turns_and_rounds", "rounds", "off"]),
        ("hand_ranking", ["magnitude", "signed"]),
        ("min_raise", ["min_bet", "last_increment"]),
        ("declare_totals", [True, False]),
    ):
        if draw(st.booleans()):
            values[name] = draw(st.sampled_from(choices))
    if draw(st.booleans()):
        values["ante"] = draw(st.integers(1, 3))
        values["sabacc_ante"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        values["max_bet"] = draw(st.integers(1, 30))
    values["starting_stack"] = draw(st.integers(5, 60))
    return values


def new_game(preset: str, players: int, seed: int, options: dict) -> Game:
    built = build_options("classic", preset, options)
    return Game.new(
        options=built,
        players=[(f"P{seat}", built.starting_stack) for seat in range(players)],
        rng=random.Random(seed),
        variant="classic",
        preset=preset,
    )


def new_bots(players: int, mix: list[bool], seed: int) -> list:
    kinds = [ClassicSensibleBot if mix[seat] else ClassicRandomBot for seat in range(players)]
    return [kind(random.Random(f"{seed}/{seat}")) for seat, kind in enumerate(kinds)]


steps = functools.partial(bot_steps, max_hands=MAX_HANDS)  # drives a game with bots, step by step


def hidden(game: Game, seat: int) -> set[str]:
    """The codes of `seat`'s unlocked cards (hidden state, read for the test only)."""
    return {card.code for card in game.hand._hand[seat]}


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=25, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes, options=overrides())
def test_credits_and_cards_are_conserved_and_hidden_cards_stay_hidden(preset, players, seed, mix, options):
    game = new_game(preset, players, seed, options)
    total = game.total_credits()
    for _ in steps(game, new_bots(players, mix, seed)):
        assert game.total_credits() == total
        assert game.card_count() == 76
        assert all(stack >= 0 for stack in game.stacks)
        if game.in_hand:
            hand = game.hand
            assert sum(hand.contributions.values()) + hand.sabacc_pot + sum(game.stacks) == total
            for viewer in range(players):
                seen = json.dumps(game.view_for(viewer))
                for other in hand.live:
                    if other != viewer:
                        mine = {c.code for c in hand._hand.get(viewer, [])}
                        mine |= {c.code for s in hand.seats for c in hand._field[s]}
                        for code in hidden(game, other) - mine:
                            assert f'"{code}"' not in seen
    for result in game.results:
        pot = result["sabacc_pot"]
        assert pot["after"] == pot["before"] + pot["antes"] + pot["penalties"] + pot["from_pots"] - sum(
            pot["paid"].values()
        )


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=15, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes, options=overrides())
def test_same_seed_and_decisions_give_the_same_game(preset, players, seed, mix, options):
    first = new_game(preset, players, seed, options)
    decisions = [(s, d) for s, d in steps(first, new_bots(players, mix, seed))]
    second = replay_decisions(new_game(preset, players, seed, options), decisions)
    assert second.to_json() == first.to_json()
    assert second.results == first.results


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=15, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes, options=overrides(), stop=st.integers(1, 200))
def test_save_and_load_at_any_step_changes_nothing(preset, players, seed, mix, options, stop):
    game = new_game(preset, players, seed, options)
    bots = new_bots(players, mix, seed)
    for _ in steps(game, bots, limit=stop):
        pass
    loaded = Game.from_json(game.to_json(), history=game.history_json())
    assert loaded.to_json() == game.to_json()
    assert [loaded.view_for(s) for s in range(players)] == [game.view_for(s) for s in range(players)]
    assert loaded.spectator_view() == game.spectator_view()
    # Both go on alike: the same decisions give the same states.
    for seat, decision in steps(game, bots, limit=60):
        if seat is None:
            loaded.start_hand()
        else:
            apply_decision(loaded, seat, decision)
        assert loaded.to_json() == game.to_json()


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=12, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes, options=overrides())
def test_export_then_replay_reproduces_the_game_and_its_seeds_verify(preset, players, seed, mix, options):
    game = new_game(preset, players, seed, options)
    for _ in steps(game, new_bots(players, mix, seed)):
        pass
    document = json.loads(json.dumps(export_replay(game)))
    result = play_replay(document)
    assert result["hands"] == game.results
    assert result["stacks"] == {name: game.stacks[s] for s, name in enumerate(game.names)}
    assert result["sabacc_pot"] == game.pools.get("sabacc", 0)
    if game.is_over:
        assert game_problems(game) == []


def illegal_attempts(game: Game, seat: int, rng: random.Random) -> list[tuple[int, str, dict]]:
    """Actions that must be refused in the current state: wrong seats, wrong verbs, cards not held, bad amounts."""
    legal = game.legal_actions(seat)
    others = [s for s in range(len(game.names)) if s != seat]
    attempts = [(rng.choice(others), "stand", {}), (seat, "select", {}), (seat, "discard", {})]
    if "stand" in legal.verbs:
        attempts += [
            (seat, "check", {}),
            (seat, "trade", {"card": "+16c"}),
            (seat, "stand", {"unlock": "+1s"} if "+1s" not in legal.unlockable else {"unlock": "+2s"}),
            (seat, "stand", {"amount": 3}),
        ]
        held = set(legal.tradeable)
        missing = next(c.code for c in game.variant.deck() if c.code not in held and c.code not in legal.unlockable)
        attempts.append((seat, "trade", {"card": missing}))
    else:
        attempts += [(seat, "draw", {}), (seat, "bet", {"amount": -1}), (seat, "raise", {"amount": 10**12})]
        if not legal.can_call_hand:
            attempts.append((seat, "check" if legal.can_check else "call", {"call_hand": True}))
        attempts.append((seat, "fold", {"call_hand": True}))
    return attempts


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=15, deadline=None)
@given(players=seat_counts, seed=seeds, options=overrides())
def test_illegal_actions_are_refused_and_change_nothing(preset, players, seed, options):
    game = new_game(preset, players, seed, options)
    rng = random.Random(seed)
    for _ in range(120):
        if not game.in_hand:
            if game.is_over or not game.can_start_hand() or game.hands_played >= 3:
                break
            game.start_hand()
            continue
        seat = game.waiting_for()[0]
        before = game.to_json()
        for who, verb, args in illegal_attempts(game, seat, rng):
            with pytest.raises(IllegalAction):
                game.act(who, verb, **args)
            assert not game.can_act(who, verb, **args)
            assert game.to_json() == before
        decision = random_decision(game.legal_actions(seat).to_dict(), rng)
        apply_decision(game, seat, decision)


def test_a_refused_action_raises_an_engine_error_with_what_is_allowed():
    game = new_game("classic", 2, 1, {})
    game.start_hand()
    seat = game.waiting_for()[0]
    with pytest.raises(EngineError, match="draw, trade or stand"):
        game.act(seat, "bet", amount=3)
