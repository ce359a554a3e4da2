"""The replay form of a real-cards game, `sabacc-realcards/1` (docs/replay.md, "Real-cards documents").

A document holds the setup (variant, preset, option overrides, players, first dealer) and the steps the table
took, in order: deals, rolls (entered, or the site's with the roll it made), players' actions (counts and
sources, never a card), the hands shown and the tie-break cards. There is no deck. Undone steps are left out
(they changed nothing that stayed); a corrected reveal stays in as the second reveal of that seat. The seed of
the site's rolls is added only once the game is over. `result` is what the steps give; `play_document`
re-runs the steps and refuses a document whose listed result differs.
"""

from typing import Any

from games.engine.errors import EngineError, ReplayError
from games.engine.realcards.game import RealCardsGame

FORMAT = "sabacc-realcards/1"


def export_document(game: RealCardsGame) -> dict:
    """The game as a `sabacc-realcards/1` document, its result included."""
    document: dict[str, Any] = {"format": FORMAT, "setup": dict(game.setup), "steps": [dict(s) for s in game.steps]}
    if game.game.over:
        document["seed"] = game.revealed_seed()
    document["result"] = game_result(game)
    return document


def game_result(game: RealCardsGame) -> dict:
    """What the steps give: each finished hand's pots and what stayed on the table, and the stacks."""
    engine = game.game
    hands = []
    for summary in engine.results:
        row = {"number": summary["number"], "pots": summary["pots"], "carry_over": summary.get("carry_over", 0)}
        if "sabacc_pot" in summary:
            row["sabacc_pot"] = summary["sabacc_pot"]
        hands.append(row)
    return {
        "hands": hands,
        "stacks": {name: stack for name, stack in zip(engine.names, engine.stacks, strict=True)},
        "leftovers": {engine.names[s]: amount for s, amount in sorted(engine.leftovers_paid.items())},
        "over": engine.over,
    }


def play_document(document: object) -> RealCardsGame:
    """Re-run a `sabacc-realcards/1` document; raise `ReplayError` (one line) for anything wrong in it."""
    if not isinstance(document, dict):
        raise ReplayError(f"A {FORMAT} document is a JSON object.")
    if document.get("format") != FORMAT:
        raise ReplayError(f"Unknown format {document.get('format')!r}; this reader takes {FORMAT}.")
    extra = sorted(set(document) - {"format", "setup", "steps", "seed", "result"})
    if extra:
        raise ReplayError(f"Unknown fields {', '.join(extra)}; the fields are format, setup, steps, seed, result.")
    seed = document.get("seed")
    if seed is not None and (not isinstance(seed, str) or len(seed) != 32):
        raise ReplayError("seed is the game's master seed, 32 hexadecimal digits, given once the game is over.")
    steps = document.get("steps")
    if not isinstance(steps, list):
        raise ReplayError("steps is a list of step objects.")
    try:
        game = RealCardsGame(document.get("setup"), master=seed)
    except EngineError as exc:
        raise ReplayError(f"setup: {exc}") from None
    game.check_site_rolls = seed is not None
    for index, step in enumerate(steps, start=1):
        try:
            game.step(step)
        except EngineError as exc:
            raise ReplayError(f"step {index} ({_name(step)}): {exc}") from None
    listed = document.get("result")
    if listed is not None:
        result = game_result(game)
        for key in ("hands", "stacks", "leftovers", "over"):
            if key in listed and listed[key] != result[key]:
                raise ReplayError(f"result: the steps give {key} {result[key]}, the document says {listed[key]}.")
    return game


def replay_result(document: object) -> dict:
    """The result of a document's steps (what `manage.py replay` prints), with the format's name."""
    game = play_document(document)
    return {"format": "sabacc-realcards-result/1", **game_result(game)}


def steps_by_hand(steps: list[dict]) -> dict[int, list[dict]]:
    """Each hand's steps, for a hand history to step through: from its deal up to the next deal (steps between
    hands after hand n stay with hand n; any before the first deal are under 0)."""
    hands: dict[int, list[dict]] = {0: []}
    number = 0
    for step in steps:
        if step.get("step") == "deal":
            number += 1
            hands[number] = []
        hands[number].append(step)
    if not hands[0]:
        del hands[0]
    return hands


def _name(step: object) -> str:
    return str(step.get("step")) if isinstance(step, dict) else "not an object"
