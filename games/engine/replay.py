"""The replay formats (docs/replay.md): play a document to its result, export any game, verify a game.

`sabacc-replay/1` lists hands; `sabacc-replay/2` is a superset that also lists what happens between
hands (re-buys, add-ons, players joining and leaving, item stakes, player entropy, closing a cash
table), so any game can be written down. `play_replay(document)` validates a document of either
version, plays every listed hand through the engine's ordinary operations and returns the result
(`sabacc-replay-result/1` for version 1, `/2` for version 2). Anything wrong raises `ReplayError`
with a one-line message naming the problem; for an action, its hand, index (from 1), player and
verb, and why it is illegal.

A replay fixes the deck, so the fair-shuffle commitment does not apply to its hands: they are
played with the given deck and show `"deck": "given"` and no commitment in views. An export of a
finished game carries each seeded hand's commitment and revealed seeds, which `verify_game` checks.
"""

import random
from collections import Counter
from typing import Any

from games.engine.cards import Card, codes, parse_card
from games.engine.errors import EngineError, IllegalAction, InvalidCard, MissingDice, MissingReshuffle, ReplayError
from games.engine.leftovers import left_on_table
from games.engine.shuffle import commitment, deck_from_seed, mix_entropy, server_seed
from games.engine.state import MAX_SEATS, Game
from games.engine.twister import Twister
from games.engine.variant import default_variant, get_variant
from games.engine.views import hand_summary

FORMAT = "sabacc-replay/1"
FORMAT_2 = "sabacc-replay/2"
FORMATS = (FORMAT, FORMAT_2)
# The formats read, in words for forms and messages: the newest (the one exported) first.
FORMATS_IN_WORDS = " or ".join(reversed(FORMATS))
RESULT_FORMAT = "sabacc-replay-result/1"
RESULT_FORMAT_2 = "sabacc-replay-result/2"
# Coruscant Shift's verbs (each variant lists its own: `variant.verbs`).
VERBS = ("select", "check", "call", "bet", "raise", "fold", "allin")
# Between-hands events of sabacc-replay/2 and the keys each one needs besides "do".
EVENTS = {
    "rebuy": ("player", "amount"),
    "addon": ("player", "amount"),
    "join": ("player", "stack"),
    "leave": ("player",),
    "stake": ("player", "item", "value"),
    "entropy": ("player", "value"),
    "close": (),
    "leftovers": (),
    "levels": ("ante", "small_blind", "big_blind", "min_bet"),
}


def play_replay(document: dict) -> dict:
    """Play a replay document (version 1 or 2) and return its result; raise `ReplayError` on any problem."""
    game = replay_game(document)
    return replay_result(game, version=2 if document.get("format") == FORMAT_2 else 1)


def replay_game(document: dict, *, on_hand_end: Any = None, on_step: Any = None, verify: bool = False) -> Game:
    """The engine game a replay document (either version) plays to; raises `ReplayError` as `play_replay` does.

    Hooks for pages that step through a replay: `on_step(game, number, index, action)` after hand `number`
    starts (index 0, action None) and after each of its actions (index from 1, the action as listed);
    `on_hand_end(game, hand, listed)` after each finished hand. Show players only `game.spectator_view()`
    from them. With `verify`, seeded hands of a version-2 export are reshuffled from their revealed seeds.
    """
    game, hands = _setup(document)
    version = 2 if document.get("format") == FORMAT_2 else 1
    for number, hand in enumerate(hands, start=1):
        if version == 2 and isinstance(hand, dict):
            _play_events(game, f"Hand {number} before", hand.get("before", []))
        _play_hand(game, number, hand, document.get("seed", 0), verify=verify, on_step=on_step)
        if on_hand_end is not None and not game.in_hand:
            on_hand_end(game, game.hand, hand)
    if version == 2:
        if game.in_hand and document.get("after"):
            raise _fail("after: the last hand is not finished; events happen between hands.")
        _play_events(game, "after", document.get("after", []))
    return game


