"""The bots: the sensible bot's card search, legal play in every preset, betting by strength, and hidden information."""

import json
import random
from itertools import combinations
from pathlib import Path

import pytest

from games.engine.bots import BOTS, Decision, RandomBot, SensibleBot, apply_decision, play_turn
from games.engine.bots.simulate import simulate
from games.engine.cards import full_deck, parse_card
from games.engine.coruscant.bots import looseness
from games.engine.coruscant.selection import best_selection, completion_chance, first_selection
from games.engine.dice import GOLD_FACES, Dice
from games.engine.options import PRESETS, build_options
from games.engine.state import Game
from tests.engine.helpers import full, peek_cards
from tests.engine.imports import imports_run

# ----- helpers ----------------------------------------------------------------------------------


def brute_force_best(cards: list[str], target: int, suit: str, fixed: list[str] = ()) -> tuple[int, int]:
    """(distance, suit count) of the best non-empty final selection, computed by plain enumeration."""
    best = None
    for size in range(len(cards) + 1):
        for added in combinations(cards, size):
            chosen = list(fixed) + list(added)
            if not chosen:
                continue
            total = sum(parse_card(c).value for c in chosen)
            in_suit = sum(1 for c in chosen if c == "0" or c.endswith(suit))
            key = (abs(total - target), -in_suit)
            best = key if best is None or key < best else best
    return best[0], -best[1]


def heads_up(deck_top: list[str], dice: Dice, preset: str = "cantina") -> Game:
    """Two players, seat 0 deals, so seat 1 is dealt first and acts first; the hand is started."""
    options = build_options("coruscant_shift", preset)
    game = Game.new(
        options=options, players=[("Dealer", 100), ("Left", 100)], dealer=0, rng=random.Random(0), preset=preset
    )
    game.start_hand(deck=full(deck_top), dice=dice)
    return game


def deal_order(seat0: list[str], seat1: list[str]) -> list[str]:
    """The top of the deck that deals `seat1` (left of the dealer, dealt first) and `seat0` their five cards."""
    return [card for pair in zip(seat1, seat0, strict=True) for card in pair]


def assert_legal(view: dict, decision: Decision) -> None:
    legal = view["legal"]
    assert decision.verb in legal["verbs"], (decision, legal)
    if decision.verb == "select":
        held = list(legal["selectable"])
        for card in decision.cards:
            assert card in held, (decision, legal)
            held.remove(card)
    if decision.verb == "bet":
        assert legal["min_bet"] <= decision.amount <= legal["max_bet"], (decision, legal)
    if decision.verb == "raise":
        assert legal["min_raise_to"] <= decision.amount <= legal["max_raise_to"], (decision, legal)


# ----- the card search --------------------------------------------------------------------------


def test_sensible_selects_all_five_of_bobs_hand():
    chosen, best = best_selection(["-8s", "-4c", "+2c", "+5t", "0"], -5, "c")
    assert sorted(c.code for c in chosen) == sorted(["-8s", "-4c", "+2c", "+5t", "0"])
    assert (best.total, best.distance, best.suit_count) == (-5, 0, 3)


def test_sensible_improves_janes_selection_with_all_four_new_cards():
    chosen, best = best_selection(["-3c", "-2t", "+5c", "0"], -5, "c", fixed=["-5c"])
    assert sorted(c.code for c in chosen) == sorted(["-3c", "-2t", "+5c", "0"])
    assert (best.total, best.distance, best.suit_count) == (-5, 0, 4)


def test_sylop_counts_in_the_target_suit():
    chosen, best = best_selection(["+5s", "0", "+5t"], 5, "s")
    assert sorted(c.code for c in chosen) == ["+5s", "0"]
    assert best.suit_count == 2


def test_selection_is_never_empty_when_a_card_is_held():
    chosen, best = best_selection(["+10c", "+9s"], -10, "t")
    assert [c.code for c in chosen] == ["+9s"]
    assert best.distance == 19


def test_improve_may_add_nothing_when_the_fixed_cards_already_hit():
    chosen, best = best_selection(["+3c", "+4s"], 5, "c", fixed=["+5c"])
    assert chosen == []
    assert (best.distance, best.suit_count) == (0, 1)


@pytest.mark.parametrize("seed", range(40))
def test_best_selection_matches_brute_force(seed):
    rng = random.Random(seed)
    deck = [c.code for c in full_deck()]
    rng.shuffle(deck)
    target, suit = rng.choice(GOLD_FACES), rng.choice("cst")
    fixed = deck[:2] if seed % 2 else []
    pool = deck[2:7] if seed % 2 else deck[:5]
    _, best = best_selection(pool, target, suit, fixed=fixed)
    assert (best.distance, best.suit_count) == brute_force_best(pool, target, suit, fixed)


def test_first_selection_keeps_a_hit_with_the_most_suit_cards():
    kept = first_selection(["-8s", "-4c", "+2c", "+5t", "0"], -5, "c")
    assert sorted(c.code for c in kept) == sorted(["-8s", "-4c", "+2c", "+5t", "0"])


