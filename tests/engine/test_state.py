"""The Game object: operations and their triads, illegal actions, views, fair shuffles, save/load, purity."""

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest

from games.engine import (
    PRESETS,
    VARIANTS,
    EngineError,
    Game,
    IllegalAction,
    InvalidOptions,
    InvalidState,
    ReplayError,
    resolve_options,
    verify_shuffle,
)
from games.engine.cards import Card, codes, encode_cards
from games.engine.draws import choice, randint
from games.engine.hand import Hand
from games.engine.shuffle import commitment, deck_from_seed, seeded
from tests.engine.helpers import check_round, new_game, peek_cards, play_hand, select_all, start

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def test_public_api_names():
    assert PRESETS == ("halcyon", "cantina", "better", "casino")
    assert VARIANTS == ("coruscant_shift", "corellian_spike")
    for error in (InvalidOptions, IllegalAction, ReplayError, InvalidState):
        assert issubclass(error, EngineError)
    options = resolve_options("coruscant_shift", "better", {"max_bet": 100})
    assert json.loads(json.dumps(options)) == options


def test_every_operation_has_verify_can_and_apply():
    game = new_game("cantina", stacks=[100, 100])
    for name in ("select", "check", "call", "bet", "raise_to", "fold", "all_in", "rebuy", "start_hand"):
        assert callable(getattr(game, name))
        assert callable(getattr(game, f"verify_{name}"))
        assert callable(getattr(game, f"can_{name}"))


def test_game_new_validates_players_and_dealer():
    options = resolve_options("coruscant_shift", "cantina")
    rng = random.Random(0)
    with pytest.raises(InvalidOptions, match="'Ann' appears twice"):
        Game.new(options=options, players=[("Ann", 5), ("Ann", 5)], rng=rng)
    with pytest.raises(InvalidOptions, match="stack must be a whole number"):
        Game.new(options=options, players=[("Ann", 5), ("Bob", -1)], rng=rng)
    with pytest.raises(InvalidOptions, match="dealer must be a seat from 0 to 1"):
        Game.new(options=options, players=[("Ann", 5), ("Bob", 5)], dealer=2, rng=rng)
    with pytest.raises(InvalidOptions, match="Unknown option 'foo'"):
        Game.new(options={"foo": 1}, players=[("Ann", 5), ("Bob", 5)], rng=rng)


def mid_hand_game() -> Game:
    game = new_game("better", stacks=[450] * 6, dealer=0)
    play_hand(game, winner=2)
    game.start_hand()
    select_all(game, {s: codes(peek_cards(game.hand, s))[:2] for s in range(6)})
    game.raise_to(game.waiting_for()[0], 30)
    game.call(game.waiting_for()[0])
    return game


def attempts(game: Game):
    seat = game.waiting_for()[0] if game.waiting_for() else 0
    other = (seat + 1) % len(game.names)
    yield lambda: game.check(other)
    yield lambda: game.bet(seat, 10**6)
    yield lambda: game.raise_to(seat, 1)
    yield lambda: game.raise_to(seat, "many")
    yield lambda: game.select(seat, ["+7c"])
    yield lambda: game.select(seat, ["zz"])
    yield lambda: game.start_hand()
    yield lambda: game.rebuy(seat, 10)
    yield lambda: game.check(99)
    yield lambda: game.check("Ann")
    yield lambda: game.select(seat, "+7c")
    yield lambda: game.bet(seat, 10.0)


def test_illegal_actions_are_refused_and_change_nothing():
    game = mid_hand_game()
    for attempt in attempts(game):
        before = (game.to_json(), game.view_for(0), game.spectator_view(), game.total_credits())
        with pytest.raises(EngineError) as caught:
            attempt()
        assert str(caught.value)
        assert (game.to_json(), game.view_for(0), game.spectator_view(), game.total_credits()) == before


def test_illegal_action_messages_say_what_is_allowed():
    game = mid_hand_game()
    seat = game.waiting_for()[0]
    with pytest.raises(IllegalAction, match=r"raise must take your total for this round to between 40 and \d+; got 31"):
        game.raise_to(seat, 31)
    with pytest.raises(IllegalAction, match="already opened at 30; call, raise or fold"):
        game.bet(seat, 40)
    assert (
        not game.can_bet(seat, 40)
        and game.can_raise_to(seat, 40)
        and not game.can_raise_to(seat, 39)
        and game.can_call(seat)
    )


