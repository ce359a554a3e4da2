"""Mistakes, tie-breaks and the whole game at a real-cards table."""

import hashlib

import pytest

from games.engine.coruscant.dice import dice_from_seed
from games.engine.errors import IllegalAction, InvalidSelection, WrongPhase
from games.engine.realcards.due import due
from games.engine.shuffle import server_seed
from tests.engine.realcards.helpers import MASTER, coruscant_to_reveal, table


def credits(game):
    return game.game.total_credits()


def test_undo_takes_back_a_mis_tap_and_keeps_it_in_the_log():
    game = table()
    coruscant_to_reveal(game, keep=2)
    game.undo()  # the last call... the game is rebuilt without it
    assert due(game)["due"] == "act"
    seat = due(game)["seats"][0]
    total = credits(game)
    game.step({"step": "act", "seat": seat, "verb": "fold"})  # the corrected tap
    assert credits(game) == total == 300
    assert [list(c) for c in game.changes[-2:]] == [["undid"], ["did"]]
    assert game.steps[-1]["verb"] == "fold"


def test_undo_of_a_reveal_asks_for_it_again():
    game = table()
    coruscant_to_reveal(game, keep=2)
    game.step({"step": "reveal", "seat": 1, "cards": ["+3c", "-3c"]})
    game.undo()
    assert [row["seat"] for row in due(game)["seats"]] == [1, 2, 0]
    assert game.boards.get(1, {}) == {}
    with pytest.raises(WrongPhase, match="nothing to undo"):
        table().undo()


def test_a_reveal_is_corrected_until_the_next_deal():
    game = table()
    coruscant_to_reveal(game, keep=2)
    game.step({"step": "reveal", "seat": 1, "cards": ["+3c", "-3c"]})
    game.step({"step": "reveal", "seat": 2, "cards": ["+3s", "-2s"]})
    game.step({"step": "reveal", "seat": 0, "cards": ["+5t", "-5s"]})
    assert game.results()[-1]["pots"][0]["winners"] == ["P1"]
    # P1 really showed +3c -2c: the hand is settled again, the card now free for another hand.
    game.step({"step": "reveal", "seat": 1, "cards": ["+3c", "-2c"]})
    assert game.results()[-1]["pots"][0]["winners"] == ["P0"]
    assert game.stacks == [104, 98, 98] and credits(game) == 300
    assert len(game.results()) == 1
    game.step({"step": "deal"})
    with pytest.raises(WrongPhase, match="corrected only until the next hand is dealt"):
        game.step({"step": "reveal", "hand": 1, "seat": 1, "cards": ["+3c", "-3c"]})
    with pytest.raises(WrongPhase, match="nothing to show now"):
        game.step({"step": "reveal", "seat": 1, "cards": ["+3c", "-3c"]})


def test_a_tie_under_the_draw_rule_asks_for_the_cards_turned_over():
    game = table(preset="halcyon", stack=10)
    d = coruscant_to_reveal(game, keep=2)
    assert d["due"] == "reveal"
    game.step({"step": "reveal", "seat": 1, "cards": ["+3c", "-3c"]})
    game.step({"step": "reveal", "seat": 2, "cards": ["+4c", "-4c"]})  # the same distance and circles
    game.step({"step": "reveal", "seat": 0, "cards": ["+9s", "+1s"]})
    d = due(game)
    assert d["due"] == "card" and d["seat"] is None
    with pytest.raises(InvalidSelection, match="already shown"):
        game.step({"step": "card", "card": "+3c"})  # shown already
    game.step({"step": "card", "card": "+2t"})  # P1 turns over +2t
    game.step({"step": "card", "card": "+7s"})  # P2 turns over +7s and wins
    assert due(game)["due"] == "deal"
    (pot,) = game.results()[-1]["pots"]
    assert pot["winners"] == ["P2"]
    assert credits(game) == 30


def test_a_sudden_demise_asks_each_tied_player_for_one_more_card():
    options = {"shift_rolls": "off", "call_round": 1, "max_rounds": 1}
    game = table(variant="classic", preset="classic", players=2, options=options)
    game.step({"step": "deal"})
    while (d := due(game))["due"] == "act":
        seat = d["seats"][0]
        verbs = d["choices"][seat]["verbs"]
        verb = "stand" if "stand" in verbs else "check"
        game.step({"step": "act", "seat": seat, "verb": verb})
    assert d["due"] == "reveal" and [row["cards"] for row in d["seats"]] == [2, 2]
    game.step({"step": "reveal", "seat": 1, "cards": ["+10s", "+5s"]})
    game.step({"step": "reveal", "seat": 0, "cards": ["+10f", "+5f"]})
    d = due(game)
    assert d["due"] == "card" and d["seat"] == 1
    with pytest.raises(Exception, match="not seat 0"):
        game.step({"step": "card", "seat": 0, "card": "+2c"})
    game.step({"step": "card", "seat": 1, "card": "+2c"})
    assert due(game)["seat"] == 0
    game.step({"step": "card", "seat": 0, "card": "+1c"})
    assert due(game)["due"] == "deal"
    (pot,) = game.results()[-1]["pots"]
    assert pot["winners"] == ["P1"]  # 17 beats 16
    assert credits(game) == 200


