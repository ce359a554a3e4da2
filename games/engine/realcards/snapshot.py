"""A real-cards game saved as JSON, so the next step starts from it instead of replaying every step.

The saved state is the table as it stood just before the current (or last) hand was dealt: the engine's own
between-hands state (`Game._snapshot`, what `serialize.dump` saves as `pre`), the finished hands' summaries and what
the table entered in them (cards shown, rolls, named winners), and where in the steps that deal is (`at`).
Loading restores it and plays the steps from that deal on again, as the engine's own `load` plays the current
hand's actions again: a step costs one hand's steps, however long the evening. The setup and the steps stay the
source of truth: a state that does not fit them (another format, other steps) is refused (`InvalidState`) and the
caller rebuilds from the steps.

The state holds the master seed's results only as the steps already do (each site roll with its dice); the seed
itself is not in it. Store it server-side all the same: it is the engine's working state, not a view.
"""

from typing import Any

from games.engine.errors import EngineError, InvalidState
from games.engine.realcards.game import RealCardsGame

FORMAT = 1


def save_state(game: RealCardsGame) -> dict:
    """The game's state as JSON-ready data (see the module's docstring)."""
    state: dict[str, Any] = {"f": FORMAT, "n": len(game.steps)}
    if game._snapshot is None:  # no hand dealt yet: the few steps before the first deal are played again
        state["at"] = 0
        return state
    before, at = game._snapshot
    number = before.hands_played + 1  # the hand dealt at step `at`; what the table entered before it is kept
    state.update(
        at=at,
        table=before._snapshot(),
        results=before.results,
        history=before._history_from + len(before._history),
        boards={h: {slot: card.code for slot, card in b.items()} for h, b in game.boards.items() if h < number},
        shown={h: s for h, s in game.shown.items() if h < number},
        dice={h: [game.table.dice_document(d) for d in rolls] for h, rolls in game.dice.items() if h < number},
        named={h: n for h, n in game.named.items() if h < number},
    )
    return state


def load_state(setup: dict, steps: list[dict], state: object, *, master: str | None) -> RealCardsGame:
    """The game of `setup` and `steps`, from a state `save_state` made of the same setup and the first
    `state["n"]` of these steps (or fewer: an undo); `InvalidState` when the state cannot be used."""
    if not isinstance(state, dict) or state.get("f") != FORMAT:
        raise InvalidState(f"Saved real-cards state format {_format(state)!r} is not {FORMAT}.")
    at = state.get("at")
    if type(at) is not int or not 0 <= at < max(len(steps), 1) or at > state.get("n", -1):
        raise InvalidState(f"The saved state (its hand dealt at step {at!r}) does not fit {len(steps)} steps.")
    try:
        game = RealCardsGame(setup, master=master)
        if at:
            _restore(game, state, steps[:at])
        for step in steps[at:]:
            game.step(step)
    except EngineError as exc:
        raise InvalidState(f"The saved state does not fit the steps: {exc}") from exc
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise InvalidState(f"The saved state is damaged ({type(exc).__name__}: {exc}).") from exc
    return game


def _restore(game: RealCardsGame, state: dict, earlier: list[dict]) -> None:
    """The game as it stood just before the deal at step `state["at"]` (`earlier`: the steps before it)."""
    engine = game.game
    engine._restore(state["table"])
    engine.results = state["results"]
    engine._history_from = state["history"]  # earlier hands' records live in the steps, not in this game
    game.boards = {
        int(h): {int(slot): game._parse(code) for slot, code in board.items()} for h, board in state["boards"].items()
    }
    game.shown = {int(h): {_key(k): list(slots) for k, slots in s.items()} for h, s in state["shown"].items()}
    game.dice = {int(h): [game.table.parse_dice(d) for d in rolls] for h, rolls in state["dice"].items()}
    game.named = {int(h): {_key(k): list(seats) for k, seats in n.items()} for h, n in state["named"].items()}
    game.steps = list(earlier)
    game.changes = [{"did": step} for step in earlier]  # the same dicts: nobody changes a step once taken


def _key(key: int | str) -> int | str:
    """A seat or pot number back from a JSON key ("card" and "sabacc" stay words)."""
    return int(key) if isinstance(key, int) or key.lstrip("-").isdigit() else key


def _format(state: object) -> object:
    return state.get("f") if isinstance(state, dict) else type(state).__name__
