"""What a row of "My games" says of a table's event and of the viewer's result, online and real-cards alike."""

from typing import Any


def event_fields(table: Any) -> dict[str, Any]:
    """Casual or a league event's table: the league's and the event's names (its event, season and league loaded)."""
    return {
        "casual": table.event_id is None,
        "league": table.event.season.league.name if table.event_id else None,
        "event": table.event.name if table.event_id else None,
    }


def result_fields(outcome: dict | None, name: str | None) -> dict[str, Any]:
    """The viewer's place and final credits from a finished table's outcome, by their seat's name (None: not seated)."""
    outcome = outcome or {}
    standings = outcome.get("standings", [])
    return {
        "place": next((row["place"] for row in standings if name and row["player"] == name), None),
        "final_credits": outcome.get("stacks", {}).get(name) if name and outcome else None,
    }
