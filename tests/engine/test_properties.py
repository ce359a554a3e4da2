"""Hypothesis properties over bot games of every preset (each preset gets its own examples).

Credits and cards are conserved, the same seed and actions give the same game, save/load changes
nothing, export then replay reproduces the game (sabacc-replay/2, casino tables with re-buys, add-ons,
joins, leaves and entropy included), illegal actions are refused and change nothing, and the amended
rulings of RULES 1.8 hold at every step (hidden selection sizes, the min bet and cap following the
blinds, no carry past the end, seeds hidden until the game ends and then verifiable).
"""

import functools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.bots import Decision, RandomBot, SensibleBot, apply_decision
from games.engine.bots.random_legal import random_decision
from games.engine.cards import full_deck
from games.engine.errors import EngineError, IllegalAction
from games.engine.fairness import game_problems
from games.engine.options import PRESETS, build_options
from games.engine.public_log import public_log
from games.engine.replay import export_replay, play_replay
from games.engine.shuffle import server_seed
from games.engine.state import Game
from tests.engine.helpers import bot_steps

MAX_HANDS = 15
DECK_SIZE = 62

seat_counts = st.integers(min_value=2, max_value=8)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
# Per seat: True for a sensible bot, False for a random one (random alone ends games in a few hands).
mixes = st.lists(st.booleans(), min_size=8, max_size=8)


def new_game(preset: str, players: int, seed: int) -> Game:
    options = build_options("coruscant_shift", preset)
    return Game.new(
        options=options,
        players=[(f"P{seat}", options.starting_stack) for seat in range(players)],
        rng=random.Random(seed),
        preset=preset,
    )


def new_bots(players: int, mix: list[bool], seed: int) -> list:
    return [(SensibleBot if mix[seat] else RandomBot)(random.Random(f"{seed}/{seat}")) for seat in range(players)]


steps = functools.partial(bot_steps, max_hands=MAX_HANDS)  # drives a game with bots, step by step


def snapshot(game: Game) -> tuple:
    """Everything observable about a game: its saved form and every seat's and a spectator's view."""
    return (game.to_json(), [game.view_for(s) for s in range(len(game.names))], game.spectator_view())


# ----- conservation -------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=100, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes)
def test_credits_and_cards_are_conserved_at_every_step(preset, players, seed, mix):
    game = new_game(preset, players, seed)
    total = game.total_credits()
    assert total == sum(game.stacks)
    count = 0
    for _ in steps(game, new_bots(players, mix, seed)):
        count += 1
        assert game.total_credits() == total
        assert game.card_count() == DECK_SIZE
        assert all(stack >= 0 for stack in game.stacks)
    assert count > 0
    assert sum(row["stack"] for row in game.standings()) + game.carry == total


# ----- determinism ----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=20, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes)
def test_same_seed_and_actions_give_the_same_game(preset, players, seed, mix):
    first = new_game(preset, players, seed)
    decisions = [(seat, decision) for seat, decision in steps(first, new_bots(players, mix, seed))]
    second = new_game(preset, players, seed)
    for seat, decision in decisions:
        if seat is None:
            second.start_hand()
        else:
            assert seat in second.waiting_for()
            apply_decision(second, seat, decision)
    assert second.to_json() == first.to_json()
    assert second.standings() == first.standings()
    assert [second.view_for(s) for s in range(players)] == [first.view_for(s) for s in range(players)]


# ----- save and load ------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=60, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes, cut=st.integers(min_value=0, max_value=400))
def test_save_and_load_at_any_step_changes_nothing(preset, players, seed, mix, cut):
    game = new_game(preset, players, seed)
    for _ in steps(game, new_bots(players, mix, seed), limit=cut):
        pass
    copy = Game.from_json(game.to_json())
    assert snapshot(copy) == snapshot(game)
    assert copy.waiting_for() == game.waiting_for()
    assert copy.total_credits() == game.total_credits()
    # Both continue with the same bots (same seeds): every step and the end must agree.
    for a, b in zip(
        steps(game, new_bots(players, mix, seed + 1)), steps(copy, new_bots(players, mix, seed + 1)), strict=True
    ):
        assert a == b
    assert copy.to_json() == game.to_json()
    assert copy.standings() == game.standings()


