"""The names of a real-cards table's seats: what a name may hold, and when it is taken already.

A name has its spaces collapsed, 1 to `MAX_NAME` characters and nothing a reader cannot see or that turns the text
around (`config.inputs.refuse_hidden_characters`); it is taken when a seated player's name is the same but for
capitals or spaces (trimmed and in any case, as league guests' namesakes are found). Refusals say why and write
nothing."""

from config.errors import ApplicationError
from config.inputs import refuse_hidden_characters
from games.engine.realcards.game import RealCardsGame
from games.tabletop.models import RealTable

MAX_NAME = 40
SAME_NAME = "names that differ only in capitals or spaces are the same name"


def seat_name(raw: object, what: str = "The name") -> str:
    """A seat's name: spaces collapsed; 1 to `MAX_NAME` characters; nothing invisible or direction-changing."""
    name = " ".join(str(raw or "").split())
    refuse_hidden_characters(name, what, field="name")
    if not name:
        raise ApplicationError(
            f"{what} is missing: give a name of 1 to {MAX_NAME} characters.", extra={"field": "name"}
        )
    if len(name) > MAX_NAME:
        raise ApplicationError(
            f"{what} is {len(name)} characters long; the most is {MAX_NAME}.", extra={"field": "name"}
        )
    return name


def name_taken(name: str, names: list[str]) -> str | None:
    """The seated name `name` would be mistaken for: the same but for capitals or spaces (names are compared as
    league guests' are, trimmed and in any case), or None."""
    wanted = " ".join(name.split()).casefold()
    return next((taken for taken in names if " ".join(taken.split()).casefold() == wanted), None)


def free_name(table: RealTable, name: str) -> str:
    taken = name_taken(name, list(table.seats.values_list("name", flat=True)))
    if taken is not None:
        same = "" if taken == name else f" ({SAME_NAME})"
        raise ApplicationError(f"{taken} is already seated here{same}; choose another name.", extra={"field": "name"})
    return name


def check_joining_name(game: RealCardsGame, name: str) -> None:
    """A player joining between hands is named as a seat is (`seat_name`), and not like a player still seated; a player
    who left comes back under their own name, exactly (the engine gives them their seat again)."""
    seat_name(name)
    engine = game.game
    seated = [n for seat, n in enumerate(engine.names) if seat not in engine.left]
    taken = name_taken(name, seated)
    if taken is not None and taken != name:
        raise ApplicationError(
            f"{taken} is already seated here ({SAME_NAME}); choose another name.",
            extra={"field": "name"},
        )
    gone = name_taken(name, [n for seat, n in enumerate(engine.names) if seat in engine.left])
    if gone is not None and gone != name:
        raise ApplicationError(
            f"{gone} left this table earlier: to bring them back, join them as {gone}; else choose another name.",
            extra={"field": "name"},
        )
