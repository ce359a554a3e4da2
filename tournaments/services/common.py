"""What every write to a tournament shares: the lock (league, event, then the tournament row), the
organiser check, input checks, the audit row, booking in the league's ledger, a player in the field, and telling
the live pages the field changed.

Locks: the league first (`league.services.lock_event` locks the league, then the event), then the tournament
row, then its registrations; the ledger is append-only and never locked. A refused call raises
`ApplicationError` before writing anything (and the transaction rolls back if it is refused later).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model

from config.errors import ApplicationError, ForbiddenError
from config.events import publish
from config.inputs import Actor
from league import services as league_services
from league.models import Player
from league.permissions import can_manage_event
from tournaments.errors import TournamentLogicError
from tournaments.models import Registration, RegistrationStatus, Tournament

MAX_STACK = 10**9


def _refuse_logic(exc: TournamentLogicError, field: str) -> ApplicationError:
    return ApplicationError(str(exc), extra={"field": field})


def _check_table_number(table_number: Any) -> None:
    """A tournament table is chosen by its number, a whole number from 1."""
    if isinstance(table_number, bool) or not isinstance(table_number, int) or table_number < 1:
        raise ApplicationError(
            f"Choose a table by its number (1 or more); got {table_number!r}.", extra={"field": "table"}
        )


def _seated_at(tournament: Tournament, table_number: int) -> list[Registration]:
    """The players seated at a tournament table (player loaded), in seat order; a table with nobody is refused,
    naming the tables there are."""
    in_field = Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED)
    seated = list(in_field.filter(table_number=table_number).select_related("player").order_by("seat_number", "pk"))
    if not seated:
        tables = sorted(set(in_field.filter(table_number__isnull=False).values_list("table_number", flat=True)))
        raise ApplicationError(
            f"Table {table_number} has nobody seated; the tables are {', '.join(map(str, tables)) or 'none yet'}.",
            extra={"field": "table"},
        )
    return seated


def _check_manager(actor: Actor, event: Any) -> None:
    if not can_manage_event(actor, event):
        raise ForbiddenError(f"Only the organisers of {event.season.league} (and site admins) may run its tournaments.")


def _lock(tournament: Tournament) -> Tournament:
    """League, then event, then the tournament row: the project's one lock order."""
    event = league_services.lock_event(tournament.event_id)
    locked = Tournament.objects.select_for_update(no_key=True, of=("self",)).get(pk=tournament.pk)
    locked.event = event
    return locked


def clock_topic(tournament_id: int) -> str:
    return f"tournament.{tournament_id}.clock"


def _field_changed(tournament: Tournament) -> None:
    """Tell the clock's live pages that the field changed (players left, pool): public facts only, after commit."""
    publish(clock_topic(tournament.pk), {"tournament": tournament.pk, "kind": "field"})


def _audit(
    *, actor: Actor, tournament: Tournament, action: str, obj: Model | None = None, data: dict | None = None
) -> None:
    """An audit row in the tournament's league's log; `obj` is what changed when it is not the tournament itself."""
    league_services.audit(
        actor=actor,
        action=action,
        obj=tournament if obj is None else obj,
        league=tournament.event.season.league,
        data=data,
    )


def _book(tournament: Tournament, player: Player, kind: str, amount: int, actor: Actor, reason: str = "") -> None:
    """A buy-in, re-buy or add-on (or its refund, negative) in the league's ledger, through the league's service."""
    league_services.ledger_book(
        actor=actor, event=tournament.event, player=player, kind=kind, amount=amount, reason=reason, reversal=amount < 0
    )


def _seated(tournament: Tournament, player: Player) -> Registration:
    registration = (
        Registration.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, player=player)
        .exclude(status=RegistrationStatus.WAITING)
        .first()
    )
    if registration is None:
        raise ApplicationError(f"{player} is not in this tournament's field.", extra={"field": "player"})
    return registration