def replay_result(game: Game, *, version: int = 1) -> dict:
    summaries = list(game.results)
    if game.in_hand:
        summaries.append(hand_summary(game, game.hand))
    extra: dict = {}
    if version == 2:
        transfers = [{**t, "from": game.names[t["from"]], "to": game.names[t["to"]]} for t in game.item_transfers]
        extra = {"items": transfers, "left": [game.names[s] for s in sorted(game.left)]}
    return {
        **extra,
        "format": RESULT_FORMAT if version == 1 else RESULT_FORMAT_2,
        "complete": not game.in_hand,
        "hands": summaries,
        "stacks": {name: game.stacks[s] for s, name in enumerate(game.names)},
        "carry_over": game.carry,
        **game.variant.result_extra(game),
        # RULES 1.5 "Credits left at the end": who was paid what the game left on the table.
        **({"leftovers": {game.names[s]: v for s, v in game.leftovers_paid.items()}} if game.leftovers_paid else {}),
        "finished": game.over,
        "standings": [{"player": r["player"], "place": r["place"], "stack": r["stack"]} for r in game.standings()],
    }


def _fail(message: str) -> ReplayError:
    return ReplayError(" ".join(str(message).split()))


def _setup(document: Any) -> tuple[Game, list]:
    if not isinstance(document, dict):
        raise _fail(f'The replay must be a JSON object with "format": "{FORMAT}" or "{FORMAT_2}".')
    if document.get("format") not in FORMATS:
        raise _fail(f'Unknown replay format {document.get("format")!r}; expected "{FORMAT}" or "{FORMAT_2}".')
    if document["format"] == FORMAT and "after" in document:
        raise _fail(f'"after" (events between hands) needs "format": "{FORMAT_2}".')
    variant = document["variant"] if "variant" in document else default_variant().name
    try:
        plugin = get_variant(variant)
    except EngineError as exc:
        raise _fail(f"options: {exc}") from None
    preset = document.get("preset")
    if preset not in plugin.presets:
        raise _fail(f"Unknown preset {preset!r}; the presets are: {', '.join(plugin.presets)}.")
    overrides = document.get("options") or {}
    if not isinstance(overrides, dict):
        raise _fail("options: must be an object of option names and values.")
    try:
        options = plugin.build_options(preset, overrides)
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
        if plugin.replay_min_stack and (isinstance(stack, bool) or not isinstance(stack, int) or stack < 1):
            raise _fail(f"seats: {seat['player']}'s stack must be a whole number of at least 1; got {stack!r}.")
        players.append((seat["player"], stack))
    names = [name for name, _ in players]
    dealer = document.get("dealer")
    if dealer is None and plugin.replay_needs_dealer:
        raise _fail(f"dealer: missing; name the first hand's dealer, one of the seated players ({', '.join(names)}).")
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
    game._replay_version = 2 if document["format"] == FORMAT_2 else 1
    hands = document.get("hands", [])
    if not isinstance(hands, list):
        raise _fail("hands: must be a list of hands, each with deck, dice and actions.")
    return game, hands


def _full_deck(number: int, listed: Any, seed: Any, full: list[Card], variant: Any = None) -> list:
    if listed is None:
        listed = []
    if not isinstance(listed, list):
        raise _fail(f"Hand {number} deck: must be a list of card codes, top card first.")
    read = parse_card if variant is None else variant.parse_card
    try:
        cards = [read(code) for code in listed]
    except InvalidCard as exc:
        raise _fail(f"Hand {number} deck: {exc}") from None
    if variant is not None:
        try:
            whole = variant.replay_deck(number, cards, seed)
        except EngineError as exc:
            raise _fail(f"Hand {number} deck: {exc}") from None
        if whole is not None:
            return whole
    # The deck less the listed cards, each taken at its first copies, in one pass (not a search per card).
    held = Counter(full)
    listed_count: Counter = Counter()
    for card in cards:
        listed_count[card] += 1
        if listed_count[card] > held[card]:
            allowed = "twice" if held[card] == 2 else "once"
            raise _fail(
                f"Hand {number} deck: card {card.code} is listed more than {allowed}; the deck holds it {allowed}."
            )
    rest = []
    for card in full:
        if listed_count[card]:
            listed_count[card] -= 1
        else:
            rest.append(card)
    Twister(f"sabacc-replay/{seed}/hand/{number}").shuffle(rest)
    return cards + rest


