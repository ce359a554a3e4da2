"""A tournament's structure after creation: the editor's preset, and changing the levels before the clock starts."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from config.db import retry_on_conflict
from config.errors import ConflictError
from config.inputs import Actor
from tournaments import structures
from tournaments.errors import TournamentLogicError
from tournaments.models import Tournament
from tournaments.services.common import _audit, _check_manager, _lock, _refuse_logic
from tournaments.services.registration import _denominations, _no_blinds, check_structure


def structure_preset(*, event: Any, duration_minutes: int, starting_stack: int, players: int = 10) -> list[dict]:
    """A structure lasting about `duration_minutes` for this starting stack, in the event's chips and variant
    (ante-only levels where the variant has no blinds): what the editor's "fill from a preset" shows."""
    try:
        levels = structures.preset_for_duration(
            duration_minutes=duration_minutes,
            starting_stack=starting_stack,
            players=players,
            ante_only=_no_blinds(event) is not None,
            denominations=_denominations(event),
        )
    except TournamentLogicError as exc:
        raise _refuse_logic(exc, "duration") from exc
    return structures.structure_to_json(levels)


@retry_on_conflict
@transaction.atomic
def tournament_structure_set(*, actor: Actor, tournament: Tournament, structure: Any) -> Tournament:
    """Replace the levels of a tournament whose clock has not started (a running clock reads them)."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.clock_started_at is not None:
        raise ConflictError(
            "The clock has started: the structure can no longer change (move the clock a level instead).",
            extra={"field": "structure"},
        )
    check_structure(structure, event=tournament.event)
    before = tournament.structure
    tournament.structure = structure
    tournament.save(update_fields=["structure"])
    _audit(
        actor=actor,
        tournament=tournament,
        action="tournament_structure_set",
        data={"before": len(before or []), "after": len(structure)},
    )
    return tournament