def test_legal_actions_is_a_frozen_query_with_bounds():
    game = mid_hand_game()
    seat = game.waiting_for()[0]
    legal = game.legal_actions(seat)
    with pytest.raises(AttributeError):
        legal.can_call = False
    assert legal.verbs == ("call", "raise", "fold", "allin")
    assert legal.call_amount == 30 - game.hand.bets().get(seat, 0)
    assert legal.min_raise_to == 40  # the increment must be at least the min bet, 10
    nobody = game.legal_actions((seat + 3) % 6)
    assert nobody.verbs == ()


def test_save_and_load_mid_hand_gives_identical_behaviour():
    game = mid_hand_game()
    text = game.to_json()
    copy = Game.from_json(text)
    assert copy.to_json() == text
    assert copy.view_for(2) == game.view_for(2) and copy.spectator_view() == game.spectator_view()
    rng_a, rng_b = random.Random(9), random.Random(9)
    for _ in range(200):
        for g, rng in ((game, rng_a), (copy, rng_b)):
            if not g.in_hand:
                if g.is_over:
                    continue
                g.start_hand()
                continue
            seat = g.waiting_for()[0]
            legal = g.legal_actions(seat)
            verb = rng.choice(legal.verbs)
            if verb == "select":
                g.select(seat, list(legal.selectable[:1]))
            elif verb == "bet":
                g.bet(seat, legal.min_bet)
            elif verb == "raise":
                g.raise_to(seat, legal.min_raise_to)
            elif verb == "allin":
                g.all_in(seat)
            else:
                getattr(g, verb)(seat)
        assert game.to_json() == copy.to_json()
    assert game.stacks == copy.stacks and game.results[-1] == copy.results[-1]


def test_save_and_load_between_hands_and_after_rebuys():
    game = new_game("casino", stacks=[450, 10, 200])
    play_hand(game, winner=0, shove=(1,))
    game.rebuy(1, 300)
    copy = Game.from_json(game.to_json())
    assert copy.stacks == game.stacks and copy.to_json() == game.to_json()
    assert copy.start_hand().seats == game.start_hand().seats
    assert copy.to_json() == game.to_json()


def test_saved_mid_hand_state_is_compact():
    game = mid_hand_game()
    size = len(game.to_json())
    assert size < 4096, size


def test_damaged_saves_are_refused():
    with pytest.raises(InvalidState, match="format None is not supported"):
        Game.from_json("{}")
    with pytest.raises(InvalidState, match="damaged"):
        Game.from_json("not json")
    game = mid_hand_game()
    text = game.to_json().replace('"cur":"', '"cur":"9z,')
    with pytest.raises(InvalidState):
        Game.from_json(text)
    history = game.history_json().replace('"hist":[', '"hist":[{"a":["9z"]},')
    with pytest.raises(InvalidState, match="history does not belong"):
        Game.from_json(game.to_json(), history=history)
    with pytest.raises(InvalidState):
        Game.from_json(game.to_json(), history="not json")


def test_views_show_public_information_and_only_the_seats_own_cards():
    game = new_game("cantina", stacks=[100, 100, 100], dealer=0)
    start(
        game,
        ["+1s", "+2s", "+3s", "+4s", "+5s"],
        ["-1t", "-2t", "-3t", "-4t", "-5t"],
        ["+6c", "+7c", "+8c", "+9c", "+10c"],
        target=5,
        suit="square",
    )
    game.select(1, ["+1s", "+2s"])
    view = game.view_for(1)
    assert view["cards"] == ["+3s", "+4s", "+5s"] and view["selection"] == ["+1s", "+2s"]
    assert view["hand"]["target"] == 5 and view["hand"]["suit"] == "square"
    # RULES 1.2.4: the others' selection sizes stay hidden until the phase closes; a seat sees its own.
    assert [p["selection_size"] for p in view["players"]] == [None, 2, None]
    text = json.dumps(view)
    for hidden in ("-1t", "-5t", "+6c", "+10c"):
        assert hidden not in text
    spectator = json.dumps(game.spectator_view())
    for hidden in ("+1s", "+3s", "-1t", "+6c"):
        assert hidden not in spectator
    assert "seed" not in game.spectator_view()["hand"]
    assert game.view_for(0)["legal"]["verbs"] == ["select"]