def _play_hand(game: Game, number: int, hand: Any, seed: Any, *, verify: bool = False, on_step: Any = None) -> None:
    if not isinstance(hand, dict):
        raise _fail(f"Hand {number}: must be an object with deck, dice and actions.")
    if "before" in hand and game.options is not None and not _is_v2(game):
        raise _fail(f'Hand {number}: "before" (events between hands) needs "format": "{FORMAT_2}".')
    if game.in_hand:
        waiting = ", ".join(game.names[s] for s in game.waiting_for())
        raise _fail(
            f"Hand {number}: hand {number - 1} is not finished (waiting for {waiting}); "
            "list its remaining actions first."
        )
    if game.over:
        raise _fail(f"Hand {number}: the game is already over after hand {game.hands_played}.")
    deck = _full_deck(number, hand.get("deck"), seed, game.variant.deck(), game.variant)
    try:
        dice = game.variant.replay_chance(number, hand, game.options, seed)
    except ReplayError as exc:
        raise _fail(f"Hand {number}: {exc}") from None
    except EngineError as exc:
        raise _fail(f"Hand {number} dice: {exc}") from None
    piles = _reshuffles(number, hand.get("reshuffles", []), game.variant) if game.variant.uses_reshuffles else None
    try:
        started = game.start_hand(deck=deck, dice=dice, reshuffles=piles)
    except EngineError as exc:
        raise _fail(f"Hand {number}: {exc}") from None
    if verify and hand.get("server_seed") is not None:
        # Verification deals nothing new: the listed deck was checked against the seed; reshuffles come from it.
        game.variant.use_seed(started, _verified_seed(game, number, hand))
    actions = hand.get("actions", [])
    if not isinstance(actions, list):
        raise _fail(f"Hand {number}: actions must be a list.")
    if on_step is not None:
        on_step(game, number, 0, None)
    for index, action in enumerate(actions, start=1):
        _play_action(game, number, index, action)
        if on_step is not None:
            on_step(game, number, index, action)
    leftover = game.variant.replay_leftovers(started) if started.is_complete and not verify else None
    if leftover:
        raise _fail(f"Hand {number} {leftover}")
    if started.is_complete and not verify and piles is not None and len(piles) > len(started.reshuffled):
        raise _fail(
            f"Hand {number} reshuffles: the hand lists {len(piles)} reshuffles but the draw pile ran out "
            f"{len(started.reshuffled)} times; list only the reshuffles that happened."
        )


def _is_v2(game: Game) -> bool:
    return game._replay_version == 2


def _verified_seed(game: Game, number: int, hand: dict) -> str:
    contributions = game._history[game._current_index].get("n", [])
    return mix_entropy(str(hand["server_seed"]), [(n, v) for n, v in contributions])


def _reshuffles(number: int, listed: Any, variant: Any = None) -> list[list[Card]]:
    """RULES 1.2.6: the hand's reshuffled draw piles, top card first (a hand needing an unlisted one is refused)."""
    if not isinstance(listed, list) or not all(isinstance(pile, list) for pile in listed):
        raise _fail(f"Hand {number} reshuffles: must be a list of draw piles, each a list of card codes.")
    read = parse_card if variant is None else variant.parse_card
    try:
        return [[read(code) for code in pile] for pile in listed]
    except InvalidCard as exc:
        raise _fail(f"Hand {number} reshuffles: {exc}") from None


