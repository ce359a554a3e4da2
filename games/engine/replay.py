"""The `sabacc-replay/1` format (docs/replay.md): play a document to its result, and export any game.

`play_replay(document)` validates the document, plays every listed hand through the engine's
ordinary operations and returns a `sabacc-replay-result/1` dict. Anything wrong raises
`ReplayError` with a one-line message naming the problem; for an action, its hand, index (from 1),
player and verb, and why it is illegal.

A replay fixes the deck, so the fair-shuffle commitment does not apply to its hands: they are
played with the given deck and show `"deck": "given"` and no commitment in views.
"""

import random
from typing import Any

from games.engine.cards import codes, decode_cards, full_deck, parse_card
from games.engine.dice import decode_dice, parse_dice
from games.engine.errors import EngineError, IllegalAction, InvalidCard, ReplayError
from games.engine.options import PRESETS, build_options
from games.engine.serialize import decode_action
from games.engine.shuffle import deck_from_seed, dice_from_seed, hand_seed
from games.engine.state import Game
from games.engine.views import hand_summary

FORMAT = "sabacc-replay/1"
RESULT_FORMAT = "sabacc-replay-result/1"
VERBS = ("select", "check", "call", "bet", "raise", "fold", "allin")


def play_replay(document: dict) -> dict:
    """Play a replay document and return its result; raise `ReplayError` on any problem."""
    game, hands = _setup(document)
    for number, hand in enumerate(hands, start=1):
        _play_hand(game, number, hand, document.get("seed", 0))
    return replay_result(game)


def replay_result(game: Game) -> dict:
    summaries = list(game.results)
    if game.in_hand:
        summaries.append(hand_summary(game, game.hand))
    return {
        "format": RESULT_FORMAT,
        "complete": not game.in_hand,
        "hands": summaries,
        "stacks": {name: game.stacks[s] for s, name in enumerate(game.names)},
        "carry_over": game.carry,
        "finished": game.over,
        "standings": [{"player": r["player"], "place": r["place"], "stack": r["stack"]} for r in game.standings()],
    }


def _fail(message: str) -> ReplayError:
    return ReplayError(" ".join(str(message).split()))


def _setup(document: Any) -> tuple[Game, list]:
    if not isinstance(document, dict):
        raise _fail(f'The replay must be a JSON object with "format": "{FORMAT}".')
    if document.get("format") != FORMAT:
        raise _fail(f'Unknown replay format {document.get("format")!r}; expected "{FORMAT}".')
    variant = document.get("variant", "coruscant_shift")
    preset = document.get("preset")
    if preset not in PRESETS:
        raise _fail(f"Unknown preset {preset!r}; the presets are: {', '.join(PRESETS)}.")
    overrides = document.get("options") or {}
    if not isinstance(overrides, dict):
        raise _fail("options: must be an object of option names and values.")
    try:
        options = build_options(variant, preset, overrides)
    except EngineError as exc:
        raise _fail(f"options: {exc}") from None
    seats = document.get("seats")
    if not isinstance(seats, list) or not 2 <= len(seats) <= 8:
        raise _fail('seats: must be a list of 2 to 8 entries like {"player": "Bob", "stack": 100}.')
    players = []
    for index, seat in enumerate(seats, start=1):
        if not isinstance(seat, dict) or not isinstance(seat.get("player"), str) or not seat["player"].strip():
            raise _fail(f'seats: entry {index} needs a "player" name.')
        stack = seat.get("stack", options.starting_stack)
        players.append((seat["player"], stack))
    names = [name for name, _ in players]
    dealer = document.get("dealer")
    if dealer is not None and dealer not in names:
        raise _fail(f"dealer: {dealer!r} is not one of the seated players ({', '.join(names)}).")
    seed = document.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise _fail(f"seed: must be a whole number; got {seed!r}.")
    try:
        game = Game.new(
            options=options,
            players=players,
            dealer=None if dealer is None else names.index(dealer),
            rng=random.Random(f"sabacc-replay/{seed}"),
            variant=variant,
            preset=preset,
        )
    except EngineError as exc:
        raise _fail(str(exc)) from None
    hands = document.get("hands", [])
    if not isinstance(hands, list):
        raise _fail("hands: must be a list of hands, each with deck, dice and actions.")
    return game, hands


def _full_deck(number: int, listed: Any, seed: Any) -> list:
    if listed is None:
        listed = []
    if not isinstance(listed, list):
        raise _fail(f"Hand {number} deck: must be a list of card codes, top card first.")
    try:
        cards = [parse_card(code) for code in listed]
    except InvalidCard as exc:
        raise _fail(f"Hand {number} deck: {exc}") from None
    rest = full_deck()
    for card in cards:
        if card not in rest:
            allowed = "twice" if card.is_sylop else "once"
            raise _fail(
                f"Hand {number} deck: card {card.code} is listed more than {allowed}; the deck holds it {allowed}."
            )
        rest.remove(card)
    random.Random(f"sabacc-replay/{seed}/hand/{number}").shuffle(rest)
    return cards + rest