def test_repr_and_str_never_show_hidden_cards_or_the_seed():
    game = new_game("cantina", stacks=[100, 100])
    hand = game.start_hand()
    secret = hand._seed
    for text in (repr(game), str(game), repr(hand), str(hand), repr(hand._log), str(hand._log)):
        assert secret not in text
        assert not re.search(r"[+-]\d+[cst]\b", text)


def _cards_in(value: object, seen: set[int] | None = None) -> list[Card]:
    """Every Card reachable from `value` through containers and dataclasses (not other objects)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, Card):
        return [value]
    if isinstance(value, dict):
        items = [*value.keys(), *value.values()]
    elif isinstance(value, list | tuple | set | frozenset):
        items = list(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        items = [getattr(value, f.name) for f in dataclasses.fields(value)]
    else:
        return []
    return [card for item in items for card in _cards_in(item, seen)]


def _public_values(thing: object) -> dict[str, object]:
    return {
        name: getattr(thing, name)
        for name in dir(thing)
        if not name.startswith("_") and not callable(getattr(thing, name))
    }


def test_hidden_cards_deck_and_seeds_stay_private_and_out_of_repr_at_every_step():
    game = new_game("cantina", stacks=[100, 100, 100], seed=3)
    for name in ("cards_of", "selection_of", "all_cards"):
        assert not hasattr(Hand, name), name
    hands = 0
    steps = 0
    while not game.is_over and hands < 4:
        if not game.in_hand:
            if hands == 1:  # one hand with a given deck: its deck is hidden just the same
                start(game, ["+1s", "+2s", "+3s", "+4s", "+5s"], ["-1t", "-2t", "-3t", "-4t", "-5t"])
            else:
                game.start_hand()
            hands += 1
        else:
            seat = game.waiting_for()[0]
            legal = game.legal_actions(seat)
            if legal.can_select:
                game.select(seat, list(legal.selectable[:2]))
            elif legal.can_check:
                game.check(seat)
            else:
                game.call(seat)
        hand = game.hand
        steps += 1
        secrets = [game._master, encode_cards(hand._deck)] + ([hand._seed] if hand._seed else [])
        for text in (repr(game), str(game), repr(hand), str(hand)):
            assert not any(secret in text for secret in secrets), text
            assert not re.search(r"[+-]\d+[cst]\b", text), text
        if game.in_hand:
            assert hand.seed is None and hand.showdown_cards() == {}
            assert _cards_in(_public_values(hand)) == []
            assert _cards_in(_public_values(game)) == []
    assert hands == 4 and steps > 20


def test_the_compiled_choice_and_randint_draw_exactly_as_random_random_does():
    # Sizes and ranges across bit lengths (rejections included); both generators end in the same state.
    for seed in range(200):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in (1, 2, 3, 5, 6, 7, 8, 9, 62, 100):
            items = tuple(range(size))
            assert choice(ours, items) == theirs.choice(items)
            assert randint(ours, -3, size) == theirs.randint(-3, size)
        assert randint(ours, 4, 4) == theirs.randint(4, 4)
        assert ours.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        choice(random.Random(1), ())
    with pytest.raises(ValueError):
        randint(random.Random(1), 3, 2)

    class Counting(random.Random):
        def choice(self, seq):
            return seq[-1]

    assert choice(Counting(1), (1, 2, 3)) == 3  # another generator class draws its own way


def test_a_generator_seeded_once_is_exactly_random_random_of_the_text():
    texts = ["", "a", "0123456789abcdef0123456789abcdef/dice", "é/reshuffle/3", "x" * 300]
    for text in texts + [f"{seed:032x}/reshuffle/{seed % 7}" for seed in range(300)]:
        ours, theirs = seeded(text), random.Random(text)
        assert ours.getstate() == theirs.getstate(), text
        assert [ours.random() for _ in range(3)] == [theirs.random() for _ in range(3)]
        assert ours.gauss(0, 1) == theirs.gauss(0, 1)
    assert seeded("a") is not seeded("a")  # a new generator each time: nothing shared between hands


def test_log_for_a_seat_hides_other_players_cards_until_the_showdown():
    game = new_game("cantina", stacks=[100, 100])
    hand = game.start_hand()
    select_all(game, {s: codes(peek_cards(hand, s))[:2] for s in (0, 1)})
    mine = hand.log_for(0)
    assert all(r.cards for r in mine if r.kind in ("deal", "select") and r.seat == 0)
    assert not any(r.cards for r in mine if r.kind in ("deal", "select") and r.seat == 1)
    assert not any(r.cards for r in hand.log_for(None) if r.kind in ("deal", "select"))
    check_round(game)
    select_all(game)
    check_round(game)
    revealed = [r for r in hand.log_for(None) if r.kind == "select" and r.amount]
    assert revealed and all(r.cards for r in revealed)


def test_fair_shuffle_commitment_is_published_before_and_seed_revealed_when_the_game_ends():
    game = new_game("cantina", stacks=[100, 100], hands=1)
    before = game.spectator_view()["next_hand"]["commitment"]
    hand = game.start_hand()
    published = game.spectator_view()["hand"]["commitment"]
    assert published == hand.commitment == before and len(published) == 64
    assert hand.seed is None
    dealt = [r.cards[0] for r in hand._log if r.kind == "deal"]
    select_all(game)
    check_round(game)
    select_all(game)
    check_round(game)
    assert game.is_over  # the one-hand game ends: now its seeds are revealed (RULES 1.7)
    assert game.spectator_view()["seeds_revealed"] is True
    (seeds,) = game.revealed_seeds()
    revealed = seeds["seed"]
    assert seeds["commitment"] == published and seeds["server_seed"] == revealed  # no entropy: the same seed
    assert revealed and commitment(revealed) == published
    deck = deck_from_seed(revealed)
    assert deck[:10] == dealt
    assert verify_shuffle(revealed, published, deck)
    assert not verify_shuffle(revealed, published, list(reversed(deck)))
    assert not verify_shuffle(revealed + "x", published, deck)


def test_hand_seeds_come_from_the_injected_rng():
    a = new_game("cantina", stacks=[100, 100], seed=4)
    b = new_game("cantina", stacks=[100, 100], seed=4)
    c = new_game("cantina", stacks=[100, 100], seed=5)
    assert a.start_hand().commitment == b.start_hand().commitment != c.start_hand().commitment


def test_a_given_deck_has_no_commitment():
    game = new_game("cantina", stacks=[100, 100])
    hand = start(game, ["+1s", "+2s", "+3s", "+4s", "+5s"], ["-1t", "-2t", "-3t", "-4t", "-5t"])
    assert hand.commitment is None and game.spectator_view()["hand"]["deck"] == "given"


def test_engine_is_pure_no_django_no_io_no_global_random_no_clock():
    for path in ENGINE.rglob("*.py"):
        if "bots" in path.parts:
            continue
        source = path.read_text()
        assert not re.search(r"^\s*(from|import) django", source, re.M), path
        assert not re.search(r"\brandom\.(random|randint|choice|shuffle|seed|getrandbits)\(", source), path
        assert not re.search(r"^\s*(from|import) (time|datetime|os|pathlib)\b", source, re.M), path
        assert "open(" not in source and "print(" not in source, path


def test_a_damaged_saved_deck_is_refused_without_showing_the_deck():
    # Hidden information leaves only through the views: an error (which may reach a user) never echoes a deck.
    game = new_game("cantina", stacks=[100, 100], dealer=0)
    game.start_hand(deck=deck_from_seed("given"))
    data = json.loads(game.to_json())
    encoded = data["cur"]["d"]
    data["cur"]["d"] = encoded[:30] + "!" + encoded[31:]
    with pytest.raises(InvalidState) as caught:
        Game.from_json(json.dumps(data))
    assert encoded[:30] not in str(caught.value) and encoded[31:] not in str(caught.value)
    assert "'!'" in str(caught.value)
