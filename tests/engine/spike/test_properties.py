"""Hypothesis properties over random Corellian Spike games of both presets.

Credits (stacks, pots, card prices, the Sabacc pot, the carry-over) are conserved at every step, all 62
cards are accounted for, the same seed and actions give the same game, save/load at any step changes
nothing, export then replay reproduces the game, illegal actions are refused and change nothing, and no
view ever shows a card its viewer may not see.
"""

import functools
import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.bots import RandomBot, SensibleBot
from games.engine.errors import IllegalAction
from games.engine.fairness import game_problems
from games.engine.options import build_options
from games.engine.replay import export_replay, play_replay, replay_result
from games.engine.state import Game
from tests.engine.helpers import bot_steps, replay_decisions

PRESETS = ("galaxy_series", "cantina_spike")
MAX_HANDS = 12
DECK_SIZE = 62
CARD = re.compile(r'"([+-]\d{1,2}[cst]|0)"')

seat_counts = st.integers(min_value=2, max_value=8)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
mixes = st.lists(st.booleans(), min_size=8, max_size=8)


def new_game(preset: str, players: int, seed: int, stack: int = 40) -> Game:
    return Game.new(
        options=build_options("corellian_spike", preset, {"starting_stack": stack}),
        players=[(f"P{seat}", stack) for seat in range(players)],
        rng=random.Random(seed),
        variant="corellian_spike",
        preset=preset,
    )


def new_bots(players: int, mix: list[bool], seed: int) -> list:
    return [(SensibleBot if mix[seat] else RandomBot)(random.Random(f"{seed}/{seat}")) for seat in range(players)]


steps = functools.partial(bot_steps, max_hands=MAX_HANDS)  # drives a game with bots, step by step


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=25, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes)
def test_credits_and_cards_are_conserved_at_every_step(preset, players, seed, mix):
    game = new_game(preset, players, seed)
    total = game.total_credits()
    assert total == sum(game.stacks)
    for _seat, _ in steps(game, new_bots(players, mix, seed)):
        hand = game.hand
        in_hand = (
            sum(hand.contributions.values()) + sum(hand.card_costs.values()) + hand.carry_in + hand.sabacc_pot()
            if game.in_hand
            else sum(game.pools.values())
        )
        assert sum(game.stacks) + in_hand + game.carry == total == game.total_credits()
        assert game.card_count() == DECK_SIZE
        assert all(stack >= 0 for stack in game.stacks)
        assert min(len(c) for s, c in hand._cards.items() if s in hand.live) >= 2 if game.in_hand else True
        assert max(len(c) for c in hand._cards.values()) <= 5


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=10, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes)
def test_same_seed_and_actions_give_the_same_game(preset, players, seed, mix):
    first = new_game(preset, players, seed)
    decisions = list(steps(first, new_bots(players, mix, seed)))
    second = replay_decisions(new_game(preset, players, seed), decisions)
    assert second.to_json() == first.to_json()
    assert second.results == first.results


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=15, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes, cut=st.integers(min_value=0, max_value=300))
def test_save_and_load_at_any_step_changes_nothing(preset, players, seed, mix, cut):
    game = new_game(preset, players, seed)
    for _ in steps(game, new_bots(players, mix, seed), limit=cut):
        pass
    copy = Game.from_json(game.to_json(), history=game.history_json())
    assert copy.to_json() == game.to_json()
    assert [copy.view_for(s) for s in range(players)] == [game.view_for(s) for s in range(players)]
    assert copy.spectator_view() == game.spectator_view()
    assert copy.total_credits() == game.total_credits()
    for a, b in zip(
        steps(game, new_bots(players, mix, seed + 1)), steps(copy, new_bots(players, mix, seed + 1)), strict=True
    ):
        assert a == b
    assert copy.to_json() == game.to_json() and copy.standings() == game.standings()
    # The loaded game records the hands it finishes itself (earlier results live with the history).
    assert copy.results == game.results[len(game.results) - len(copy.results) :]


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=10, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes, cut=st.integers(min_value=0, max_value=300))
def test_export_then_replay_reproduces_the_game(preset, players, seed, mix, cut):
    game = new_game(preset, players, seed)
    for _ in steps(game, new_bots(players, mix, seed), limit=cut):
        pass
    document = json.loads(json.dumps(export_replay(game)))
    assert play_replay(document) == replay_result(game, version=2)
    if game.is_over:
        assert game_problems(document) == []


def _illegal_tries(game: Game) -> list[tuple[int, str, dict]]:
    waiting = game.waiting_for()
    seat = waiting[0]
    others = [s for s in range(len(game.names)) if s != seat]
    phase = game.hand.phase
    tries = [(others[0], "stand", {}), (seat, "fly", {}), (seat, "bet", {"amount": -1}), (99, "stand", {})]
    tries.append((seat, "trade", {"card": "+11c", "source": "deck"}))
    tries.append((seat, "spike", {"card": "0", "extra": 1}))
    if phase.startswith("cards"):
        tries += [(seat, "fold", {}), (seat, "buy", {"source": "gunner" if phase != "cards_3" else "moon"})]
        tries.append((seat, "trade", {"card": "+10c", "source": "nowhere"}))
    elif phase == "spike":
        tries += [(seat, "stand", {}), (seat, "check", {})]
    else:
        tries += [(seat, "stand", {}), (seat, "raise", {"amount": 10**12}), (seat, "spike", {"card": "0"})]
    return tries


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=10, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes)
def test_illegal_actions_are_refused_and_change_nothing(preset, players, seed, mix):
    game = new_game(preset, players, seed)
    refused = 0
    for _seat, _ in steps(game, new_bots(players, mix, seed), limit=200):
        if not game.in_hand:
            continue
        before = (game.to_json(), game.spectator_view())
        for who, verb, args in _illegal_tries(game):
            with pytest.raises(IllegalAction):
                game.act(who, verb, **args)
            assert not game.can_act(who, verb, **args)
            refused += 1
        assert (game.to_json(), game.spectator_view()) == before
    assert refused > 0


def _codes(value: dict) -> set[str]:
    return set(CARD.findall(json.dumps(value)))


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=10, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes)
def test_views_never_show_a_card_their_viewer_may_not_see(preset, players, seed, mix):
    game = new_game(preset, players, seed)
    for _ in steps(game, new_bots(players, mix, seed), limit=250):
        hand = game.hand
        public = {c.code for c in hand._market}
        if game.options.market == "discard_pile" and hand._discard:
            public.add(hand._discard[-1].code)
        public |= {p["card"] for p in hand.purchases}
        if hand.is_complete:
            public |= {c.code for cards in hand.showdown_cards().values() for c in cards}
        for result in game.results:
            public |= {code for row in result["showdown"].values() for code in row["cards"]}
        assert _codes(game.spectator_view()) <= public
        for seat in range(players):
            own = {c.code for c in hand._cards.get(seat, [])}
            view = game.view_for(seat)
            assert _codes(view) <= public | own
            assert "deck" not in view["hand"] or view["hand"]["deck"] in ("seeded", "given")
