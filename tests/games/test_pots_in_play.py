"""The pots a table shows while a hand is played (`games.history.pots_in_play`): an uncalled bet is a bet, not a side
pot; a side pot appears only where an all-in caps a seat's share; a seat still able to call is never shown as unable
to win a pot. Once every bet is matched they are the engine's pots exactly, and the total is always the engine's."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.bots import RandomBot, SensibleBot, apply_decision
from games.engine.bots.classic import ClassicRandomBot
from games.engine.options import build_options, variant_presets
from games.engine.state import Game
from games.history import pots_in_play

PRESETS = [(variant, preset) for variant, presets in variant_presets().items() for preset in presets]


def _game(variant: str, preset: str, stacks: list[int], seed: int = 1) -> Game:
    options = build_options(variant, preset)
    return Game.new(
        options=options,
        players=[(f"P{s + 1}", stack) for s, stack in enumerate(stacks)],
        rng=random.Random(seed),
        variant=variant,
        preset=preset,
        dealer=0,
    )


def _to_betting(game: Game) -> None:
    """Play the Coruscant Shift selections (everyone keeps one card) up to the first betting decision."""
    while game.in_hand and "select" in game.legal_actions(game.waiting_for()[0]).verbs:
        seat = game.waiting_for()[0]
        game.select(seat, [game.view_for(seat)["cards"][0]])


def test_an_uncalled_bet_is_no_side_pot_and_the_seat_to_act_can_win_it():
    game = _game("coruscant_shift", "cantina", [100, 100, 100])
    game.start_hand()
    _to_betting(game)
    bettor = game.waiting_for()[0]
    legal = game.legal_actions(bettor)
    game.bet(bettor, legal.min_bet + 3)
    view = game.spectator_view()
    engine = view["hand"]["pots"]
    assert len(engine) == 2  # the engine slices the uncalled bet off (it settles the hand from these)
    shown = pots_in_play(view)
    assert shown == [{"amount": sum(p["amount"] for p in engine), "eligible": [0, 1, 2]}]
    assert game.view_for(0)["hand"]["pots"] == engine  # the engine's view is unchanged


def test_an_all_in_for_less_makes_a_side_pot_the_short_stack_cannot_win():
    game = _game("coruscant_shift", "cantina", [100, 100, 6])
    game.start_hand()
    _to_betting(game)
    while game.in_hand and 2 not in [s for s in range(3) if game.view_for(s)["players"][s].get("all_in")]:
        seat = game.waiting_for()[0]
        verbs = game.legal_actions(seat).verbs
        if seat == 2 and "allin" in verbs:
            game.all_in(seat)
        elif "bet" in verbs:
            game.bet(seat, game.legal_actions(seat).max_bet)
        elif "raise" in verbs and seat != 2:
            game.raise_to(seat, game.legal_actions(seat).max_raise_to)
        elif "call" in verbs:
            game.call(seat)
        else:
            game.check(seat)
    view = game.spectator_view()
    shown = pots_in_play(view)
    assert len(shown) == 2 and 2 in shown[0]["eligible"] and 2 not in shown[1]["eligible"]
    live = [row["seat"] for row in view["players"] if row.get("in_hand") and not row.get("all_in")]
    assert all(set(live) <= set(pot["eligible"]) for pot in shown)
    assert sum(p["amount"] for p in shown) == sum(p["amount"] for p in view["hand"]["pots"])


def _check(view: dict) -> None:
    engine = (view.get("hand") or {}).get("pots") or []
    shown = pots_in_play(view)
    assert sum(p["amount"] for p in shown) == sum(p["amount"] for p in engine)
    rows = [row for row in view["players"] if "contributed" in row]
    if not engine or not rows:
        assert shown == engine
        return
    live = {row["seat"] for row in rows if not row["folded"] and not row["all_in"]}
    for pot in shown:
        assert live <= set(pot["eligible"]), (pot, live)  # a seat that can still call can win every pot
    top = max(row["contributed"] for row in rows)
    for row in rows:
        if row["all_in"] and not row["folded"]:  # eligible for the pots up to its contribution, and no others
            flags = [row["seat"] in pot["eligible"] for pot in shown]
            assert flags == sorted(flags, reverse=True)
            assert all(flags) == (row["contributed"] >= top)
    if all(row["contributed"] == top for row in rows if row["seat"] in live):
        assert shown == engine  # every bet matched: the engine's pots, which settle the hand


@settings(max_examples=40, deadline=None)
@given(
    which=st.sampled_from(PRESETS),
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    sensible=st.booleans(),
    short=st.booleans(),
)
def test_the_pots_shown_keep_the_engines_credits_and_seats_after_every_decision(which, players, seed, sensible, short):
    variant, preset = which
    options = build_options(variant, preset)
    rng = random.Random(seed)
    # Some short stacks, so that all-ins for less (and real side pots) come up.
    stacks = [rng.randint(2, options.starting_stack) if short else options.starting_stack for _ in range(players)]
    game = _game(variant, preset, stacks, seed)
    if variant == "classic":
        bots = [ClassicRandomBot(random.Random(seed + s)) for s in range(players)]
    else:
        kind = SensibleBot if sensible and variant == "coruscant_shift" else RandomBot
        bots = [kind(random.Random(seed + s)) for s in range(players)]
    hands = 0
    while game.can_start_hand() and hands < 5:
        game.start_hand()
        _check(game.spectator_view())
        while game.in_hand:
            seat = game.waiting_for()[0]
            apply_decision(game, seat, bots[seat].decide(game.view_for(seat)))
            _check(game.spectator_view())
        hands += 1
