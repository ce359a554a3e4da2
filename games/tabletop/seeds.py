"""The site's fair rolls at a real-cards table: each hand's commitment, public from the moment the hand can be dealt,
and once the table is finished each hand's seed, checked (docs/tabletop.md, "Fair rolls").

The same scheme as the online tables' fair decks (docs/rules.md, "Fair decks"), from the engine's own functions:
hand *n*'s seed is the server seed of hand *n* from the table's master seed (nobody adds entropy at a real table),
its commitment the SHA-256 of that seed. The master seed and the hands' seeds appear only once the table is
finished; before that only commitments."""

from typing import Any

from games.engine.errors import EngineError
from games.engine.realcards.document import export_document, play_document
from games.engine.realcards.game import RealCardsGame
from games.engine.shuffle import commitment, server_seed
from games.tabletop.models import RealTable, RealTableStatus, hands_dealt


def hand_commitment(table: RealTable, number: int) -> str:
    """Hand `number`'s commitment: the SHA-256 (hex) of its seed, as the engine publishes it."""
    return commitment(server_seed(table.master, number))


def hand_seed(table: RealTable, number: int) -> str:
    """Hand `number`'s seed (its server seed; no entropy at a real table): served only once `revealed(table)`."""
    return server_seed(table.master, number)


def revealed(table: RealTable) -> bool:
    """Whether the seeds may be shown: only once the table is finished (by itself or by its host)."""
    return table.status == RealTableStatus.FINISHED


def document_with_seed(table: RealTable, game: RealCardsGame) -> dict[str, Any]:
    """The game as a `sabacc-realcards/1` document, carrying the master seed once the table is finished: by itself,
    or ended early by its host (the engine's own export adds it only when its game ended by its rules), so that
    `replay --verify` checks every site roll of a downloaded game either way."""
    document = export_document(game)
    if revealed(table):
        document["seed"] = table.master
    return document


def commitment_now(table: RealTable, game: RealCardsGame) -> dict[str, Any] | None:
    """The commitment of the hand in play, or of the next hand to deal (public before its deal and its rolls);
    None once the game is over (nothing more is rolled)."""
    engine = game.game
    hand = engine.hand
    if hand is not None and not hand.is_complete:
        return {"hand": hand.number, "commitment": hand.commitment or hand_commitment(table, hand.number)}
    if engine.over or revealed(table):
        return None
    return {"hand": engine.hands_played + 1, "commitment": engine.next_commitment()}


def seed_report(table: RealTable, game: RealCardsGame | None) -> dict[str, Any]:
    """Each hand dealt: its commitment and, once the table is finished, its seed and the engine's check (the game
    re-run from its steps with the master seed: every site roll must be the one its hand's seed gives)."""
    over = revealed(table)
    dealt = hands_dealt(game.steps) if game is not None else 0  # a hand at its reveal counts: it was dealt
    problems: list[str] = []
    if over and game is not None and dealt:
        document = document_with_seed(table, game)
        try:
            play_document(document)
        except EngineError as exc:
            problems.append(str(exc))
    hands = []
    for number in range(1, dealt + 1):
        seed = hand_seed(table, number) if over else None
        hands.append(
            {
                "number": number,
                "commitment": hand_commitment(table, number),
                "server_seed": seed,
                "entropy": {},
                "seed": seed,
                "verified": (not problems and commitment(seed) == hand_commitment(table, number)) if over else None,
            }
        )
    now = commitment_now(table, game) if game is not None and not over else None
    return {
        "over": over,
        "hands": hands,
        "problems": problems,
        "verified": over and bool(hands) and not problems,
        "now": now,
        "master": table.master if over else None,
        "site_rolls": sum(1 for step in (game.steps if game else []) if step.get("by") == "site"),
    }
