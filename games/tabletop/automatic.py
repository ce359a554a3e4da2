"""The steps a real-cards table takes by itself, where nobody has anything to choose: a selection of none of no
cards (Coruscant Shift's improve phase for a player the shift dealt no card, having kept all five; at a Halcyon
table where nobody swapped, every seat). Each is a plain step, saved and logged like any other (the change log
marks it `auto`, by "the table"), so the hand history, the document and replays are those of the steps; undoing the
step that led to them takes them back with it (`standing_auto`)."""

from typing import Any

from games.engine.realcards.due import due
from games.engine.realcards.game import RealCardsGame

AUTO = {"by": "the table", "auto": True}


def automatic_steps(game: RealCardsGame) -> list[dict]:
    """The steps due now that have one possible answer and nothing to ask: each awaited seat whose only choice is
    a selection of 0 to 0 cards."""
    now = due(game)
    if now["due"] != "act":
        return []
    return [
        {"step": "act", "seat": seat, "verb": "select", "count": 0}
        for seat in now["seats"]
        if now["choices"][seat].get("verbs") == ["select"] and list(now["choices"][seat].get("count") or ()) == [0, 0]
    ]


def standing_auto(changes: list[dict]) -> int:
    """How many of the last steps that stand the table took by itself (the change log replayed: an undo takes back
    the last step standing)."""
    standing: list[Any] = []
    for change in changes:
        if "did" in change:
            standing.append(bool(change.get("auto")))
        elif "undid" in change and standing:
            standing.pop()
    count = 0
    while standing and standing[-1]:
        standing.pop()
        count += 1
    return count