def _play_hand(game: Game, number: int, hand: Any, seed: Any) -> None:
    if not isinstance(hand, dict):
        raise _fail(f"Hand {number}: must be an object with deck, dice and actions.")
    if game.in_hand:
        waiting = ", ".join(game.names[s] for s in game.waiting_for())
        raise _fail(
            f"Hand {number}: hand {number - 1} is not finished (waiting for {waiting}); "
            "list its remaining actions first."
        )
    if game.over:
        raise _fail(f"Hand {number}: the game is already over after hand {game.hands_played}.")
    deck = _full_deck(number, hand.get("deck"), seed)
    if "dice" not in hand:
        raise _fail(f'Hand {number}: dice are missing; give them like {{"number": -5, "suit": "circle"}}.')
    try:
        dice = parse_dice(hand["dice"])
    except EngineError as exc:
        raise _fail(f"Hand {number} dice: {exc}") from None
    try:
        game.start_hand(deck=deck, dice=dice)
    except EngineError as exc:
        raise _fail(f"Hand {number}: {exc}") from None
    actions = hand.get("actions", [])
    if not isinstance(actions, list):
        raise _fail(f"Hand {number}: actions must be a list.")
    for index, action in enumerate(actions, start=1):
        _play_action(game, number, index, action)


def _play_action(game: Game, number: int, index: int, action: Any) -> None:
    where = f"Hand {number}, action {index}"
    if not isinstance(action, dict):
        raise _fail(f'{where}: must be an object like {{"player": "Bob", "do": "check"}}.')
    player, verb = action.get("player"), action.get("do")
    where = f"{where} ({player} {verb})"
    if player not in game.names:
        raise _fail(f"{where}: {player!r} is not one of the seated players ({', '.join(game.names)}).")
    if verb not in VERBS:
        raise _fail(f"{where}: unknown verb; the verbs are {', '.join(VERBS)}.")
    seat = game.names.index(player)
    try:
        if verb == "select":
            cards = action.get("cards")
            if not isinstance(cards, list):
                raise _fail(f'{where}: select needs "cards", a list of card codes (possibly empty).')
            game.select(seat, cards)
        elif verb == "bet":
            game.bet(seat, _amount(action, "amount", where))
        elif verb == "raise":
            game.raise_to(seat, _amount(action, "to", where))
        elif verb == "allin":
            game.all_in(seat)
        else:
            getattr(game, verb)(seat)
    except IllegalAction as exc:
        raise _fail(f"{where}: {exc}") from None


def _amount(action: dict, key: str, where: str) -> int:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f'{where}: needs "{key}", a whole number of credits; got {value!r}.')
    return value


def export_replay(game: Game) -> dict:
    """The game so far as a `sabacc-replay/1` document that replays to the same result.

    Every hand lists its whole deck (so reshuffles of the discard pile repeat exactly) and its dice.
    Re-buys, joins and departures have no place in the format, so such a game cannot be exported.
    """
    hands = []
    if game._history_from:
        raise EngineError(
            "This game was loaded without its history, so its earlier hands are unknown; load it with "
            "Game.from_json(state, history=...) to export it."
        )
    if any("e" in entry for entry in game._history):
        raise EngineError(
            "This game had re-buys, which the sabacc-replay/1 format cannot express; it cannot be exported."
        )
    for number, entry in enumerate(game._history, start=1):
        deck = decode_cards(entry["d"]) if "d" in entry else deck_from_seed(hand_seed(game._master, number))
        if "x" in entry:
            dice = decode_dice(entry["x"])
        elif "d" in entry:
            dice = dice_from_seed(entry["d"])
        else:
            dice = dice_from_seed(hand_seed(game._master, number))
        hands.append(
            {"deck": codes(deck), "dice": dice.to_dict(), "actions": [_export_action(game, a) for a in entry["a"]]}
        )
    return {
        "format": FORMAT,
        "variant": game.variant.name,
        "preset": game.preset if game.preset in PRESETS else "casino",
        "options": game.options.to_dict(),
        "seats": [
            {"player": name, "stack": stack} for name, stack in zip(game.names, game.starting_stacks, strict=True)
        ],
        "dealer": game.names[game.first_dealer],
        "seed": 0,
        "hands": hands,
    }


def _export_action(game: Game, text: str) -> dict:
    seat, verb, arg = decode_action(text)
    action: dict = {"player": game.names[seat], "do": verb}
    if verb == "select":
        action["cards"] = codes(decode_cards(arg))
    elif verb == "bet":
        action["amount"] = int(arg)
    elif verb == "raise":
        action["to"] = int(arg)
    return action
