"""RULES 2.6, the end of the game: the button, players going out, the end, what is left paid out, standings."""

from games.engine.replay import export_replay, play_replay
from tests.engine.spike.helpers import new_game, passive, stand_round, start


def _showdown_hand(game, *hands, then):
    start(game, *hands, then=then)
    passive(game)


def test_2_6_the_button_moves_clockwise_to_the_next_player_with_credits():
    game = new_game(stacks=[50, 3, 50], dealer=0)
    # Bob (3 credits) is all-in from the antes and loses with a Nulrhek against Cat's Sabacc.
    _showdown_hand(game, ["+9c", "+8c"], ["+5c", "-5s"], ["+1c", "+3c"], then=["+1s", "+2s", "+3s"])
    assert game.stacks[1] == 0 and game.out_at == {1: 1}
    game.start_hand()
    assert game.hand.dealer == 2  # Bob is passed over
    assert game.hand.seats == [0, 2]


def test_2_6_the_game_ends_when_one_player_holds_credits_and_2_6_1_the_pots_left_are_paid_to_them():
    game = new_game(stacks=[3, 50])
    # Ann (3 credits, all-in from the antes) loses with a Nulrhek: Bob holds every credit in stacks.
    _showdown_hand(game, ["+1c", "+3c"], ["+9c", "+8c"], then=["+1s", "+2s", "+3s"])
    assert game.is_over
    # Bob's +4 is no Sabacc: the Sabacc pot (2) is left, and paid to Bob at the end (Ruling 2.6.1, amended).
    assert game.stacks == [0, 53] and game.pools == {} and game.leftovers_paid == {1: 2}
    assert game.total_credits() == 53
    standings = game.standings()
    assert [(r["player"], r["place"], r["stack"]) for r in standings] == [("Bob", 1, 53), ("Ann", 2, 0)]


def test_2_6_1_after_a_hands_limit_the_sabacc_pot_is_split_odd_credits_from_the_dealers_left():
    game = new_game(stacks=[50, 50, 3], hands=1, sabacc_ante=1)
    # Cat antes her 3 and loses; nobody's hand totals zero, so the Sabacc pot (3) is left when the game ends.
    start(game, ["+1c", "+3c"], ["+9c", "+8c"], ["+9s", "+7s"], then=["+1s", "+2s", "+3s", "+4s", "+5s", "+6s"])
    passive(game)
    assert game.is_over and game.results[-1]["sabacc_pot"]["carry_over"] == 3
    # Ann dealt: Bob, on her left, takes the odd credit; Cat holds none and takes nothing.
    assert game.leftovers_paid == {1: 2, 0: 1} and game.stacks == [48, 55, 0] and game.pools == {}
    assert sum(game.stacks) == 103
    result = play_replay(export_replay(game))
    assert result["leftovers"] == {"Bob": 2, "Ann": 1} and result["sabacc_pot"] == 0
    assert result["stacks"] == {"Ann": 48, "Bob": 55, "Cat": 0}


def test_2_6_1_the_carry_over_stays_too():
    game = new_game(stacks=[4, 4, 50], ante=1, sabacc_ante=0, odd_credits="carry")
    # Ann and Bob (all-in after betting 3 each) tie with equal Nulrheks; Cat folds.
    start(game, ["+9c", "+8c"], ["+4c", "+3c"], ["+9s", "+8s"], then=["+1s", "+2s", "+3s"])
    stand_round(game)
    game.act(1, "allin")
    game.act(2, "fold")
    game.act(0, "allin")
    for _ in range(2):
        stand_round(game)
    assert not game.in_hand
    # Main pot: 4 + 4 + Cat's ante 1 = 9, split 4 and 4, one carried.
    assert game.results[-1]["pots"][0]["paid"] == {"Bob": 4, "Ann": 4} and game.carry == 1
    assert not game.is_over


def test_2_6_a_hands_limit_ends_the_game():
    game = new_game(hands=2)
    for _ in range(2):
        _showdown_hand(game, ["+9c", "+8c"], ["+1c", "+3c"], then=["+1s", "+2s", "+3s"])
    assert game.is_over and game.hands_played == 2
    assert not game.can_start_hand()


def test_2_6_seeds_are_revealed_when_the_game_ends():
    game = new_game(stacks=[3, 50])
    _showdown_hand(game, ["+1c", "+3c"], ["+9c", "+8c"], then=["+1s", "+2s", "+3s"])
    assert game.is_over
    game = new_game(hands=1)
    game.start_hand()
    passive(game)
    assert game.is_over
    (seed,) = game.revealed_seeds()
    assert seed["hand"] == 1 and len(seed["server_seed"]) == 32
