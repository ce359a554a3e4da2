"""Bots for Corellian Spike: the random bot plays only legal moves, the sensible one values its hand against the
special-hand hierarchy, buys market cards that improve it, spikes its least useful card, and beats random play."""

import io
import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engine.bots import BOTS, Decision, RandomBot, SensibleBot, play_turn
from games.engine.bots.simulate import simulate
from games.engine.bots.spike import worth
from games.engine.cards import parse_cards
from tests.engine.spike.helpers import check_round, new_game, stand_round, start


def test_worth_follows_the_special_hand_hierarchy():
    ranked = [
        ["0", "0"],
        ["0", "+10c", "+10s", "-10c", "-10t"],
        ["0", "+5c", "+5t", "-5s", "-5t"],
        ["0", "+10t", "-10s"],
        ["0", "+4c", "-4s"],
        ["+2c", "+2s", "+2t", "-3c", "-3s"],
        ["+6c", "+6s", "-6c", "-6t"],
        ["+1c", "+2s", "+3t", "+4c", "-10s"],
        ["+1c", "-2s", "-3t", "+4s"],
        ["+3c", "+3s", "+3t", "-9c"],
        ["+4c", "-4s", "+6t", "-6c"],
        ["+9c", "-4s", "-5t"],
        ["+9c", "-8s"],
        ["+9c", "-5s"],
    ]
    values = [worth(parse_cards(cards)) for cards in ranked]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)


def test_the_sensible_bot_buys_the_market_card_that_makes_a_sabacc():
    game = new_game()
    start(game, ["+5c", "-3s"], ["+9c", "+8c"], then=["-2t", "+6c"])
    decision = SensibleBot(random.Random(1)).decide(game.view_for(1))
    assert decision == Decision("buy", source="pilot")


def test_the_sensible_bot_trades_for_a_special_hand_and_stands_on_one():
    game = new_game()
    start(game, ["0", "+4c"], ["+9c", "+8c"], then=["-4s", "+6c"])
    game.act(1, "stand")
    game.act(0, "stand")
    check_round(game)
    # Round 2: the Wing is -4s (2 credits): 0 +4c -4s is a Yee-Haa.
    decision = SensibleBot(random.Random(1)).decide(game.view_for(1))
    assert decision == Decision("buy", source="wing")
    game.act(1, "buy", source="wing")
    game.act(0, "stand")
    check_round(game)
    assert SensibleBot(random.Random(1)).decide(game.view_for(1)) == Decision("stand")


def test_the_sensible_bot_spikes_a_card_it_holds_and_keeps_a_sabacc_pair():
    game = new_game()
    start(game, ["+10c", "-10s"], ["+9c", "+8c"], then=["+1c", "+10t", "+2c"], dice=(3, 3))
    game.act(1, "draw")  # +10t: Bob holds +10c -10s +10t (+10)
    game.act(0, "stand")
    check_round(game)
    stand_round(game)
    check_round(game)
    assert game.hand.phase == "spike"
    # Giving up the spare +10 keeps the Sabacc pair; giving up -10s would leave +20.
    decision = SensibleBot(random.Random(1)).decide(game.view_for(1))
    assert decision.verb == "spike" and decision.card in ("+10c", "+10t")


def test_the_sensible_bot_bets_a_sabacc_and_folds_a_far_nulrhek_to_a_big_bet():
    game = new_game()
    start(game, ["+5c", "-5s"], ["+9c", "+8c"], then=["+1c", "+2c", "+3c"])
    for _ in range(2):
        stand_round(game)
        check_round(game)
    stand_round(game)
    decision = SensibleBot(random.Random(1)).decide(game.view_for(1))
    assert decision.verb == "bet"
    game.act(1, "bet", amount=90)
    assert SensibleBot(random.Random(1)).decide(game.view_for(0)) == Decision("fold")


@pytest.mark.parametrize("kind", sorted(BOTS))
def test_bots_only_make_legal_decisions(kind):
    for preset in ("galaxy_series", "cantina_spike"):
        game = new_game(preset, stacks=[30] * 5, seed=3)
        bots = [BOTS[kind](random.Random(seat)) for seat in range(5)]
        for _ in range(8):
            if not game.can_start_hand():
                break
            game.start_hand()
            while game.in_hand:
                seat = game.waiting_for()[0]
                play_turn(game, seat, bots[seat])
        assert game.hands_played >= 1


@pytest.mark.parametrize("preset", ["galaxy_series", "cantina_spike"])
def test_sensible_beats_random(preset):
    summary = simulate(
        variant="corellian_spike", preset=preset, players=4, games=6, seed=5, bots=("random", "sensible")
    )
    assert summary.credits_conserved and summary.cards_accounted
    assert summary.wins["sensible"] > summary.wins["random"]


def test_simulate_command_takes_the_variant():
    out = io.StringIO()
    call_command(
        "simulate", "--variant", "corellian_spike", "--games", "2", "--players", "3", stdout=out, stderr=io.StringIO()
    )
    text = out.getvalue()
    assert "variant: corellian_spike, preset: galaxy_series, players: 3" in text
    assert "credits conserved: yes" in text and "all 62 cards accounted for: yes" in text
    with pytest.raises(CommandError, match="the presets are: galaxy_series, cantina_spike"):
        call_command("simulate", "--variant", "corellian_spike", "--preset", "cantina", stdout=out, stderr=out)
    with pytest.raises(CommandError, match="Unknown variant 'spike'"):
        call_command("simulate", "--variant", "spike", stdout=out, stderr=out)


def test_the_random_bot_uses_every_card_verb():
    seen = set()
    rng = random.Random(2)
    for seed in range(6):
        game = new_game(stacks=[30, 30, 30], seed=seed)
        bots = [RandomBot(random.Random(rng.random())) for _ in range(3)]
        while game.can_start_hand() and game.hands_played < 5:
            game.start_hand()
            while game.in_hand:
                seat = game.waiting_for()[0]
                seen.add(play_turn(game, seat, bots[seat]).verb)
    assert {"stand", "draw", "trade", "buy", "spike", "bet", "fold"} <= seen