# ----- export and replay ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=40, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes, cut=st.none() | st.integers(0, 300))
def test_export_then_replay_reproduces_the_game(preset, players, seed, mix, cut):
    game = new_game(preset, players, seed)
    for _ in steps(game, new_bots(players, mix, seed), limit=cut):
        pass
    result = play_replay(export_replay(game))
    assert result["hands"][: len(game.results)] == game.results
    assert result["stacks"] == {name: game.stacks[seat] for seat, name in enumerate(game.names)}
    expected = [{"player": r["player"], "place": r["place"], "stack": r["stack"]} for r in game.standings()]
    assert result["standings"] == expected
    assert result["complete"] == (not game.in_hand)
    assert result["carry_over"] == game.carry
    assert len(result["hands"]) == game.hands_played + (1 if game.in_hand else 0)


def casino_steps(game: Game, seed: int, max_hands: int):
    """`steps` for a cash table with everything that happens between hands: re-buys, add-ons, joins,
    leaves and entropy, chosen at random; the table closes after `max_hands` hands."""
    rng = random.Random(f"{seed}/table")
    bots: dict[str, object] = {}
    while True:
        if game.in_hand:
            seat = game.waiting_for()[0]
            bot = bots.setdefault(game.names[seat], RandomBot(random.Random(f"{seed}/{game.names[seat]}")))
            decision = bot.decide(game.view_for(seat))
            apply_decision(game, seat, decision)
            yield seat, decision
            continue
        if game.hands_played >= max_hands:
            game.close_table()
            return
        for seat in range(len(game.names)):
            if seat in game.left:
                continue
            if game.stacks[seat] == 0 and rng.random() < 0.7:
                game.rebuy(seat, rng.randint(1, 500))
            elif game.stacks[seat] > 0 and rng.random() < 0.1:
                game.add_on(seat, rng.randint(1, 100))
            if rng.random() < 0.3:
                game.contribute_entropy(seat, f"{rng.getrandbits(64):x}")
        seated = [s for s in range(len(game.names)) if s not in game.left]
        if rng.random() < 0.15 and len(seated) > 2:
            game.leave(rng.choice(seated))
        if rng.random() < 0.2 and game.can_join(f"J{game.hands_played}", 100):
            game.join(f"J{game.hands_played}", rng.randint(1, 600))
        if rng.random() < 0.1 and game.left:
            back = game.names[min(game.left)]
            if game.can_join(back, 200):
                game.join(back, 200)
        if not game.can_start_hand():
            game.close_table()
            return
        game.start_hand()
        yield None, None


@settings(max_examples=40, deadline=None)
@given(players=st.integers(min_value=2, max_value=6), seed=seeds, hands=st.integers(min_value=1, max_value=25))
def test_export_then_replay_reproduces_a_casino_table_with_rebuys_joins_and_leaves(players, seed, hands):
    game = new_game("casino", players, seed)
    total = game.total_credits()
    for _ in casino_steps(game, seed, hands):
        assert game.card_count() == DECK_SIZE
    assert game.is_over
    events = [entry["e"] for entry in game._history if "e" in entry]
    came_in = sum(event[2] for event in events if event[0] in ("rebuy", "addon", "join"))
    went_out = sum(event[2] for event in events if event[0] == "leave")
    assert game.total_credits() == total + came_in - went_out  # credits change only between hands
    assert {event[0] for event in events} >= {"close"}
    document = json.loads(json.dumps(export_replay(game)))
    assert document["format"] == "sabacc-replay/2"
    result = play_replay(document)
    assert result["hands"] == game.results
    assert result["stacks"] == {name: game.stacks[seat] for seat, name in enumerate(game.names)}
    assert result["finished"] is True and result["carry_over"] == game.carry
    assert game_problems(document) == []
    # The public log shows no card but the selections shown at the reveal and the tie-breaking draws.
    for hand in public_log(document):
        shown = {}
        for step in hand["steps"]:
            if step["kind"] == "select" and "cards" in step:
                shown.setdefault(step["player"], []).extend(step["cards"])
            else:
                assert "cards" not in step or step["kind"] == "tie_draw"
        assert shown == {name: row["cards"] for name, row in hand["result"]["showdown"].items() if row["cards"]}


