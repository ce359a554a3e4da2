"""Helpers for Classic tests: games with stacked decks written as each player's two cards, listed rolls,
and peeks at hidden state that only tests may take (outside the engine, cards leave only through views)."""

import random

from games.engine import Game
from games.engine.classic.cards import full_deck, parse_cards
from games.engine.classic.chance import RollSpec
from games.engine.classic.order import complete_pile, deck_label
from games.engine.options import build_options

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
# Rolls that are never pairs: a stacked hand has no Shift unless a test lists one.
NO_PAIRS = [(1, 2)] * 200


def new_game(
    preset: str = "classic", stacks: list[int] | None = None, dealer: int | None = 0, seed: int = 1, **options
):
    stacks = stacks or [100, 100]
    return Game.new(
        options=build_options("classic", preset, options),
        players=list(zip(NAMES[: len(stacks)], stacks, strict=True)),
        dealer=dealer,
        rng=random.Random(seed),
        variant="classic",
        preset=preset,
    )


def seat(game: Game, name: str) -> int:
    return game.names.index(name)


def start(game: Game, hands: dict[str, list[str]], then: list[str] = (), rolls=None, piles=None):
    """Start the next hand with `hands` (player -> two cards) dealt, then `then` on top of the draw pile;
    `rolls` (default: never a pair) and `piles` (top cards of each new pile) as a replay lists them."""
    dealer = game._next_dealer()
    n = len(game.names)
    order = [(dealer + step) % n for step in range(1, n + 1)]
    order = [s for s in order if game.stacks[s] > 0]
    listed = [hands[game.names[s]][i] for i in range(2) for s in order] + list(then)
    deck = complete_pile(parse_cards(listed), full_deck(), 0, deck_label(game.hands_played + 1))
    spec = RollSpec(rolls=tuple(NO_PAIRS if rolls is None else rolls), order_seed=0)
    return game.start_hand(deck=deck, dice=spec, reshuffles=[parse_cards(p) for p in piles or []])


def act(game: Game, name: str, verb: str, **args) -> None:
    game.act(seat(game, name), verb, **args)


def hand_of(game: Game, name: str) -> list[str]:
    """The cards `name` holds outside the field: hidden state, read for tests only."""
    return sorted(card.code for card in game.hand._hand[seat(game, name)])


def field_of(game: Game, name: str) -> list[str]:
    return sorted(card.code for card in game.hand._field[seat(game, name)])


def stand_all(game: Game) -> None:
    """Every player of the open play round stands."""
    while game.in_hand and game.hand.phase == "play" and game.waiting_for():
        game.act(game.waiting_for()[0], "stand")


def check_round(game: Game, call_hand_by: str | None = None) -> None:
    """Everyone checks (or calls) until the betting round is over; `call_hand_by` calls the hand on their turn."""
    number = game.hand.round_number
    while game.in_hand and game.hand.phase == "betting" and game.hand.round_number == number and game.waiting_for():
        who = game.waiting_for()[0]
        args = {"call_hand": True} if game.names[who] == call_hand_by else {}
        verb = "check" if game.legal_actions(who).can_check else "call"
        game.act(who, verb, **args)


def play_rounds(game: Game, rounds: int) -> None:
    """Stand and check through `rounds` whole rounds."""
    for _ in range(rounds):
        stand_all(game)
        check_round(game)


def call_at_once(game: Game, caller: str) -> None:
    """Stand and check up to round `call_round`, where `caller` calls the hand; then the reveal."""
    while game.in_hand:
        stand_all(game)
        if game.hand.round_number >= game.options.call_round:
            check_round(game, call_hand_by=caller)
        else:
            check_round(game)
