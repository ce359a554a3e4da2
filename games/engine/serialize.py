"""Saving a game to JSON and loading it back, mid-hand included, with identical behaviour.

The saved state (`dump`, `game.to_json()`) holds only what the live game needs, so its size stays
bounded however long the game runs: the table as it stood before the current hand started, the
current hand's start (given deck and dice only; a seeded hand is rebuilt from the game's master
seed) and its actions as short strings, then any re-buys since. Loading restores the table and
plays those actions again through the ordinary operations.

Earlier hands (and between-hands events) are needed only by `export_replay`; they live in the
separate history (`dump_history`, `game.history_json()`, about 80 bytes a hand), which `load`
takes as an optional second text. Both texts hold hidden information: store them server-side only.
"""

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from games.engine.errors import EngineError, InvalidState
from games.engine.records import LETTER_VERBS
from games.engine.variant import get_variant

if TYPE_CHECKING:
    from games.engine.state import Game

FORMAT = 2
# Format 1 kept every earlier hand inside the state ("hist"); it still loads.
_FORMAT_WITH_HISTORY = 1


def _earlier(game: "Game") -> list[dict]:
    """The history entries held in memory from before the current hand (all of them before the first hand)."""
    return game._history[: game._current_index] if game.hand is not None else game._history


def dump(game: "Game") -> str:
    hand = game.hand
    data = {
        "f": FORMAT,
        "variant": game.variant.name,
        "preset": game.preset,
        "options": dict(_option_diff(game.options)),
        "names": game.names,
        "start": game.starting_stacks,
        **({"sn": game.starting_names} if game.starting_names != game.names[: len(game.starting_stacks)] else {}),
        "first": game.first_dealer,
        "draw": [[[s, c] for s, c in rnd.items()] for rnd in game.dealer_draw],
        "m": game._master,
        "n": game._history_from + len(_earlier(game)),
        "pre": game._pre if hand is not None else game._snapshot(),
        "cur": _pack(_live_part(game._history[game._current_index])) if hand is not None else None,
        "tail": game._tail if hand is not None else [],
    }
    return json.dumps(data, separators=(",", ":"))


def dump_history(game: "Game") -> str:
    """The hands and events before the current hand, as `load(..., history=...)` takes them."""
    if game._history_from:
        raise InvalidState(
            "This game was loaded without its history, so its earlier hands are unknown; "
            "load it with its history to save the history."
        )
    return json.dumps({"f": FORMAT, "hist": [_pack(entry) for entry in _earlier(game)]}, separators=(",", ":"))


@lru_cache(maxsize=64)
def _option_diff(options: Any) -> dict:
    default = type(options)().to_dict()
    # A variant may leave an option at its default out of `to_dict` (Corellian Spike's and Classic's end rule).
    return {k: v for k, v in options.to_dict().items() if default.get(k, None) != v}


def _live_part(entry: dict) -> dict:
    """A hand's record without what playing it again rebuilds (the reshuffled piles, `o`)."""
    return {k: v for k, v in entry.items() if k != "o"} if "o" in entry else entry


def _pack(entry: dict) -> str | dict:
    """A hand's actions as one comma-separated string; a plain seeded hand is just that string."""
    if "a" not in entry:
        return entry
    actions = ",".join(entry["a"])
    return actions if len(entry) == 1 else {**entry, "a": actions}


def _unpack(entry: str | dict) -> dict:
    if isinstance(entry, str):
        entry = {"a": entry}
    if isinstance(entry.get("a"), str):
        entry = {**entry, "a": entry["a"].split(",") if entry["a"] else []}
    return entry


def decode_action(text: str) -> tuple[int, str, str]:
    """(seat, verb, argument) of a Coruscant Shift compact action string such as `0s3fY`, `1k` or `2r40`
    (other variants decode theirs with `variant.decode_action`)."""
    return int(text[0]), LETTER_VERBS[text[1]], text[2:]


def apply_action(game: "Game", text: str) -> None:
    seat, verb, args = game.variant.decode_action(text)
    game.act(seat, verb, **args)


def _read(text: str, history: str | None) -> tuple[dict, list[dict] | None, dict | None]:
    """(state, earlier entries or None when not given, the current hand's record or None)."""
    data = json.loads(text)
    if data.get("f") == _FORMAT_WITH_HISTORY:
        if history is not None:
            raise InvalidState("This saved game holds its own history (format 1); load it without a history.")
        entries = [_unpack(entry) for entry in data["hist"]]
        current = data["cur"]
        if current is None:
            return data, entries, None
        return data, entries[:current], entries[current]
    if data.get("f") != FORMAT:
        raise InvalidState(f"Saved game format {data.get('f')!r} is not supported; expected {FORMAT}.")
    current = None if data["cur"] is None else _unpack(data["cur"])
    if history is None:
        return data, None, current
    packed = json.loads(history)
    if packed.get("f") != FORMAT:
        raise InvalidState(f"Saved history format {packed.get('f')!r} is not supported; expected {FORMAT}.")
    entries = [_unpack(entry) for entry in packed["hist"]]
    if len(entries) != data["n"]:
        raise InvalidState(
            f"The history does not belong with this saved game: it lists {len(entries)} hands and events "
            f"before the current hand; the game had {data['n']}."
        )
    return data, entries, current


def load(cls: type["Game"], text: str, history: str | None = None) -> "Game":
    try:
        data, earlier, current = _read(text, history)
        game = cls()
        game.variant = get_variant(data["variant"])
        game.options = game.variant.coerce_options(data["options"])
        game.preset = data["preset"]
        game.names = list(data["names"])
        game.starting_stacks = list(data["start"])
        game.starting_names = list(data.get("sn") or data["names"][: len(data["start"])])
        game.stacks = list(data["start"])
        game.first_dealer = data["first"]
        game.dealer_draw = [{s: c for s, c in rnd} for rnd in data["draw"]]
        game._master = data["m"]
        game._restore(data["pre"])
        if earlier is None:
            game._history_from = data["n"]
        else:
            game._history = list(earlier)
        if current is not None:
            deck = game.variant.decode_cards(current["d"]) if "d" in current else None
            dice = game.variant.decode_dice(current["x"]) if "x" in current else None
            piles = [game.variant.decode_cards(pile) for pile in current["r"]] if "r" in current else None
            game._loading = True  # what the game's end paid out is in the tail
            game.start_hand(deck=deck, dice=dice, reshuffles=piles)
            for action in current["a"]:
                apply_action(game, action)
            game._loading = False
            for event in data["tail"]:
                game._apply_event(event)
                game._history.append({"e": event})
        return game
    except EngineError as exc:
        raise InvalidState(f"The saved game cannot be loaded: {exc}") from exc
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise InvalidState(f"The saved game is damaged and cannot be loaded ({type(exc).__name__}: {exc}).") from exc