# ----- the amended rulings (RULES 1.8) at every step ---------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=30, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes, hands=st.none() | st.integers(min_value=1, max_value=12))
def test_amended_rulings_hold_at_every_step(preset, players, seed, mix, hands):
    options = build_options("coruscant_shift", preset, None if hands is None else {"hands": hands})
    game = Game.new(
        options=options,
        players=[(f"P{seat}", options.starting_stack) for seat in range(players)],
        rng=random.Random(seed),
        preset=preset,
    )
    min_bet = 0
    texts = []
    for _ in steps(game, new_bots(players, mix, seed), max_hands=12):
        hand, levels = game.hand, game.levels
        # Min bet with blinds, never dropping; max_bet scaled and never below the big blind.
        assert levels.min_bet >= max(levels.big_blind, min_bet) and levels.min_bet >= options.min_bet
        min_bet = levels.min_bet
        cap = levels.max_bet(options.max_bet)
        assert cap is None or cap >= levels.big_blind
        if game.in_hand and hand.phase in ("select", "improve"):
            # Selection sizes: the others see none of the sizes chosen in the open phase.
            for viewer in range(players):
                for row in game.view_for(viewer)["players"]:
                    if row["seat"] == viewer or "selection_size" not in row:
                        continue
                    if hand.phase == "select":
                        assert row["selection_size"] is None and row["cards_held"] in (0, 5)
                    elif not row["folded"]:
                        chosen = hand._chosen_now.get(row["seat"], 0)
                        assert row["selection_size"] == len(hand._selection[row["seat"]]) - chosen
        texts.append(json.dumps(game.spectator_view()))
    if game.is_over and hands is not None and game.hands_played == hands:
        assert game.carry == 0  # no carry past the last hand
    secrets = {server_seed(game._master, n) for n in range(1, game.hands_played + 2)}
    assert not any(secret in text for secret in secrets for text in texts if '"seeds_revealed"' not in text)
    if game.is_over:
        assert game_problems(game) == []


# ----- refusals ---------------------------------------------------------------------------------------


