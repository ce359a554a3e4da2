"""A real-cards table's hand history (reads only): each hand's steps in words, the dice entered, the hands shown,
its pots and why they went where they did, and the stacks after it; and the table as the documented
`sabacc-realcards/1` document (`games.engine.realcards.document`), which `manage.py replay --verify` re-runs.

Only what the table made public is here: the steps that stand (no card before its reveal), each hand's commitment
(the SHA-256 of the seed of its site rolls, public before its deal) and, once the table is finished, each hand's
seed; the document carries the master seed once the table is finished (`seeds.document_with_seed`)."""

from typing import Any

from config.inputs import whole_number_or
from games.engine.realcards.document import steps_by_hand
from games.engine.realcards.explain import explain_hand
from games.tabletop.models import RealTable, RealTableStatus
from games.tabletop.present import in_words, step_words
from games.tabletop.seeds import document_with_seed, hand_commitment, hand_seed, revealed
from games.tabletop.state import load_game


def _names(stacks: Any, names: list[str]) -> list[tuple[str, int]]:
    if isinstance(stacks, dict):
        return [(name, stacks[name]) for name in names if name in stacks]
    return list(zip(names, stacks, strict=False))


def table_history(table: RealTable) -> dict[str, Any]:
    """Every hand of a started table, in order; an open table has none yet."""
    if table.setup is None:
        return {"hands": [], "names": [s.name for s in table.seats.order_by("number")], "started": False}
    game = load_game(table)
    engine = game.game
    names = list(engine.names)
    results = {summary["number"]: summary for summary in engine.results}
    shown_seeds = revealed(table)
    hands = []
    for number, steps in steps_by_hand(game.steps).items():
        summary = results.get(number)
        shown = []
        for step in steps:
            if step.get("step") == "reveal":
                seat = step.get("seat")
                again = any(row["seat"] == seat for row in shown)
                cards = in_words(" ".join(step.get("cards", [])), table.variant)
                shown.append({"seat": seat, "name": names[seat], "cards": cards, "again": again})
        row: dict[str, Any] = {
            "number": number,
            "steps": [in_words(step_words(step, names, table.variant), table.variant) for step in steps],
            "dice": [step_words(step, names, table.variant) for step in steps if step.get("step") == "dice"],
            "shown": shown,
            "finished": summary is not None,
            "commitment": hand_commitment(table, number) if number else None,
            "seed": hand_seed(table, number) if number and shown_seeds else None,
        }
        if summary is not None:
            row["dealer"] = (
                names[summary["dealer"]] if isinstance(summary.get("dealer"), int) else summary.get("dealer")
            )
            row["pots"] = [
                {
                    "amount": entry.get("amount", 0),
                    "paid": entry.get("paid", {}),
                    "says": in_words(entry["says"], table.variant),
                }
                for entry in explain_hand(game, number)
            ]
            row["stacks"] = _names(summary.get("stacks", []), names)
        hands.append(row)
    return {
        "hands": hands,
        "names": names,
        "started": True,
        "stacks": list(zip(names, engine.stacks, strict=True)),
        "over": engine.over,
    }


def nothing_to_download(table: RealTable) -> str:
    """Why the table has no document to download (or replay), in words; empty when it has one: a hand was dealt."""
    closed = table.status == RealTableStatus.FINISHED
    nothing = "no hand was played, so there is nothing to download or replay"
    if table.setup is None:
        if closed:
            return f"Table {table.code} was closed before its game started: {nothing}."
        return f"The game at table {table.code} has not started: there is no hand to download or replay yet."
    if not table.hands_dealt:
        if closed:
            return f"Table {table.code} was closed before its first deal: {nothing}."
        return f"No hand has been dealt at table {table.code} yet: there is nothing to download or replay until then."
    return ""


def table_document(table: RealTable) -> dict[str, Any] | None:
    """The started table as a `sabacc-realcards/1` document (its seed once the table is finished)."""
    if table.setup is None:
        return None
    return document_with_seed(table, load_game(table))


def pick_hand(history: dict[str, Any], raw: str | None) -> tuple[dict[str, Any] | None, int | None, int | None]:
    """(the hand asked for by `?hand=N`, else the last one; the previous hand's number; the next one's)."""
    hands = history["hands"]
    if not hands:
        return None, None, None
    numbers = [hand["number"] for hand in hands]
    wanted = whole_number_or(raw, numbers[-1], signed=False)
    index = numbers.index(wanted) if wanted in numbers else len(numbers) - 1
    previous = numbers[index - 1] if index > 0 else None
    following = numbers[index + 1] if index + 1 < len(numbers) else None
    return hands[index], previous, following
