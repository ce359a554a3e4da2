"""Helpers for engine tests: games with stacked decks, written as each player's five cards, and peeks
at hidden state that only tests may take (outside the engine, cards leave only through the views); bots driving
a game of any variant step by step, and replay results compared without the orders that do not matter."""

import json
import random

import pytest

from games.engine import Dice, Game, ReplayError, parse_card, resolve_options
from games.engine.bots import apply_decision
from games.engine.cards import full_deck
from games.engine.replay import play_replay


def peek_cards(hand, seat: int) -> list:
    """The cards `seat` holds outside its selection: hidden state, read for tests only."""
    return list(hand._cards.get(seat, []))


def peek_selection(hand, seat: int) -> list:
    """The cards `seat` has selected: hidden state, read for tests only."""
    return list(hand._selection.get(seat, []))


def full(codes: list[str]) -> list:
    """The listed cards on top (first = top), then the rest of the 62 in canonical order."""
    cards = [parse_card(c) for c in codes]
    rest = full_deck()
    for card in cards:
        rest.remove(card)
    return cards + rest


def deck(*hands: list[str], then: list[str] = ()) -> list:
    """A draw pile dealing `hands` (dealing order: dealer's left first, five cards each), then `then`."""
    size = max(len(h) for h in hands)
    cards = [hand[i] for i in range(size) for hand in hands]
    return full(cards + list(then))


def new_game(
    preset: str = "cantina",
    stacks: list[int] | None = None,
    dealer: int | None = 0,
    seed: int = 1,
    **overrides,
) -> Game:
    stacks = stacks or [100, 100]
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"][: len(stacks)]
    options = resolve_options("coruscant_shift", preset, overrides)
    return Game.new(
        options=options,
        players=list(zip(names, stacks, strict=True)),
        dealer=dealer,
        rng=random.Random(seed),
        preset=preset,
    )


def start(game: Game, *hands: list[str], then: list[str] = (), target: int = 0, suit: str = "circle"):
    """Start the next hand with a stacked deck; `hands` in dealing order from the dealer's left."""
    return game.start_hand(deck=deck(*hands, then=list(then)), dice=Dice(target, suit))


def select_all(game: Game, choices: dict[int, list[str]] | None = None) -> None:
    """Everyone the game waits for in a select/improve phase selects (nothing, unless `choices` says)."""
    choices = choices or {}
    for seat in list(game.waiting_for()):
        game.select(seat, choices.get(seat, []))


def check_round(game: Game) -> None:
    """Everyone checks (or calls when owing) until the betting round is over."""
    phase = game.hand.phase
    while game.in_hand and game.hand.phase == phase and game.waiting_for():
        seat = game.waiting_for()[0]
        if game.can_check(seat):
            game.check(seat)
        else:
            game.call(seat)


def play_hand(game: Game, winner: int, shove: tuple[int, ...] = ()) -> dict:
    """Start and finish a hand that `winner` wins: only they select a card; the others fold, or go all-in
    when listed in `shove`, and show nothing."""
    game.start_hand()
    return finish_hand(game, winner, shove)


def finish_hand(game: Game, winner: int, shove: tuple[int, ...] = ()) -> dict:
    """Finish the current hand as `play_hand` does."""
    while game.in_hand:
        seat = game.waiting_for()[0]
        legal = game.legal_actions(seat)
        if legal.can_select:
            game.select(seat, list(legal.selectable[:1]) if seat == winner else [])
        elif seat in shove and legal.can_all_in:
            game.all_in(seat)
        elif seat != winner:
            game.fold(seat)
        elif legal.can_check:
            game.check(seat)
        else:
            game.call(seat)
    return game.results[-1]


def bot_steps(game: Game, bots: list, *, max_hands: int, limit: int | None = None):
    """Drive `game` with `bots` (one per seat) for at most `max_hands` hands (and `limit` steps), yielding
    (seat, decision) after every start (seat None) and decision."""
    done = 0
    while limit is None or done < limit:
        if game.in_hand:
            seat = game.waiting_for()[0]
            decision = bots[seat].decide(game.view_for(seat))
            apply_decision(game, seat, decision)
            yield seat, decision
        elif not game.is_over and game.hands_played < max_hands and game.can_start_hand():
            game.start_hand()
            yield None, None
        else:
            return
        done += 1


def replay_decisions(game: Game, decisions: list) -> Game:
    """`game` given the steps `bot_steps` took in another (seat None: a hand started; else the seat's decision)."""
    for seat, decision in decisions:
        if seat is None:
            game.start_hand()
        else:
            apply_decision(game, seat, decision)
    return game


UNORDERED = ("eligible", "winners", "folded")


def normal(value):
    """A replay's result without the orders that do not matter: names in eligible/winners/folded."""
    if isinstance(value, dict):
        return {k: sorted(v) if k in UNORDERED else normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normal(v) for v in value]
    return value


def check_replay_fixture(path, normal_form=normal) -> None:
    """A replay fixture file (JSON: the replay and its expected result or error) gives that result, compared in
    `normal_form`, or that error, on one line."""
    fixture = json.loads(path.read_text())
    if "error" in fixture:
        with pytest.raises(ReplayError) as caught:
            play_replay(fixture["replay"])
        assert str(caught.value) == fixture["error"]
        assert "\n" not in str(caught.value)
    else:
        assert normal_form(play_replay(fixture["replay"])) == normal_form(fixture["result"])