def _play_events(game: Game, where: str, events: Any) -> None:
    """Between-hands events of sabacc-replay/2, applied through the engine's own operations."""
    if not isinstance(events, list):
        raise _fail(f'{where}: must be a list of events like {{"do": "rebuy", "player": "Bob", "amount": 100}}.')
    for index, event in enumerate(events, start=1):
        at = f"{where}, event {index}"
        if not isinstance(event, dict) or event.get("do") not in EVENTS:
            raise _fail(f'{at}: an event is an object whose "do" is one of {", ".join(EVENTS)}.')
        kind = event["do"]
        at = f"{at} ({event.get('player', '')} {kind})".replace("( ", "(")
        for key in EVENTS[kind]:
            if key not in event:
                raise _fail(f'{at}: needs "{key}".')
        player = event.get("player")
        seat = None
        if kind not in ("join", "close", "levels", "leftovers"):
            if player not in game.names:
                raise _fail(f"{at}: {player!r} is not one of the seated players ({', '.join(game.names)}).")
            seat = game.names.index(player)
        try:
            if kind == "rebuy":
                game.rebuy(seat, event["amount"])
            elif kind == "addon":
                game.add_on(seat, event["amount"])
            elif kind == "join":
                game.join(player, event["stack"])
            elif kind == "leave":
                game.leave(seat)
            elif kind == "stake":
                game.stake_item(seat, event["item"], event["value"])
            elif kind == "entropy":
                game.contribute_entropy(seat, event["value"])
            elif kind == "levels":
                game.set_levels(
                    ante=event["ante"],
                    small_blind=event["small_blind"],
                    big_blind=event["big_blind"],
                    min_bet=event["min_bet"],
                )
            elif kind == "leftovers":
                if not (game.over and not left_on_table(game)):  # else paid when the game ended, as recorded
                    game.pay_leftovers()
            else:  # "close": a cash table closed or any game its organiser ended (`close_table` is `end_game`)
                game.end_game()
        except EngineError as exc:
            raise _fail(f"{at}: {exc}") from None


def _play_action(game: Game, number: int, index: int, action: Any) -> None:
    where = f"Hand {number}, action {index}"
    if not isinstance(action, dict):
        raise _fail(f'{where}: must be an object like {{"player": "Bob", "do": "check"}}.')
    player, verb = action.get("player"), action.get("do")
    where = f"{where} ({player} {verb})"
    if player not in game.names:
        raise _fail(f"{where}: {player!r} is not one of the seated players ({', '.join(game.names)}).")
    verbs = game.variant.verbs
    if verb not in verbs:
        raise _fail(f"{where}: unknown verb; the verbs are {', '.join(verbs)}.")
    seat = game.names.index(player)
    try:
        game.act(seat, verb, **game.variant.replay_args(verb, action))
    except IllegalAction as exc:
        raise _fail(f"{where}: {exc}") from None
    except MissingReshuffle as exc:
        raise _fail(f"Hand {number} reshuffles: at action {index} ({player} {verb}), {exc}") from None
    except MissingDice as exc:
        raise _fail(f"Hand {number}: {exc}") from None


def export_replay(game: Game, *, version: int = 2) -> dict:
    """The game so far as a `sabacc-replay/2` document that replays to the same result.

    Every hand lists its whole deck, its dice, every reshuffled draw pile and every decision, and the
    between-hands events before it (`before`; the events after the last hand are in `after`). A seeded
    hand also gives its `commitment`, and, once the game is over, its `server_seed` (RULES 1.7), so that
    `verify_game` can check every deck. Any game can be exported: casino tables included.

    `version=1` writes a `sabacc-replay/1` document for readers of the first version (no events, no
    seeds); a game with events between hands other than entropy cannot be written so (`EngineError`).
    """
    if version not in (1, 2):
        raise EngineError(f"A replay is written in version 1 or 2; got {version!r}.")
    if game._history_from:
        raise EngineError(
            "This game was loaded without its history, so its earlier hands are unknown; load it with "
            "Game.from_json(state, history=...) to export it."
        )
    hands: list[dict] = []
    before: list[dict] = []
    # Names as they stood at each event: a join may reuse the seat of someone who left.
    names = list(game.starting_names)
    left: set[int] = set()
    number = 0
    for entry in game._history:
        if "e" in entry:
            before.append(_export_event(entry["e"], names, left))
            continue
        number += 1
        seed = None if "d" in entry else game._hand_seed(number, entry)
        variant = game.variant
        deck = variant.decode_cards(entry["d"]) if "d" in entry else deck_from_seed(seed, variant.deck())
        if "x" in entry:
            dice = variant.decode_dice(entry["x"])
        elif "d" in entry:
            dice = variant.given_dice(entry["d"], game.options)
        else:
            dice = variant.roll(seed, game.options)
        if game.hand is not None and number == game.hand.number:
            piles = [codes(pile) for pile in game.hand.reshuffled]
        else:
            piles = [codes(variant.decode_cards(pile)) for pile in entry.get("o", [])]
        hand: dict = {"before": before, "deck": codes(deck)}
        if dice is not None:
            hand["dice"] = variant.dice_document(dice)
        if variant.uses_reshuffles:
            hand["reshuffles"] = piles
        hand["actions"] = [_export_action(variant, names, a) for a in entry["a"]]
        current = game.hand if game.hand is not None and number == game.hand.number else None
        variant.export_hand(hand, entry, current)
        if seed is not None:
            server = server_seed(game._master, number)
            hand["commitment"] = commitment(server)
            if game.over:
                hand["server_seed"] = server
        hands.append(hand)
        before = []
    if version == 1:
        return _version_1(game, hands, before)
    return {**_document(game, FORMAT_2, hands), "after": before}