def test_first_selection_leaves_room_to_complete_a_hand_that_cannot_hit_yet():
    # Every card is even and the target is odd, so nothing hits; the nearest totals miss by one.
    cards = ["+2c", "+2s", "+2t", "+4c", "-4s"]
    kept = first_selection(cards, 5, "c")
    total = sum(c.value for c in kept)
    assert kept and abs(total - 5) == 1
    assert len(kept) <= 2
    assert completion_chance(5 - total, 5 - len(kept)) > completion_chance(5 - 6, 0)


def test_completion_chance_is_a_probability_that_grows_with_slots():
    for gap in (-20, -7, 1, 10, 15):
        chances = [completion_chance(gap, slots) for slots in range(6)]
        assert chances[0] == 0.0
        assert all(0.0 <= p <= 1.0 for p in chances)
        assert chances[1] <= chances[3] <= chances[5]
    assert completion_chance(0, 0) == 1.0


# ----- legal play -------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("kinds", [("sensible",), ("random",), ("random", "sensible")])
def test_bots_never_act_illegally(preset, kinds):
    for number in range(6):
        players = 2 + (number * 3) % 7
        options = build_options("coruscant_shift", preset)
        game = Game.new(
            options=options,
            players=[(f"P{s}", options.starting_stack) for s in range(players)],
            rng=random.Random(number),
            preset=preset,
        )
        bots = [BOTS[kinds[s % len(kinds)]](random.Random(f"{number}/{s}")) for s in range(players)]
        decisions = 0
        while not game.is_over and game.hands_played < 40 and game.can_start_hand():
            game.start_hand()
            while game.in_hand:
                seat = game.waiting_for()[0]
                view = game.view_for(seat)
                decision = bots[seat].decide(view)
                assert_legal(view, decision)
                apply_decision(game, seat, decision)  # the engine refuses anything illegal
                decisions += 1
        assert decisions > 0


def test_registry_names_both_bots():
    assert {"random": RandomBot, "sensible": SensibleBot} == BOTS


# ----- betting by strength ----------------------------------------------------------------------

MISS = ["+1c", "+2s", "+3t", "+4c", "+6s"]  # all positive: nothing gets near -5
STRONG = ["-8s", "-4c", "+2c", "+5t", "0"]  # hits -5 with three circles
BARE = ["-2s", "-3s", "+7t", "+9t", "+8t"]  # hits -5 with no circle


@pytest.mark.parametrize("seed", range(25))
def test_sensible_folds_a_miss_when_facing_a_bet(seed):
    game = heads_up(deal_order(MISS, STRONG), Dice(-5, "circle"))
    bot = SensibleBot(random.Random(seed), bluff=0.5)
    play_turn(game, 1, SensibleBot(random.Random(0)))
    play_turn(game, 0, bot)
    assert game.hand.phase == "betting_1"
    game.bet(1, 5)
    assert game.waiting_for() == [0]
    assert bot.decide(game.view_for(0)) == Decision("fold")


@pytest.mark.parametrize("seed", range(10))
def test_sensible_checks_a_miss_when_free_unless_it_bluffs(seed):
    game = heads_up(deal_order(MISS, STRONG), Dice(-5, "circle"))
    game.select(1, STRONG)
    play_turn(game, 0, SensibleBot(random.Random(0)))
    game.check(1)
    calm = SensibleBot(random.Random(seed), bluff=0.0)
    assert calm.decide(game.view_for(0)) == Decision("check")


def test_sensible_bluffs_sometimes_and_only_by_opening():
    game = heads_up(deal_order(MISS, STRONG), Dice(-5, "circle"))
    game.select(1, STRONG)
    play_turn(game, 0, SensibleBot(random.Random(0)))
    game.check(1)
    view = game.view_for(0)
    verbs = [SensibleBot(random.Random(seed), bluff=0.3).decide(view).verb for seed in range(200)]
    assert set(verbs) == {"check", "bet"}
    assert 20 <= verbs.count("bet") <= 140


@pytest.mark.parametrize("seed", range(10))
def test_sensible_bets_a_strong_hit_when_free(seed):
    game = heads_up(deal_order(MISS, STRONG), Dice(-5, "circle"))
    bot = SensibleBot(random.Random(seed))
    play_turn(game, 1, bot)
    game.select(0, ["+1c"])
    decision = bot.decide(game.view_for(1))
    assert decision.verb == "bet"
    assert decision.amount >= 1


@pytest.mark.parametrize("seed", range(10))
def test_sensible_calls_a_small_bet_with_a_bare_hit_and_folds_a_big_one(seed):
    game = heads_up(deal_order(BARE, STRONG), Dice(-5, "circle"))
    bot = SensibleBot(random.Random(seed), bluff=0.0)
    game.select(1, STRONG)
    play_turn(game, 0, bot)
    assert sorted(game.view_for(0)["selection"]) == sorted(["-2s", "-3s"])
    small = Game.from_json(game.to_json())
    small.bet(1, 1)
    assert bot.decide(small.view_for(0)) == Decision("call")
    game.bet(1, 60)
    assert bot.decide(game.view_for(0)) == Decision("fold")


