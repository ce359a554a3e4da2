"""Classic bots: random-legal bots only make legal decisions; the sensible bot avoids bombing out, locks good
cards, calls the hand when ahead and beats random bots; `manage.py simulate --variant classic`."""

import io
import random

import pytest
from django.core.management import call_command

from games.engine.bots import apply_decision, play_turn
from games.engine.bots.classic import ClassicRandomBot, ClassicSensibleBot
from games.engine.bots.simulate import simulate
from tests.engine.classic.helpers import new_game, seat, stand_all, start


def test_random_bots_only_make_legal_decisions_in_both_presets():
    for preset in ("classic", "universe"):
        game = new_game(preset, stacks=[40, 40, 40, 40], dealer=None, seed=5)
        bots = [ClassicRandomBot(random.Random(s)) for s in range(4)]
        while game.can_start_hand() and game.hands_played < 10:
            game.start_hand()
            while game.in_hand:
                who = game.waiting_for()[0]
                play_turn(game, who, bots[who])  # an illegal decision would raise
        assert game.hands_played >= 1


def sensible(game, name: str):
    return ClassicSensibleBot(random.Random(0)).decide(game.view_for(seat(game, name)))


def test_sensible_bot_trades_away_the_card_that_bombs_it_out():
    game = new_game()
    start(game, {"Ann": ["+10s", "+5f"], "Bob": ["+15c", "+14t"]})
    decision = sensible(game, "Bob")
    assert decision.verb == "trade" and decision.card == "+15c"


def test_sensible_bot_stands_and_locks_its_biggest_card_when_close_to_23():
    game = new_game()
    start(game, {"Ann": ["+10s", "+5f"], "Bob": ["+15c", "+6t"]})
    decision = sensible(game, "Bob")
    assert decision.verb == "stand" and decision.lock == "+15c"
    apply_decision(game, seat(game, "Bob"), decision)
    assert game.spectator_view()["players"][seat(game, "Bob")]["field"] == ["+15c"]


def test_sensible_bot_draws_when_far_from_23():
    game = new_game()
    start(game, {"Ann": ["+10s", "+5f"], "Bob": ["+2c", "+3t"]})
    assert sensible(game, "Bob").verb == "draw"


def test_sensible_bot_calls_the_hand_and_bets_when_ahead_and_folds_a_bombed_hand_to_a_bet():
    game = new_game(call_round=1)
    start(game, {"Ann": ["+15s", "+9f"], "Bob": ["+15c", "+8t"]})
    stand_all(game)
    decision = sensible(game, "Bob")
    assert decision.verb == "bet" and decision.call_hand
    apply_decision(game, seat(game, "Bob"), decision)
    assert sensible(game, "Ann").verb == "fold"


def test_sensible_bots_beat_random_bots():
    summary = simulate(
        variant="classic", preset="classic", players=4, games=12, seed=3, bots=("sensible", "random"), max_hands=60
    )
    assert summary.credits_conserved and summary.cards_accounted
    assert summary.wins["sensible"] > summary.wins["random"]


def test_simulate_command_for_classic_prints_the_checks():
    out = io.StringIO()
    call_command("simulate", "--variant", "classic", "--games", "3", "--players", "3", stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    assert "variant: classic, preset: classic, players: 3" in text
    assert "credits conserved: yes" in text and "all 76 cards accounted for: yes" in text


def test_simulate_refuses_a_preset_of_another_variant():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="Unknown preset 'cantina' for classic; the presets are: classic, universe"):
        call_command("simulate", "--variant", "classic", "--preset", "cantina", stdout=io.StringIO())
