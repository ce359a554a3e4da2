"""RULES 3.4 (bombing out and its penalty) and 3.3 at the table: who wins, Sudden Demise, equal hands."""

from tests.engine.classic.helpers import act, check_round, new_game, stand_all, start


def reveal(game, hands, then=(), bet=0, rolls=None, piles=None):
    """Deal `hands`, everyone stands, and the first player bets `bet` (or checks) and calls the hand in round 1;
    everyone else calls."""
    start(game, hands, then=list(then), rolls=rolls, piles=piles)
    stand_all(game)
    first = game.waiting_for()[0]
    if bet:
        game.act(first, "bet", amount=bet, call_hand=True)
    else:
        game.act(first, "check", call_hand=True)
    check_round(game)
    assert not game.in_hand
    return game.results[-1]


def test_3_4_a_bombed_out_player_pays_the_whole_hand_pot_into_the_sabacc_pot_and_wins_nothing():
    game = new_game(call_round=1)
    result = reveal(game, {"Ann": ["+15s", "+9f"], "Bob": ["+9c", "+4t"]}, bet=10)
    assert result["showdown"]["Ann"]["hand"] == "bomb_out" and result["showdown"]["Ann"]["total"] == 24
    assert result["penalties"] == {"Ann": 22}  # Ruling 3.4.1: the whole hand pot, 2 antes and 20 bet
    assert result["pots"][0]["winners"] == ["Bob"]
    assert result["stacks"] == {"Ann": 100 - 12 - 22, "Bob": 100 - 12 + 22}
    assert result["sabacc_pot"] == {
        "before": 0,
        "antes": 2,
        "penalties": 22,
        "from_pots": 0,
        "winners": [],
        "paid": {},
        "after": 24,
    }
    assert game.total_credits() == 200


def test_3_4_2_a_penalty_is_capped_by_the_stack():
    game = new_game(stacks=[15, 100], call_round=1)
    result = reveal(game, {"Ann": ["+15s", "+9f"], "Bob": ["+9c", "+4t"]}, bet=10)
    assert result["penalties"] == {"Ann": 3}
    assert result["stacks"]["Ann"] == 0
    assert game.total_credits() == 115


def test_3_4_0_and_minus_24_bomb_out_too_but_an_idiots_array_does_not():
    game = new_game(stacks=[100, 100, 100], call_round=1)
    hands = {"Ann": ["+2s", "-2"], "Bob": ["-17", "-8"], "Cat": ["0", "+2c"]}
    start(game, hands, then=["+3f"])
    act(game, "Bob", "stand")
    act(game, "Cat", "draw")
    act(game, "Ann", "stand")
    check_round(game, call_hand_by="Bob")
    result = game.results[-1]
    assert [result["showdown"][p]["hand"] for p in ("Ann", "Bob", "Cat")] == ["bomb_out", "bomb_out", "idiots_array"]
    assert set(result["penalties"]) == {"Ann", "Bob"}


def test_3_4_3_penalties_are_paid_first_so_a_sabacc_pot_won_in_the_hand_includes_them():
    game = new_game(stacks=[100, 100, 100], call_round=1)
    result = reveal(game, {"Ann": ["+10s", "+5f"], "Bob": ["+15c", "+8t"], "Cat": ["+15t", "+14t"]}, bet=4)
    assert result["penalties"] == {"Cat": 15}
    assert result["sabacc_pot"]["winners"] == ["Bob"]
    assert result["sabacc_pot"]["paid"] == {"Bob": 3 + 15}
    assert result["sabacc_pot"]["after"] == 0
    assert result["stacks"]["Bob"] == 100 - 2 - 4 + 15 + 18


def test_3_4_4_when_everyone_bombs_out_penalties_are_due_and_the_hand_pot_goes_to_the_sabacc_pot():
    game = new_game(call_round=1)
    result = reveal(game, {"Ann": ["+15s", "+9f"], "Bob": ["+15c", "+14t"]}, bet=5)
    assert result["penalties"] == {"Ann": 12, "Bob": 12}
    assert result["pots"] == [{"amount": 12, "eligible": ["Ann", "Bob"], "winners": [], "paid": {}}]
    assert result["sabacc_pot"]["from_pots"] == 12
    assert result["sabacc_pot"]["after"] == 2 + 24 + 12
    assert sum(result["stacks"].values()) + result["sabacc_pot"]["after"] == 200


