"""RULES 2.5, presets and options: every option overridable and checked, the discard-pile market, costs."""

import random

import pytest

from games.engine import Game, InvalidOptions
from games.engine.errors import IllegalAction, WrongPhase
from games.engine.options import build_options, resolve_options, variant_presets
from tests.engine.spike.helpers import check_round, new_game, peek, stand_round, start

GALAXY = {
    "starting_stack": 100,
    "ante": 2,
    "sabacc_ante": 1,
    "min_bet": 1,
    "min_raise": "min_bet",
    "max_bet": None,
    "market": "galaxy",
    "market_prices": [1, 2, 3],
    "gain_from_discard": True,
    "gain_cost": 0,
    "swap_cost": 0,
    "spike_dice": True,
    "odd_credits": "left_of_dealer",
    "hands": None,
}
# A value other than the presets' for every option.
OTHER = {
    "starting_stack": 40,
    "ante": 3,
    "sabacc_ante": 0,
    "min_bet": 2,
    "min_raise": "last_increment",
    "max_bet": 20,
    "market": "discard_pile",
    "market_prices": [0, 1, 5],
    "gain_from_discard": False,
    "gain_cost": 1,
    "swap_cost": 2,
    "spike_dice": False,
    "odd_credits": "carry",
    "hands": 7,
}


def test_2_5_the_presets():
    assert variant_presets()["corellian_spike"] == ("galaxy_series", "cantina_spike")
    assert resolve_options("corellian_spike", "galaxy_series") == GALAXY


@pytest.mark.parametrize("name", sorted(OTHER))
def test_2_5_every_option_can_be_overridden(name):
    for preset in ("galaxy_series", "cantina_spike"):
        options = resolve_options("corellian_spike", preset, {name: OTHER[name]})
        assert options[name] == OTHER[name]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"antee": 1}, "Unknown option 'antee'; the options are: starting_stack, ante,"),
        ({"ante": 0}, "Option 'ante' must be a whole number of at least 1"),
        ({"sabacc_ante": -1}, "Option 'sabacc_ante' must be a whole number of at least 0"),
        ({"starting_stack": 0}, "Option 'starting_stack' must be a whole number of at least 1"),
        ({"min_bet": True}, "Option 'min_bet' must be a whole number"),
        ({"hands": 0}, "Option 'hands' must be a whole number of at least 1 and at most 1,000,000,000 or null"),
        ({"max_bet": 1, "min_bet": 2}, "Option 'max_bet' (1) must be at least the min bet (2)"),
        ({"market": "bazaar"}, "Option 'market' must be one of galaxy, discard_pile; got 'bazaar'."),
        ({"odd_credits": "burn"}, "Option 'odd_credits' must be one of left_of_dealer, carry"),
        ({"market_prices": [1, 2]}, "Option 'market_prices' must be three whole numbers"),
        ({"market_prices": [1, -2, 3]}, "Option 'market_prices' must be three whole numbers"),
        ({"gain_from_discard": "yes"}, "Option 'gain_from_discard' must be true or false"),
        ({"gain_cost": -1}, "Option 'gain_cost' must be a whole number of at least 0"),
        ({"escalation": "cantina"}, "Unknown option 'escalation'"),
    ],
)
def test_2_5_bad_options_are_refused_saying_what_is_allowed(overrides, message):
    with pytest.raises(InvalidOptions) as caught:
        build_options("corellian_spike", "galaxy_series", overrides)
    assert str(caught.value).startswith(message)


def test_2_5_unknown_presets_are_refused():
    with pytest.raises(InvalidOptions, match="the presets are: galaxy_series, cantina_spike"):
        build_options("corellian_spike", "cantina")


def test_2_5_a_table_seats_2_to_8():
    options = build_options("corellian_spike", "galaxy_series")
    for count in (1, 9):
        with pytest.raises(InvalidOptions, match="A table seats 2 to 8 players"):
            Game.new(
                options=options,
                players=[(f"P{i}", 10) for i in range(count)],
                rng=random.Random(1),
                variant="corellian_spike",
            )
    with pytest.raises(InvalidOptions, match="give variant='corellian_spike' too"):
        Game.new(options=options, players=[("A", 10), ("B", 10)], rng=random.Random(1))


def test_2_5_1_the_defaults_seed_004_leaves_open_are_the_cantinas():
    options = build_options("corellian_spike", "galaxy_series")
    assert (options.starting_stack, options.min_bet, options.max_bet, options.odd_credits) == (
        100,
        1,
        None,
        "left_of_dealer",
    )


def test_2_5_2_cantina_spike_is_the_hand_with_seed_001s_plain_host_options():
    assert resolve_options("corellian_spike", "cantina_spike") == {
        **GALAXY,
        "market": "discard_pile",
        "gain_from_discard": False,
    }


def test_2_5_3_the_discard_pile_market():
    game = new_game("cantina_spike")
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["-7t", "+8c", "+9c"])
    hand = game.hand
    assert hand.sources() == ["discard"]
    view = game.spectator_view()["hand"]
    assert view["market"] == [] and view["discard_top"] == "-7t"
    with pytest.raises(IllegalAction, match="there is no pilot at this table"):
        game.act(1, "trade", card="+1c", source="pilot")
    with pytest.raises(WrongPhase, match="'gain_from_discard'"):
        game.act(1, "buy", source="discard")
    # Take first, then give: Bob gets -7t and +1c lies face up on top.
    game.act(1, "trade", card="+1c", source="discard")
    assert peek(game, 1) == ["+2c", "-7t"] and game.spectator_view()["hand"]["discard_top"] == "+1c"
    game.act(0, "trade", card="+4c", source="deck")  # face up too
    assert game.spectator_view()["hand"]["discard_top"] == "+4c"
    check_round(game)
    # Nothing is turned up at the start of round 2.
    assert game.spectator_view()["hand"]["market"] == [] and game.hand.draw_pile_size() == 62 - 4 - 1 - 1
    game = new_game("cantina_spike", gain_from_discard=True, gain_cost=2)
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["-7t"])
    game.act(1, "buy", source="discard")
    assert peek(game, 1) == ["+1c", "+2c", "-7t"] and game.hand.card_costs[1] == 2
    with pytest.raises(IllegalAction, match="the discard pile is empty"):
        game.act(0, "buy", source="discard")


def test_2_5_4_gain_and_swap_costs_price_the_plain_moves_not_the_market():
    game = new_game(gain_cost=2, swap_cost=1)
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c", "+7c", "+8c"])
    legal = game.legal_actions(1)
    assert legal.draw_cost == 2 and dict(legal.trade_from) == {"deck": 1, "pilot": 1}
    game.act(1, "draw")
    game.act(0, "trade", card="+3c", source="deck")
    assert game.hand.card_costs == {1: 2, 0: 1}
    check_round(game)
    game.act(1, "trade", card="+1c", source="wing")  # the Wing's price, 2, and no swap cost on top
    assert game.hand.card_costs[1] == 4


def test_2_5_5_with_the_galaxy_market_no_gain_from_discard_forbids_buying():
    game = new_game(gain_from_discard=False)
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c"])
    assert "buy" not in game.legal_actions(1).verbs
    state = game.to_json()
    with pytest.raises(WrongPhase, match="Buying without giving a card is off at this table"):
        game.act(1, "buy", source="pilot")
    assert game.to_json() == state
    game.act(1, "trade", card="+1c", source="pilot")
    assert "+5c" in peek(game, 1)
    stand_round(game)
