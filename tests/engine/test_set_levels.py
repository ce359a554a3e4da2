"""`Game.set_levels`: a tournament's new level between hands, kept by save/load and by export -> replay."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.bots import SensibleBot, apply_decision
from games.engine.errors import InvalidAmount, ReplayError, WrongPhase
from games.engine.options import build_options
from games.engine.replay import export_replay, play_replay
from games.engine.state import Game


def tournament_game(players: int = 3, seed: int = 1, **overrides) -> Game:
    options = build_options("coruscant_shift", "better", {"escalation": "none", **overrides})
    return Game.new(
        options=options,
        players=[(f"P{seat}", 1000) for seat in range(players)],
        dealer=0,
        rng=random.Random(seed),
        preset="better",
    )


def play_out_hand(game: Game, seed: int = 0) -> None:
    bots = [SensibleBot(random.Random(f"{seed}/{seat}")) for seat in range(len(game.names))]
    while game.in_hand:
        seat = game.waiting_for()[0]
        apply_decision(game, seat, bots[seat].decide(game.view_for(seat)))


def test_the_next_hand_posts_the_levels_set_between_hands():
    game = tournament_game()
    game.start_hand()
    play_out_hand(game)
    levels = game.set_levels(ante=5, small_blind=20, big_blind=40)
    assert (levels.ante, levels.small_blind, levels.big_blind, levels.min_bet) == (5, 20, 40, 40)
    game.start_hand()
    assert game.levels.big_blind == 40
    assert game.view_for(0)["levels"] == {**game.view_for(0)["levels"], "ante": 5, "small_blind": 20, "big_blind": 40}
    play_out_hand(game)
    forced = game.results[-1]["forced"]
    assert sorted(forced.values())[-1] >= 40 + 5 or 0 in game.stacks  # the big blind and ante were posted


def test_set_levels_is_refused_mid_hand_and_changes_nothing():
    game = tournament_game()
    game.start_hand()
    before = game.to_json()
    assert not game.can_set_levels(ante=0, small_blind=10, big_blind=20)
    with pytest.raises(WrongPhase, match="between hands"):
        game.set_levels(ante=0, small_blind=10, big_blind=20)
    assert game.to_json() == before


@pytest.mark.parametrize(
    ("amounts", "message"),
    [
        ({"ante": -1, "small_blind": 1, "big_blind": 2}, "'ante' is a whole number of credits, 0 or more; got -1"),
        ({"ante": 0, "small_blind": 1.5, "big_blind": 2}, "'small_blind' is a whole number"),
        ({"ante": 0, "small_blind": True, "big_blind": 2}, "'small_blind' is a whole number"),
        ({"ante": 0, "small_blind": 30, "big_blind": 20}, r"small blind \(30\) may not exceed the big blind \(20\)"),
        ({"ante": 0, "small_blind": 10, "big_blind": 20, "min_bet": 10}, r"min bet \(10\) may not be below"),
        ({"ante": 0, "small_blind": 10, "big_blind": 20, "min_bet": 0}, "'min_bet' is a whole number of credits, at"),
    ],
)
def test_invalid_amounts_are_refused_with_what_is_allowed(amounts, message):
    game = tournament_game()
    before = game.to_json()
    with pytest.raises(InvalidAmount, match=message):
        game.set_levels(**amounts)
    assert game.to_json() == before


def test_set_levels_is_refused_once_the_game_is_over():
    game = tournament_game(players=2, hands=1)
    game.start_hand()
    play_out_hand(game)
    assert game.is_over
    with pytest.raises(WrongPhase, match="game is over"):
        game.set_levels(ante=0, small_blind=10, big_blind=20)


def test_escalation_continues_from_the_set_levels_after_the_next_hand():
    # Cantina raises the ante before every hand after the first; the hand after set_levels plays the set
    # ante exactly, and the one after it escalates from there.
    options = build_options("coruscant_shift", "cantina")
    game = Game.new(options=options, players=[("A", 500), ("B", 500)], dealer=0, rng=random.Random(3))
    game.start_hand()
    play_out_hand(game)
    game.set_levels(ante=7, small_blind=0, big_blind=0)
    game.start_hand()
    assert game.levels.ante == 7
    play_out_hand(game)
    if game.can_start_hand():
        game.start_hand()
        assert game.levels.ante > 7


def test_save_and_load_between_hands_and_mid_hand_keep_the_set_levels():
    game = tournament_game()
    game.start_hand()
    play_out_hand(game)
    game.set_levels(ante=2, small_blind=25, big_blind=50, min_bet=60)
    loaded = Game.from_json(game.to_json(), history=game.history_json())
    assert loaded.to_json() == game.to_json() and loaded.levels == game.levels and loaded.levels_set
    game.start_hand()
    loaded.start_hand()
    assert loaded.to_json() == game.to_json()
    again = Game.from_json(game.to_json(), history=game.history_json())
    assert again.levels == game.levels and again.levels.min_bet == 60 and not again.levels_set
    assert again.to_json() == game.to_json()


def test_export_writes_a_levels_event_and_replay_reads_it():
    game = tournament_game()
    game.start_hand()
    play_out_hand(game)
    game.set_levels(ante=1, small_blind=15, big_blind=30)
    game.start_hand()
    play_out_hand(game)
    document = json.loads(json.dumps(export_replay(game)))
    assert document["format"] == "sabacc-replay/2"
    assert document["hands"][1]["before"] == [
        {"do": "levels", "ante": 1, "small_blind": 15, "big_blind": 30, "min_bet": 30}
    ]
    assert play_replay(document)["hands"] == game.results
    # A levels event the rules refuse is reported with its place, like an illegal action.
    document["hands"][1]["before"][0]["small_blind"] = 99
    with pytest.raises(ReplayError, match=r"Hand 2 before, event 1 \(levels\): The small blind \(99\)"):
        play_replay(document)
    del document["hands"][1]["before"][0]["min_bet"]
    with pytest.raises(ReplayError, match='needs "min_bet"'):
        play_replay(document)


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    changes=st.lists(st.tuples(st.integers(0, 10), st.integers(0, 40), st.integers(0, 40)), min_size=1, max_size=8),
    escalation=st.sampled_from(["none", "double_blinds"]),
)
def test_export_then_replay_with_set_levels_reproduces_the_game(players, seed, changes, escalation):
    game = tournament_game(players=players, seed=seed, escalation=escalation)
    bots = [SensibleBot(random.Random(f"{seed}/{seat}")) for seat in range(players)]
    for ante, small, extra in changes:
        if not game.can_start_hand():
            break
        game.set_levels(ante=ante, small_blind=small, big_blind=max(small + extra, 1))
        expected = game.levels
        game.start_hand()
        assert game.levels == expected  # the hand plays the levels as set, unescalated
        for _ in range(2):
            if not game.in_hand:
                break
            seat = game.waiting_for()[0]
            apply_decision(game, seat, bots[seat].decide(game.view_for(seat)))
        # Save and load mid-hand changes nothing.
        loaded = Game.from_json(game.to_json(), history=game.history_json())
        assert loaded.to_json() == game.to_json()
        while game.in_hand:
            seat = game.waiting_for()[0]
            apply_decision(game, seat, bots[seat].decide(game.view_for(seat)))
    result = play_replay(json.loads(json.dumps(export_replay(game))))
    assert result["hands"] == game.results
    assert result["stacks"] == {name: game.stacks[seat] for seat, name in enumerate(game.names)}


def test_manage_py_replay_reads_a_levels_event(tmp_path):
    import io

    from django.core.management import call_command

    game = tournament_game()
    game.start_hand()
    play_out_hand(game)
    game.set_levels(ante=2, small_blind=20, big_blind=40)
    game.start_hand()
    play_out_hand(game)
    path = tmp_path / "levels.json"
    path.write_text(json.dumps(export_replay(game)))
    out = io.StringIO()
    call_command("replay", str(path), stdout=out, stderr=io.StringIO())
    assert json.loads(out.getvalue())["hands"] == json.loads(json.dumps(game.results))


# ----- variants without blinds: a level sets the hand-pot ante (Corellian Spike, Classic) --------------------

BLINDLESS = [("corellian_spike", "galaxy_series"), ("classic", "classic")]


def blindless_game(variant: str, preset: str, players: int = 3, seed: int = 1) -> Game:
    options = build_options(variant, preset, {"end_rule": "never"})
    return Game.new(
        options=options,
        players=[(f"P{seat}", 200) for seat in range(players)],
        dealer=0,
        rng=random.Random(seed),
        variant=variant,
        preset=preset,
    )


@pytest.mark.parametrize(("variant", "preset"), BLINDLESS)
def test_a_level_sets_the_hand_pot_ante_and_keeps_the_sabacc_ante(variant, preset):
    game = blindless_game(variant, preset)
    sabacc_ante = game.options.sabacc_ante
    game.start_hand()
    assert set(game.hand.forced.values()) == {game.options.ante}
    play_out_hand(game)
    game.set_levels(ante=7, small_blind=0, big_blind=0)
    game.start_hand()
    assert game.hand.forced == dict.fromkeys(game.hand.seats, 7)  # every seat antes 7 into the hand pot
    assert set(game.hand.sabacc_antes.values()) == {sabacc_ante}
    assert game.view_for(0)["levels"]["ante"] == 7
    play_out_hand(game)
    if game.can_start_hand():  # no escalation: the level stays in force at the hands after it
        game.start_hand()
        assert all(v == min(7, game.stacks[s] + v) for s, v in game.hand.forced.items())
        assert game.options.ante != 7  # the table's options are unchanged; the level lives in `levels`


@pytest.mark.parametrize(("variant", "preset"), BLINDLESS)
@pytest.mark.parametrize(
    ("amounts", "message"),
    [
        ({"ante": 5, "small_blind": 5, "big_blind": 10}, "has no blinds: a level sets its hand-pot ante"),
        ({"ante": 5, "small_blind": 0, "big_blind": 10}, "give small_blind 0 and big_blind 0, not 0 and 10"),
        ({"ante": 0, "small_blind": 0, "big_blind": 0}, "hand-pot ante of at least 1 credit; got 0"),
    ],
)
def test_blinds_are_refused_where_the_variant_has_none(variant, preset, amounts, message):
    game = blindless_game(variant, preset)
    before = game.to_json()
    assert not game.can_set_levels(**amounts)
    with pytest.raises(InvalidAmount, match=message):
        game.set_levels(**amounts)
    assert game.to_json() == before


@pytest.mark.parametrize(("variant", "preset"), BLINDLESS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), antes=st.lists(st.integers(1, 12), min_size=1, max_size=5))
def test_blindless_levels_survive_save_load_and_replay(variant, preset, seed, antes):
    game = blindless_game(variant, preset, players=3, seed=seed)
    bots = [SensibleBot(random.Random(f"{seed}/{seat}")) for seat in range(3)]
    for ante in antes:
        if not game.can_start_hand():
            break
        game.set_levels(ante=ante, small_blind=0, big_blind=0, min_bet=ante)
        game.start_hand()
        assert all(
            v == min(ante, v + game.stacks[s] + game.hand.sabacc_antes.get(s, 0)) for s, v in game.hand.forced.items()
        )
        if game.in_hand:
            seat = game.waiting_for()[0]
            apply_decision(game, seat, bots[seat].decide(game.view_for(seat)))
        loaded = Game.from_json(game.to_json(), history=game.history_json())
        assert loaded.to_json() == game.to_json()
        while game.in_hand:
            seat = game.waiting_for()[0]
            apply_decision(game, seat, bots[seat].decide(game.view_for(seat)))
    document = json.loads(json.dumps(export_replay(game)))
    assert document["hands"][0]["before"][0] == {
        "do": "levels",
        "ante": antes[0],
        "small_blind": 0,
        "big_blind": 0,
        "min_bet": antes[0],
    }
    result = play_replay(document)
    assert result["hands"] == game.results
    assert result["stacks"] == {name: game.stacks[seat] for seat, name in enumerate(game.names)}