def test_the_site_rolls_from_the_committed_hand_seed():
    game = table()
    seed = server_seed(MASTER, 1)
    assert due(game)["commitment"] == hashlib.sha256(seed.encode()).hexdigest()  # published before the deal
    with pytest.raises(WrongPhase, match="revealed when the game ends"):
        game.revealed_seed()
    game.step({"step": "deal"})
    assert due(game)["commitment"] == hashlib.sha256(seed.encode()).hexdigest()
    game.step({"step": "dice", "by": "site"})
    assert game.steps[-1]["dice"] == dice_from_seed(seed).to_dict()
    assert "seed" not in str(due(game)).lower()


def test_halcyon_each_player_deals_once():
    game = table(preset="halcyon", players=3, stack=10)
    dealers = []
    while due(game)["due"] == "deal":
        dealers.append(due(game)["dealer"])
        coruscant_to_reveal(game, keep=2, fold=(0, 1, 2))
    assert dealers == [0, 1, 2]
    assert due(game)["due"] == "game_over"
    assert credits(game) == 30


def test_forced_bets_follow_the_levels_entered_between_hands():
    game = table(preset="better")
    coruscant_to_reveal(game, keep=1, fold=(1, 2))
    game.step({"step": "levels", "ante": 0, "small_blind": 25, "big_blind": 50})
    game.step({"step": "deal"})
    assert game.game.hand.contributions == {2: 25, 0: 50, 1: 0}
    assert credits(game) == 300


def test_spike_a_player_left_alone_shows_their_hand_for_the_sabacc_pot():
    game = table(variant="corellian_spike", preset="galaxy_series", players=2)
    game.step({"step": "deal"})
    assert game.stacks == [97, 97]  # ante 2 and Sabacc ante 1, posted automatically
    seat = due(game)["seats"][0]
    game.step({"step": "act", "seat": seat, "verb": "trade", "source": "pilot"})  # price 1: dead money
    assert game.stacks[seat] == 96
    other = due(game)["seats"][0]
    game.step({"step": "act", "seat": other, "verb": "stand"})
    first = due(game)["seats"][0]
    game.step({"step": "act", "seat": first, "verb": "fold"})
    d = due(game)
    winner = 1 - first
    assert d["due"] == "reveal" and d["seats"] == [{"seat": winner, "player": f"P{winner}", "cards": 2}]
    game.step({"step": "reveal", "seat": winner, "cards": ["+4c", "-4s"]})
    assert due(game)["due"] == "deal"
    summary = game.results()[-1]
    assert summary["sabacc_pot"]["winners"] == [f"P{winner}"]
    assert credits(game) == 200


def test_the_table_may_name_each_pots_winners_instead_of_showing():
    game = table(players=3, options={"odd_credits": "carry"})
    d = coruscant_to_reveal(game, keep=2)
    assert d["or_name_winners"] == [{"pot": 0, "amount": 6, "eligible": [0, 1, 2]}]
    with pytest.raises(Exception, match="pot is one of 0"):
        game.step({"step": "winners", "pot": 3, "seats": [1]})
    with pytest.raises(Exception, match="one or more of those who may win it"):
        game.step({"step": "winners", "pot": 0, "seats": []})
    game.step({"step": "winners", "pot": 0, "seats": [2, 0]})
    assert due(game)["due"] == "deal"
    assert game.stacks == [101, 98, 101]  # 6 split two ways
    assert game.results()[-1]["pots"][0]["winners"] == ["P2", "P0"]
    with pytest.raises(WrongPhase):
        game.step({"step": "reveal", "seat": 1, "cards": ["+3c", "-3c"]})


def test_named_winners_split_odd_credits_as_the_preset_says():
    game = table(players=4, options={"odd_credits": "carry"})
    coruscant_to_reveal(game, keep=2, fold=(3,))
    game.step({"step": "winners", "pot": 0, "seats": [1, 2]})  # 8 credits: 4 each
    assert game.stacks == [98, 102, 102, 98]
    game.step({"step": "deal"})
    assert game.game.hand.carry_in == 0
    game2 = table(players=3, options={"odd_credits": "carry", "ante": 3})
    coruscant_to_reveal(game2, keep=2)
    game2.step({"step": "winners", "pot": 0, "seats": [1, 2, 0][:2]})  # 9 credits: 4 each, 1 carried
    assert game2.stacks == [97, 101, 101] and game2.game.carry == 1
    assert credits(game2) == 300