def illegal_attempts(game: Game, rng: random.Random) -> list[tuple[str, callable]]:
    """Operations the rules forbid in the game's current state, each as (description, thunk)."""
    attempts = []
    players = len(game.names)
    waiting = game.waiting_for()
    idle = [s for s in range(players) if s not in waiting]
    for seat in idle:
        attempts += [
            (f"seat {seat} checks out of turn", lambda s=seat: game.check(s)),
            (f"seat {seat} calls out of turn", lambda s=seat: game.call(s)),
            (f"seat {seat} folds out of turn", lambda s=seat: game.fold(s)),
            (f"seat {seat} bets out of turn", lambda s=seat: game.bet(s, 10)),
            (f"seat {seat} goes all-in out of turn", lambda s=seat: game.all_in(s)),
            (f"seat {seat} selects out of turn", lambda s=seat: game.select(s, [])),
        ]
    attempts += [
        ("a seat that does not exist checks", lambda: game.check(players)),
        ("a negative seat folds", lambda: game.fold(-1)),
    ]
    if not waiting:
        return attempts
    seat = waiting[0]
    legal = game.legal_actions(seat)
    if legal.can_select:
        held = list(legal.selectable)
        absent = next(c.code for c in full_deck() if c.code not in held and not c.is_sylop)
        attempts += [
            ("select a card not held", lambda: game.select(seat, [*held[:1], absent])),
            ("select a card that does not exist", lambda: game.select(seat, ["+11x"])),
            ("select with a non-list", lambda: game.select(seat, 7)),
            ("bet during a select phase", lambda: game.bet(seat, 5)),
            ("check during a select phase", lambda: game.check(seat)),
        ]
        single = [card for card in held if held.count(card) == 1]
        if single:
            attempts.append(("select a card held once twice", lambda: game.select(seat, [single[0], single[0]])))
        return attempts
    attempts.append(("select during betting", lambda: game.select(seat, [])))
    if not legal.can_check:
        attempts.append(("check while owing", lambda: game.check(seat)))
    if not legal.can_call:
        attempts.append(("call with nothing to call", lambda: game.call(seat)))
    if legal.can_bet:
        attempts += [
            ("bet below the minimum", lambda: game.bet(seat, legal.min_bet - 1)),
            ("bet over the stack or cap", lambda: game.bet(seat, legal.max_bet + 1)),
            ("bet a non-number", lambda: game.bet(seat, "5")),
        ]
    else:
        # RULES 1.4: a bet of exactly the whole stack is an all-in by another name, so never bet that here.
        amount = max(1, legal.min_bet)
        amount = amount + 1 if amount == game.stacks[seat] else amount
        attempts.append(("bet when betting is not open", lambda: game.bet(seat, amount)))
    if legal.can_raise:
        attempts += [
            ("raise below the minimum", lambda: game.raise_to(seat, legal.min_raise_to - 1)),
            ("raise over the stack or cap", lambda: game.raise_to(seat, legal.max_raise_to + 1)),
            ("raise to a bool", lambda: game.raise_to(seat, True)),
        ]
    else:
        attempts.append(("raise when not allowed", lambda: game.raise_to(seat, game.stacks[seat] + 1000)))
    if not legal.can_all_in:
        attempts.append(("all-in when not allowed", lambda: game.all_in(seat)))
    return [attempt for attempt in attempts if rng.random() < 0.7] or attempts[:1]


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=20, deadline=None)
@given(players=seat_counts, seed=seeds, mix=mixes, every=st.integers(min_value=1, max_value=7))
def test_illegal_actions_are_refused_and_change_nothing(preset, players, seed, mix, every):
    game = new_game(preset, players, seed)
    rng = random.Random(seed)
    tried = 0
    for number, _ in enumerate(steps(game, new_bots(players, mix, seed), max_hands=3)):
        if number % every:
            continue
        before = snapshot(game)
        for description, attempt in illegal_attempts(game, rng):
            try:
                attempt()
            except IllegalAction:
                tried += 1
            except EngineError as exc:
                raise AssertionError(f"{description}: refused with {type(exc).__name__}, not IllegalAction") from exc
            else:
                raise AssertionError(f"{description} was accepted")
            assert snapshot(game) == before, description
    assert tried > 0


def test_actions_between_hands_and_after_the_end_are_refused():
    game = new_game("cantina", 3, 1)
    for action in (lambda: game.check(0), lambda: game.select(0, []), lambda: game.bet(0, 1)):
        before = snapshot(game)
        try:
            action()
        except IllegalAction:
            pass
        else:
            raise AssertionError("an action before the first hand was accepted")
        assert snapshot(game) == before
    for _ in steps(game, new_bots(3, [False] * 8, 1), max_hands=500):
        pass
    assert game.is_over
    before = snapshot(game)
    for action in (lambda: game.fold(0), lambda: game.start_hand(), lambda: game.call(1)):
        try:
            action()
        except IllegalAction:
            pass
        else:
            raise AssertionError("an action after the end was accepted")
        assert snapshot(game) == before


def test_random_decisions_only_use_legal_bounds():
    """The property games above rely on the random bot staying inside legal_actions."""
    rng = random.Random(2)
    legal = {"seat": 0, "phase": "betting_1", "verbs": ["raise"], "min_raise_to": 7, "max_raise_to": 9}
    amounts = {random_decision(legal, rng).amount for _ in range(200)}
    assert amounts == {7, 8, 9}
    legal = {"seat": 0, "phase": "select", "verbs": ["select"], "selectable": ["+1c", "0"]}
    chosen = {random_decision(legal, rng).cards for _ in range(200)}
    assert chosen == {(), ("+1c",), ("0",), ("+1c", "0")}
    assert random_decision({"seat": 0, "phase": "x", "verbs": ["fold"]}, rng) == Decision("fold")
