"""Eliminations: a player goes out (their place is the number still in), and the latest elimination is
undone."""

from __future__ import annotations

from django.db import transaction

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError
from config.inputs import Actor
from league.models import AuditEntry, Player
from tournaments.models import Registration, RegistrationStatus, Tournament, TournamentStatus
from tournaments.services.common import _audit, _check_manager, _field_changed, _lock, _seated
from tournaments.services.seats import _seat_late


@retry_on_conflict
@transaction.atomic
def tournament_eliminate(
    *, actor: Actor, tournament: Tournament, player: Player, eliminated_by: Player | None = None
) -> Registration:
    """A player goes out: their place is the number of players still in, counting them."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.status != TournamentStatus.RUNNING:
        raise ConflictError("Players are eliminated once the tournament runs.")
    registration = _seated(tournament, player)
    if registration.status != RegistrationStatus.REGISTERED:
        raise ConflictError(f"{player} is already out.")
    if eliminated_by is not None and (
        eliminated_by.pk == player.pk
        or not Registration.objects.filter(
            tournament=tournament, player=eliminated_by, status=RegistrationStatus.REGISTERED
        ).exists()
    ):
        raise ApplicationError(
            "The player who knocked them out must be another player still in.", extra={"field": "eliminated_by"}
        )
    return _eliminate(actor=actor, tournament=tournament, registration=registration, eliminated_by=eliminated_by)


def _eliminate(
    *,
    actor: Actor,
    tournament: Tournament,
    registration: Registration,
    eliminated_by: Player | None,
    data: dict | None = None,
) -> Registration:
    """The elimination itself, under the tournament's lock (the caller checked who may and who is out)."""
    player = registration.player
    still_in = Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED).count()
    if still_in <= 1:
        raise ConflictError("The last player in is the winner, not eliminated.")
    seat = [registration.table_number, registration.seat_number]
    registration.status = RegistrationStatus.ELIMINATED
    registration.place = still_in
    registration.eliminated_by = eliminated_by
    registration.table_number = registration.seat_number = None
    registration.save()
    _field_changed(tournament)
    _audit(
        actor=actor,
        tournament=tournament,
        action="tournament_eliminate",
        obj=registration,
        data={"player": player.pk, "place": still_in, "seat": seat, **(data or {})},
    )
    return registration


@retry_on_conflict
@transaction.atomic
def tournament_eliminate_undo(*, actor: Actor, tournament: Tournament) -> Registration:
    """Undo the latest elimination (a mistake at the table): the player is back in, in their seat when it is free."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.status != TournamentStatus.RUNNING:
        raise ConflictError("Only a running tournament's eliminations can be undone.")
    registration = (
        Registration.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, status=RegistrationStatus.ELIMINATED, place__isnull=False)
        .order_by("place")
        .first()
    )
    if registration is None:
        raise ConflictError("Nobody has been eliminated: there is nothing to undo.")
    last = (
        AuditEntry.objects.filter(
            action="tournament_eliminate", object_type=Registration._meta.label, object_id=str(registration.pk)
        )
        .order_by("-pk")
        .first()
    )
    table, seat = (last.data.get("seat") if last else None) or [None, None]
    registration.status = RegistrationStatus.REGISTERED
    registration.place = None
    registration.eliminated_by = None
    taken = Registration.objects.filter(tournament=tournament, table_number=table, seat_number=seat).exists()
    if table is not None and not taken:
        registration.table_number, registration.seat_number = table, seat
    else:
        _seat_late(tournament, registration)
    registration.save()
    _field_changed(tournament)
    _audit(
        actor=actor,
        tournament=tournament,
        action="tournament_eliminate_undo",
        obj=registration,
        data={"player": registration.player_id},
    )
    return registration