def test_spike_names_the_sabacc_pot_among_the_main_pots_winners():
    game = table(variant="corellian_spike", preset="galaxy_series", players=2)
    game.step({"step": "deal"})
    while (d := due(game))["due"] == "act":
        seat = d["seats"][0]
        verbs = d["choices"][seat]["verbs"]
        verb = "stand" if "stand" in verbs else "check"
        game.step({"step": "act", "seat": seat, "verb": verb})
        if due(game)["due"] == "dice":
            game.step({"step": "dice", "dice": [2, 5]})
    assert due(game)["due"] == "reveal"
    game.step({"step": "winners", "pot": 0, "seats": [1]})
    assert due(game)["due"] == "winners"
    with pytest.raises(Exception, match="only to the main pot's winners"):
        game.step({"step": "winners", "pot": "sabacc", "seats": [0]})
    game.step({"step": "winners", "pot": "sabacc", "seats": [1]})
    assert game.stacks == [97, 103] and credits(game) == 200
    assert game.results()[-1]["sabacc_pot"]["winners"] == ["P1"]


def test_classic_pots_need_the_cards():
    options = {"shift_rolls": "off", "call_round": 1, "max_rounds": 1}
    game = table(variant="classic", preset="classic", players=2, options=options)
    game.step({"step": "deal"})
    while (d := due(game))["due"] == "act":
        seat = d["seats"][0]
        game.step({"step": "act", "seat": seat, "verb": "stand" if "stand" in d["choices"][seat]["verbs"] else "check"})
    assert "or_name_winners" not in d
    with pytest.raises(WrongPhase, match="settles pots from the cards shown"):
        game.step({"step": "winners", "pot": 0, "seats": [1]})


def test_the_roller_is_named_as_the_option_says():
    game = table(preset="halcyon", stack=10)
    game.step({"step": "deal"})
    assert due(game)["roller"] == 1  # Halcyon: the player on the dealer's left rolls
    game = table()
    game.step({"step": "deal"})
    assert due(game)["roller"] == 0 and due(game)["says"].startswith("P0: roll the gold and silver dice")


def test_between_hands_a_casino_table_takes_add_ons_joins_and_leaves_then_closes():
    game = table(preset="casino", players=3, stack=450)
    coruscant_to_reveal(game, keep=1, fold=(1, 2))
    with pytest.raises(IllegalAction, match="add_on takes seat, amount; got cards"):
        game.step({"step": "add_on", "seat": 1, "amount": 50, "cards": ["+1c"]})
    game.step({"step": "add_on", "seat": 1, "amount": 50})
    game.step({"step": "join", "name": "Dee", "stack": 200})
    leaving_with = game.stacks[2]
    game.step({"step": "leave", "seat": 2})
    assert credits(game) == 1350 + 50 + 200 - leaving_with
    coruscant_to_reveal(game, keep=1, fold=(0, 3))
    assert 2 not in game.game.hand.seats and 3 in game.game.hand.seats
    game.step({"step": "close"})
    assert due(game)["due"] == "game_over"
    with pytest.raises(WrongPhase):
        game.step({"step": "deal"})


def test_a_reveal_is_corrected_after_a_between_hands_step_too():
    game = table()
    coruscant_to_reveal(game, keep=2)
    for seat, cards in ((1, ["+3c", "-3c"]), (2, ["+3s", "-2s"]), (0, ["+5t", "-5s"])):
        game.step({"step": "reveal", "seat": seat, "cards": cards})
    game.step({"step": "levels", "ante": 4, "small_blind": 0, "big_blind": 0})
    game.step({"step": "reveal", "seat": 1, "cards": ["+3c", "-2c"]})
    assert game.results()[-1]["pots"][0]["winners"] == ["P0"]
    game.step({"step": "deal"})
    assert game.game.hand.forced == {2: 4, 0: 4, 1: 4}


@pytest.mark.parametrize(("variant", "preset"), [("classic", "classic"), ("corellian_spike", "galaxy_series")])
def test_a_lone_player_after_folds_may_decline_to_show(variant, preset):
    game = table(variant=variant, preset=preset, players=2)
    game.step({"step": "deal"})
    while (d := due(game))["due"] in ("act", "dice"):
        if d["due"] == "dice":
            game.step({"step": "dice", "dice": [1, 2]})
            continue
        seat = d["seats"][0]
        verbs = d["choices"][seat]["verbs"]
        game.step({"step": "act", "seat": seat, "verb": "fold" if "fold" in verbs else "stand"})
    assert d["due"] == "reveal" and d["or_name_winners"] == []
    (row,) = d["seats"]
    with pytest.raises(IllegalAction):
        game.step({"step": "winners", "pot": 0, "seats": [row["seat"]]})  # the pots are paid already
    if variant == "classic":
        with pytest.raises(IllegalAction, match="taken by showing the hand"):
            game.step({"step": "winners", "pot": "sabacc", "seats": [row["seat"]]})
    game.step({"step": "winners", "pot": "sabacc", "seats": []})
    assert due(game)["due"] == "deal"
    assert game.results()[-1]["sabacc_pot"] != 0 and credits(game) == 200
    assert game.game.pools  # the Sabacc pot stays for the next hand