def test_sensible_beats_random_on_average():
    summary = simulate(preset="cantina", players=4, games=200, seed=11, bots=("random", "sensible"), max_hands=200)
    assert summary.games == 200
    assert summary.credits_conserved and summary.cards_accounted
    assert summary.wins["sensible"] >= 0.7 * summary.games, summary.wins


def test_sensible_beats_random_heads_up():
    summary = simulate(preset="better", players=2, games=150, seed=5, bots=("random", "sensible"), max_hands=200)
    assert summary.wins["sensible"] >= 0.65 * summary.games, summary.wins


# ----- hidden information -----------------------------------------------------------------------


def test_bots_decide_from_a_plain_json_view():
    options = build_options("coruscant_shift", "cantina")
    game = Game.new(options=options, players=[(f"P{s}", 100) for s in range(5)], rng=random.Random(4))
    game.start_hand()
    checked = 0
    while game.in_hand:
        seat = game.waiting_for()[0]
        view = game.view_for(seat)
        plain = json.loads(json.dumps(view))
        for kind, cls in BOTS.items():
            assert cls(random.Random(kind)).decide(plain) == cls(random.Random(kind)).decide(view)
        play_turn(game, seat, SensibleBot(random.Random(seat)))
        checked += 1
    assert checked >= 5


def test_a_view_holds_no_opponent_cards():
    options = build_options("coruscant_shift", "cantina")
    game = Game.new(options=options, players=[(f"P{s}", 100) for s in range(6)], rng=random.Random(8))
    game.start_hand()
    seat = game.waiting_for()[0]
    text = json.dumps(game.view_for(seat))
    for other in range(6):
        for card in peek_cards(game.hand, other):
            if card.is_sylop:
                continue
            assert (f'"{card.code}"' in text) == (other == seat)


class Recorder:
    """Wraps a bot and keeps every view it was given."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.kind = bot.kind
        self.views: list = []

    def decide(self, view: dict) -> Decision:
        self.views.append(view)
        return self.bot.decide(view)


@pytest.mark.parametrize("kind", sorted(BOTS))
def test_decisions_do_not_depend_on_hidden_cards(kind):
    """Same own cards, same dice, same public play, different opponents' cards and deck: same decisions."""
    mine = ["-8s", "-4c", "+2c", "+6t", "+1s"]
    decisions = []
    for opponent in (["+9c", "+8c", "+7c", "+6c", "+5c"], ["-9t", "-8t", "-7t", "-6t", "-5t"]):
        game = heads_up(deal_order(mine, opponent), Dice(-5, "circle"))
        bot = Recorder(BOTS[kind](random.Random(3)))
        seen = []
        seen.append(play_turn(game, 0, bot))
        game.select(1, [])
        game.check(1)
        seen.append(play_turn(game, 0, bot))
        assert all(isinstance(view, dict) for view in bot.views)
        decisions.append(seen)
    assert decisions[0] == decisions[1]


BOT_MODULES = [
    "bots/base",
    "bots/random_legal",
    "bots/sensible",
    "bots/betting",
    "coruscant/selection",
    "coruscant/bots",
    "spike/bots",
    "classic/bots",
]


@pytest.mark.parametrize("module", BOT_MODULES)
def test_bot_modules_cannot_reach_the_game_state(module):
    """A bot module imports nothing that holds hidden state (game, hand, saves, shuffles) and no Django at run time."""
    engine = Path(__file__).resolve().parents[2] / "games" / "engine"
    modules = {"games.engine." + ".".join(p.relative_to(engine).with_suffix("").parts) for p in engine.rglob("*.py")}
    runtime = imports_run(engine / f"{module}.py", modules)
    forbidden = {
        "games.engine.state",
        "games.engine.hand",
        "games.engine.coruscant.hand",
        "games.engine.spike.hand",
        "games.engine.classic.hand",
        "games.engine.serialize",
        "games.engine.shuffle",
    }
    assert not runtime & forbidden, runtime & forbidden
    assert not any(name.startswith("django") for name in runtime)


@pytest.mark.parametrize("cards", [BARE, MISS])
def test_sensible_big_blind_checks_a_weak_hand_when_nobody_raised(cards):
    game = heads_up(deal_order(STRONG, cards), Dice(-5, "circle"), preset="better")
    bot = SensibleBot(random.Random(1), bluff=0.0)
    game.select(0, STRONG)
    play_turn(game, 1, bot)
    assert game.waiting_for() == [0]  # heads-up, the dealer posts the small blind and acts first
    game.call(0)
    view = game.view_for(1)
    assert "check" in view["legal"]["verbs"]
    assert bot.decide(view) == Decision("check")


def test_fewer_opponents_mean_looser_play():
    assert looseness(1) > looseness(2) > looseness(3) > looseness(5) > looseness(7) >= 0.5
