"""Helpers for Corellian Spike tests: games with stacked decks, scripted replay documents, and peeks at
hidden state that only tests may take (outside the engine, cards leave only through the views)."""

import random

from games.engine import Game, parse_card
from games.engine.cards import full_deck
from games.engine.options import build_options
from games.engine.replay import play_replay
from games.engine.spike.dice import SpikeDice
from tests.engine.helpers import full

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
# Dice that do not match: no spikes.
NO_MATCH = (1, 2)


def new_game(
    preset: str = "galaxy_series", stacks: list[int] | None = None, dealer: int = 0, seed: int = 1, **overrides
) -> Game:
    stacks = stacks or [100, 100]
    return Game.new(
        options=build_options("corellian_spike", preset, overrides),
        players=list(zip(NAMES[: len(stacks)], stacks, strict=True)),
        dealer=dealer,
        rng=random.Random(seed),
        variant="corellian_spike",
        preset=preset,
    )


def start(game: Game, *hands: list[str], then: list[str] = (), dice: tuple[int, int] | None = NO_MATCH):
    """Start the next hand dealing `hands` (two cards each, in dealing order: the dealer's left first), then
    `then` in order: the first face-up card, then what play takes from the draw pile."""
    cards = [hand[i] for i in range(2) for hand in hands]
    return game.start_hand(deck=full(cards + list(then)), dice=None if dice is None else SpikeDice(*dice))


def peek(game: Game, seat: int) -> list[str]:
    """The cards `seat` holds: hidden state, read for tests only."""
    return [c.code for c in game.hand._cards[seat]]


def market(game: Game) -> list[str]:
    return [c.code for c in game.hand._market]


def everyone(game: Game, verb: str, **args) -> None:
    """Every awaited seat in turn does `verb` until nobody in this phase is left to do it."""
    phase = game.hand.phase
    while game.in_hand and game.hand.phase == phase and game.waiting_for():
        game.act(game.waiting_for()[0], verb, **args)


def check_round(game: Game) -> None:
    """Everyone checks the current betting round."""
    everyone(game, "check")


def stand_round(game: Game) -> None:
    """Every card turn of the current round is a stand."""
    everyone(game, "stand")


def scripted_document(
    final: dict[str, list[str]],
    *,
    preset: str = "galaxy_series",
    options: dict | None = None,
    stacks: int = 50,
) -> dict:
    """A one-hand replay document in which each player (in dealing order: the first listed is dealt first, the
    last listed deals) ends with exactly the listed cards: two dealt, then one drawn per round for the rest
    (standing in the later rounds), everyone checking every betting round, the spike dice not matching."""
    players = list(final)
    used = [parse_card(c) for cards in final.values() for c in cards]
    spare = full_deck()
    for card in used:
        spare.remove(card)
    deck: list[str] = []
    deck += [final[p][i] for i in range(2) for p in players]
    actions: list[dict] = []
    face_up = spare.pop(0)
    deck.append(face_up.code)
    for round_number in (1, 2, 3):
        if round_number > 1:
            deck.append(spare.pop(0).code)  # the new Pilot
        for player in players:
            extra = final[player][2:]
            if len(extra) >= round_number:
                deck.append(extra[round_number - 1])
                actions.append({"player": player, "do": "draw"})
            else:
                actions.append({"player": player, "do": "stand"})
        actions += [{"player": p, "do": "check"} for p in players]
    return {
        "format": "sabacc-replay/1",
        "variant": "corellian_spike",
        "preset": preset,
        "options": options or {},
        "seats": [{"player": p, "stack": stacks} for p in players],
        "dealer": players[-1],
        "hands": [{"deck": deck, "dice": list(NO_MATCH), "actions": actions}],
    }


def showdown(final: dict[str, list[str]], **kwargs) -> dict:
    """The one hand of `scripted_document(final)` as the replay result shows it."""
    return play_replay(scripted_document(final, **kwargs))["hands"][0]


def passive(game: Game) -> None:
    """Play the rest of the hand standing in every card turn and checking every betting turn."""
    while game.in_hand:
        seat = game.waiting_for()[0]
        game.act(seat, "check" if "check" in game.legal_actions(seat).verbs else "stand")
