"""RULES 2.1, deck and dice."""

import random

import pytest

from games.engine.bots import RandomBot, play_turn
from games.engine.cards import full_deck, parse_cards
from games.engine.errors import EngineError
from games.engine.spike.dice import SpikeDice, dice_from_seed, parse_spike_dice
from games.engine.spike.evaluation import is_suited
from games.engine.variant import get_variant
from tests.engine.spike.helpers import everyone, full, new_game, start


def test_2_1_the_deck_is_the_62_cards_of_1_1():
    deck = get_variant("corellian_spike").deck()
    assert deck == full_deck() and len(deck) == 62
    game = new_game()
    game.start_hand()
    assert game.card_count() == 62


def test_2_1_1_a_sylop_never_breaks_a_suit():
    assert is_suited(parse_cards(["+3c", "0"]))
    assert is_suited(parse_cards(["+3c", "-4c", "0", "0"]))
    assert not is_suited(parse_cards(["+3c", "-4s", "0"]))
    assert is_suited(parse_cards(["0", "0"]))


def test_2_1_2_the_dice_match_when_both_show_the_same_face():
    assert SpikeDice(5, 5).match
    assert not SpikeDice(5, 6).match
    rolls = {dice_from_seed(f"seed-{i}") for i in range(300)}
    assert {d.first for d in rolls} == set(range(1, 7)) == {d.second for d in rolls}
    assert any(d.match for d in rolls) and any(not d.match for d in rolls)
    for bad in ([0, 1], [1, 7], [1], [1, 2, 3], ["1", 2], [1.0, 2], [True, 2], "55"):
        with pytest.raises(EngineError, match="two whole numbers from 1 to 6"):
            parse_spike_dice(bad)


def test_2_1_3_the_draw_pile_never_runs_out_with_eight_players():
    game = new_game(stacks=[50] * 8)
    # Every seat trades with the draw pile in every round and the dice match: the most cards a hand takes.
    hand = game.start_hand(deck=full([]), dice=SpikeDice(3, 3))
    for _ in range(3):
        while game.in_hand and hand.phase.startswith(("cards", "spike")):
            seat = game.waiting_for()[0]
            card = game.view_for(seat)["cards"][0]
            if hand.phase == "spike":
                game.act(seat, "spike", card=card)
            else:
                game.act(seat, "trade", card=card, source="deck")
        everyone(game, "check")
    assert game.hand.is_complete
    # 16 dealt, 3 Pilots, 8 trades in each of 3 rounds, 8 spikes: 51 of 62 (Ruling 2.1.3).
    assert game.hand.draw_pile_size() == 62 - 51
    assert game.hand.reshuffled == []
    assert game.card_count() == 62


def test_2_1_every_card_is_in_exactly_one_place_at_every_moment():
    game = new_game(stacks=[30, 30, 30])
    bots = [RandomBot(random.Random(seat)) for seat in range(3)]
    for _ in range(5):
        if not game.can_start_hand():
            break
        game.start_hand()
        while game.in_hand:
            play_turn(game, game.waiting_for()[0], bots[game.waiting_for()[0]])
            hand = game.hand
            cards = hand._all_cards()
            assert sorted(c.code for c in cards) == sorted(c.code for c in full_deck())


def test_2_1_dice_are_rolled_only_when_round_3_opens():
    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c"], dice=(6, 6))
    assert game.spectator_view()["hand"]["spike_dice"] is None
    for _ in range(2):
        everyone(game, "stand")
        everyone(game, "check")
    assert game.spectator_view()["hand"]["spike_dice"] == [6, 6]
    assert game.hand.phase == "spike"