def _document(game: Game, version: str, hands: list[dict]) -> dict:
    """A replay document's head (format, variant, preset, options, seats, dealer) and its hands."""
    return {
        "format": version,
        "variant": game.variant.name,
        "preset": _preset(game),
        "options": game.options.to_dict(),
        "seats": [
            {"player": name, "stack": stack}
            for name, stack in zip(game.starting_names, game.starting_stacks, strict=True)
        ],
        "dealer": game.starting_names[game.first_dealer],
        "seed": 0,
        "hands": hands,
    }


def _version_1(game: Game, hands: list[dict], after: list[dict]) -> dict:
    """The same export as sabacc-replay/1: hands with deck, dice, reshuffles (when any) and actions only."""
    # What is left on the table when the game ends is paid again by replaying its last hand.
    events = [e["do"] for hand in hands for e in hand["before"]] + [e["do"] for e in after if e["do"] != "leftovers"]
    kept = sorted({kind for kind in events if kind != "entropy"})
    if kept:
        raise EngineError(
            f"This game has events between hands ({', '.join(kept)}), which sabacc-replay/1 cannot express; "
            "export it as sabacc-replay/2."
        )
    v1_hands = []
    for hand in hands:
        entry = {"deck": hand["deck"], **({"dice": hand["dice"]} if "dice" in hand else {}), "actions": hand["actions"]}
        if hand.get("reshuffles"):
            entry["reshuffles"] = hand["reshuffles"]
        v1_hands.append(entry)
    return _document(game, FORMAT, v1_hands)


def _export_event(event: list, names: list[str], left: set[int]) -> dict:
    """One between-hands event as sabacc-replay/2 writes it; `names` and `left` follow the seats as the game did."""
    kind = event[0]
    if kind == "join":
        _, name, stack = event
        if name in names:
            seat = names.index(name)
        elif len(names) < MAX_SEATS:
            seat = len(names)
            names.append(name)
        else:
            seat = min(left)
            names[seat] = name
        left.discard(seat)
        return {"do": "join", "player": name, "stack": stack}
    if kind in ("close", "leftovers"):
        return {"do": kind}
    if kind == "levels":
        ante, small_blind, big_blind, min_bet = event[1]
        return {"do": "levels", "ante": ante, "small_blind": small_blind, "big_blind": big_blind, "min_bet": min_bet}
    seat = event[1]
    player = names[seat]
    if kind in ("rebuy", "addon"):
        return {"do": kind, "player": player, "amount": event[2]}
    if kind == "leave":
        left.add(seat)
        return {"do": "leave", "player": player}
    if kind == "item":
        item, value = event[2]
        return {"do": "stake", "player": player, "item": item, "value": value}
    return {"do": "entropy", "player": player, "value": event[2]}


def _export_action(variant: Any, names: list[str], text: str) -> dict:
    seat, verb, args = variant.decode_action(text)
    return variant.export_action(names, seat, verb, args)


def _preset(game: Game) -> str:
    """The game's preset, or (for a game built from options alone) the variant's last preset, which the
    full options written beside it override anyway."""
    presets = game.variant.presets
    return game.preset if game.preset in presets else list(presets)[-1]
