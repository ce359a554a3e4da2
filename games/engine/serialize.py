"""Saving a game to JSON and loading it back, mid-hand included, with identical behaviour.

The saved form is compact: the table as it stood before the current hand started, the current
hand's start (given deck and dice only; a seeded hand is rebuilt from the game's master seed) and
its actions as short strings, then any re-buys since. Loading restores the table and plays those
actions again through the ordinary operations. `hist` keeps every earlier hand the same way, for
`export_replay`. The saved text holds hidden information (the master seed): store it server-side only.
"""

import json
from functools import lru_cache
from typing import TYPE_CHECKING

from games.engine.cards import decode_cards
from games.engine.dice import decode_dice
from games.engine.errors import EngineError, InvalidState
from games.engine.options import CoruscantShiftOptions
from games.engine.records import LETTER_VERBS
from games.engine.variant import get_variant

if TYPE_CHECKING:
    from games.engine.state import Game

FORMAT = 1


def dump(game: "Game") -> str:
    data = {
        "f": FORMAT,
        "variant": game.variant.name,
        "preset": game.preset,
        "options": dict(_option_diff(game.options)),
        "names": game.names,
        "start": game.starting_stacks,
        "first": game.first_dealer,
        "draw": [[[s, c] for s, c in rnd.items()] for rnd in game.dealer_draw],
        "m": game._master,
        "hist": [_pack(entry) for entry in game._history],
        "pre": game._pre if game.hand is not None else game._snapshot(),
        "cur": game._current_index if game.hand is not None else None,
        "tail": game._tail if game.hand is not None else [],
    }
    return json.dumps(data, separators=(",", ":"))


@lru_cache(maxsize=64)
def _option_diff(options: CoruscantShiftOptions) -> dict:
    default = CoruscantShiftOptions().to_dict()
    return {k: v for k, v in options.to_dict().items() if default[k] != v}


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
    """(seat, verb, argument) of a compact action string such as `0s3fY`, `1k` or `2r40`."""
    return int(text[0]), LETTER_VERBS[text[1]], text[2:]


def apply_action(game: "Game", text: str) -> None:
    seat, verb, arg = decode_action(text)
    if verb == "select":
        game.select(seat, decode_cards(arg))
    elif verb == "bet":
        game.bet(seat, int(arg))
    elif verb == "raise":
        game.raise_to(seat, int(arg))
    else:
        getattr(game, {"allin": "all_in"}.get(verb, verb))(seat)


def load(cls: type["Game"], text: str) -> "Game":
    try:
        data = json.loads(text)
        if data.get("f") != FORMAT:
            raise InvalidState(f"Saved game format {data.get('f')!r} is not supported; expected {FORMAT}.")
        game = cls()
        game.variant = get_variant(data["variant"])
        game.options = game.variant.coerce_options(data["options"])
        game.preset = data["preset"]
        game.names = list(data["names"])
        game.starting_stacks = list(data["start"])
        game.stacks = list(data["start"])
        game.first_dealer = data["first"]
        game.dealer_draw = [{s: c for s, c in rnd} for rnd in data["draw"]]
        game._master = data["m"]
        history = [_unpack(entry) for entry in data["hist"]]
        game._restore(data["pre"])
        current = data["cur"]
        if current is None:
            game._history = list(history)
        else:
            game._history = list(history[:current])
            record = history[current]
            deck = decode_cards(record["d"]) if "d" in record else None
            dice = decode_dice(record["x"]) if "x" in record else None
            game.start_hand(deck=deck, dice=dice)
            for action in record["a"]:
                apply_action(game, action)
            game._history.extend(history[current + 1 :])
            for event in data["tail"]:
                game._apply_event(event)
        return game
    except EngineError as exc:
        raise InvalidState(f"The saved game cannot be loaded: {exc}") from exc
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise InvalidState(f"The saved game is damaged and cannot be loaded ({type(exc).__name__}: {exc}).") from exc