def test_3_4_5_a_side_pot_whose_players_all_bombed_out_goes_to_the_sabacc_pot():
    game = new_game(stacks=[100, 12, 100], call_round=1)
    start(game, {"Ann": ["+15s", "+9f"], "Bob": ["+10c", "+4t"], "Cat": ["+15c", "+14t"]})
    stand_all(game)
    act(game, "Bob", "allin", call_hand=True)  # 10 left after both antes
    act(game, "Cat", "raise", amount=20)
    act(game, "Ann", "call")
    result = game.results[-1]
    main, side = result["pots"]
    assert main == {"amount": 33, "eligible": ["Ann", "Bob", "Cat"], "winners": ["Bob"], "paid": {"Bob": 33}}
    assert side == {"amount": 20, "eligible": ["Ann", "Cat"], "winners": [], "paid": {}}
    assert result["penalties"] == {"Ann": 53, "Cat": 53}
    assert result["sabacc_pot"]["from_pots"] == 20
    assert result["sabacc_pot"]["winners"] == []  # Bob's 14 is an ordinary hand
    assert sum(result["stacks"].values()) + result["sabacc_pot"]["after"] == 212


def test_3_3_sudden_demise_at_the_table_and_its_card_stays_for_later_pots():
    game = new_game(stacks=[100, 100, 100], call_round=1)
    hands = {"Ann": ["+15s", "+5f"], "Bob": ["+10c", "+10t"], "Cat": ["+2s", "+3s"]}
    result = reveal(game, hands, then=["+2c", "+1c"])
    # Bob and Ann tie at 20: Bob (dealer's left first) gets +2c, Ann +1c; Bob's 22 wins.
    assert result["pots"][0]["winners"] == ["Bob"]
    assert result["showdown"]["Bob"]["sudden_demise"] == {"cards": ["+2c"], "total": 22, "hand": "ordinary"}
    assert result["showdown"]["Ann"]["sudden_demise"] == {"cards": ["+1c"], "total": 21, "hand": "ordinary"}
    assert result["showdown"]["Bob"]["total"] == 20  # the hand shown at the reveal
    assert result["penalties"] == {}


def test_3_3_a_sudden_demise_bomb_out_pays_no_penalty_and_the_pot_goes_to_the_next_best_hand():
    game = new_game(stacks=[100, 100, 100], call_round=1)
    hands = {"Ann": ["+15s", "+5f"], "Bob": ["+10c", "+10t"], "Cat": ["+2s", "+3s"]}
    result = reveal(game, hands, then=["+9c", "+8c"])
    assert result["pots"][0]["winners"] == ["Cat"]
    assert result["showdown"]["Bob"]["sudden_demise"]["hand"] == "bomb_out"
    assert result["penalties"] == {}


def test_3_3_7_tied_pure_sabaccs_play_a_sudden_demise_for_the_sabacc_pot_too():
    game = new_game(call_round=1)
    result = reveal(game, {"Ann": ["+15s", "+8f"], "Bob": ["+15c", "+8t"]}, then=["+1c", "-2"])
    # Bob draws +1c (24, bombed out), Ann -2 (21): Ann wins, and her Pure Sabacc shown at the reveal takes the pot.
    assert result["pots"][0]["winners"] == ["Ann"]
    assert result["sabacc_pot"]["winners"] == ["Ann"] and result["sabacc_pot"]["paid"] == {"Ann": 2}
    assert result["penalties"] == {}


def test_3_3_7_a_tie_of_ordinary_hands_never_wins_the_sabacc_pot_whatever_it_draws():
    game = new_game(call_round=1)
    result = reveal(game, {"Ann": ["+15s", "+5f"], "Bob": ["+10c", "+10t"]}, then=["+3c", "+1c"])
    assert result["showdown"]["Bob"]["sudden_demise"]["hand"] == "pure_sabacc"
    assert result["pots"][0]["winners"] == ["Bob"]
    assert result["sabacc_pot"]["winners"] == [] and result["sabacc_pot"]["after"] == 2


def test_3_3_an_idiots_array_beats_a_pure_sabacc_and_takes_the_sabacc_pot():
    game = new_game(call_round=1)
    start(game, {"Ann": ["+15s", "+8f"], "Bob": ["0", "+2c"]}, then=["+3t"])
    act(game, "Bob", "draw")
    act(game, "Ann", "stand")
    check_round(game, call_hand_by="Bob")
    result = game.results[-1]
    assert result["showdown"]["Bob"]["hand"] == "idiots_array" and result["showdown"]["Ann"]["hand"] == "pure_sabacc"
    assert result["pots"][0]["winners"] == ["Bob"]
    assert result["sabacc_pot"]["winners"] == ["Bob"]
