"""Creating a tournament and registering its players: register (seated while there is room, else on the
waiting list; late registration up to a level), unregister before the draw, and the prize pool booked so far."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError, ForbiddenError
from config.inputs import Actor, signed_in, whole_number
from games.engine.variant import get_variant
from league import services as league_services
from league.models import EventKind, EventStatus, LedgerEntry, LedgerKind, Membership, Player
from league.permissions import can_manage_event
from tournaments import structures
from tournaments.errors import TournamentLogicError
from tournaments.models import (
    Format,
    Registration,
    RegistrationStatus,
    Tournament,
    TournamentStatus,
    rebuy_threshold_error,
)
from tournaments.selectors import registration_open as _registration_open
from tournaments.services.common import MAX_STACK, _audit, _book, _check_manager, _field_changed, _lock, _refuse_logic
from tournaments.services.seats import _seat_late


def _denominations(event: Any) -> list[int]:
    chip_set = league_services.effective_chip_set(event)
    return list(chip_set.denominations.values_list("value", flat=True)) if chip_set else []


def _no_blinds(event: Any) -> str | None:
    """The name of the event's variant when it has no blinds (its levels set only an ante), else None."""
    variant = get_variant(event.season.variant or event.season.league.variant)
    return None if variant.has_blinds else variant.name.replace("_", " ").title()


def check_structure(data: Any, *, event: Any) -> list[str]:
    """Validate a structure's JSON against the event's chips; returns the colour-up prompts."""
    try:
        levels = structures.structure_from_json(data)
        return structures.validate_structure(levels, denominations=_denominations(event), no_blinds=_no_blinds(event))
    except TournamentLogicError as exc:
        raise _refuse_logic(exc, "structure") from exc


@retry_on_conflict
@transaction.atomic
def tournament_create(
    *,
    actor: Actor,
    event: Any,
    structure: list[dict[str, Any]],
    format: str = Format.FREEZEOUT,
    starting_stack: int = 450,
    seats_per_table: int = 8,
    cap: int | None = None,
    late_registration_level: int = 0,
    advance_per_table: int = 1,
    payout_template: str = "top_3",
    rebuy_at_or_below: int = 0,
) -> Tournament:
    """Run a league event (of kind tournament) as a tournament."""
    if format not in Format.values:
        raise ApplicationError(
            f"Unknown format {format!r}; choose one of {', '.join(Format.values)}.", extra={"field": "format"}
        )
    whole_number(starting_stack, "The starting stack", field="starting_stack", minimum=1, maximum=MAX_STACK)
    whole_number(seats_per_table, "Seats per table", field="seats_per_table", minimum=2, maximum=8)
    if cap is not None:
        whole_number(cap, "The cap", field="cap", minimum=2, maximum=10_000)
    whole_number(
        late_registration_level,
        "The late registration level",
        field="late_registration_level",
        minimum=0,
        maximum=1_000,
    )
    whole_number(advance_per_table, "Players advancing per table", field="advance_per_table", minimum=1, maximum=8)
    whole_number(rebuy_at_or_below, "The re-buy threshold", field="rebuy_at_or_below", minimum=0, maximum=MAX_STACK)
    if message := rebuy_threshold_error(rebuy_at_or_below, format=format, starting_stack=starting_stack):
        raise ApplicationError(message, extra={"field": "rebuy_at_or_below"})
    if payout_template not in ("winner_takes_all", "top_3", "top_15_percent"):
        raise ApplicationError(
            "Choose a payout template: winner_takes_all, top_3 or top_15_percent.", extra={"field": "payout_template"}
        )
    event = league_services.lock_event(event.pk)
    _check_manager(actor, event)
    if event.kind != EventKind.TOURNAMENT:
        raise ApplicationError(f"{event} is a single game; make it a tournament event first.", extra={"field": "event"})
    if Tournament.objects.filter(event=event).exists():
        raise ConflictError(f"{event} already has a tournament.", extra={"field": "event"})
    check_structure(structure, event=event)
    tournament = Tournament.objects.create(
        event=event,
        format=format,
        structure=structure,
        starting_stack=starting_stack,
        seats_per_table=seats_per_table,
        cap=cap,
        late_registration_level=late_registration_level,
        advance_per_table=advance_per_table,
        payout_template=payout_template,
        rebuy_at_or_below=rebuy_at_or_below,
    )
    _audit(actor=actor, tournament=tournament, action="tournament_create")
    return tournament


def _may_register(actor: Actor, tournament: Tournament, player: Player) -> None:
    event = tournament.event
    if can_manage_event(actor, event):
        return
    own = signed_in(actor) and player.user_id == actor.pk
    if not own:
        raise ForbiddenError("Players register themselves; only an organiser may register someone else.")
    if not Membership.objects.filter(league=event.season.league, player=player).exists():
        raise ForbiddenError(f"Join {event.season.league} first: its tournaments are for its members.")


@retry_on_conflict
@transaction.atomic
def tournament_register(
    *, actor: Actor, tournament: Tournament, player: Player, now: datetime | None = None
) -> Registration:
    """Register a player: seated in the field while there is room (buy-in booked), on the waiting list past the cap."""
    now = now or timezone.now()
    tournament = _lock(tournament)
    _may_register(actor, tournament, player)
    if not _registration_open(tournament, now):
        raise ConflictError("Registration is closed for this tournament.")
    if Registration.objects.filter(tournament=tournament, player=player).exists():
        raise ConflictError(f"{player} is already registered.", extra={"field": "player"})
    seated = Registration.objects.filter(tournament=tournament).exclude(status=RegistrationStatus.WAITING).count()
    full = tournament.cap is not None and seated >= tournament.cap
    registration = Registration.objects.create(
        tournament=tournament,
        player=player,
        status=RegistrationStatus.WAITING if full else RegistrationStatus.REGISTERED,
        entries=0 if full else 1,
    )
    if not full:
        _book(tournament, player, LedgerKind.BUY_IN, tournament.starting_stack, actor)
        _seat_late(tournament, registration)
        registration.save(update_fields=["table_number", "seat_number", "drawn_table", "drawn_seat"])
    _field_changed(tournament)
    _audit(actor=actor, tournament=tournament, action="tournament_register", obj=registration)
    return registration


@retry_on_conflict
@transaction.atomic
def tournament_unregister(*, actor: Actor, tournament: Tournament, player: Player) -> Registration | None:
    """Withdraw before the draw: the buy-in is refunded, and the first on the waiting list takes the place.

    Returns the registration promoted from the waiting list, if any.
    """
    tournament = _lock(tournament)
    _may_register(actor, tournament, player)
    registration = (
        Registration.objects.select_for_update(of=("self",)).filter(tournament=tournament, player=player).first()
    )
    if registration is None:
        raise ApplicationError(f"{player} is not registered.", extra={"field": "player"})
    if tournament.drawn_at is not None:
        raise ConflictError("The seats are drawn: a player who leaves now is eliminated, not unregistered.")
    was_seated = registration.status == RegistrationStatus.REGISTERED
    if was_seated:
        _book(
            tournament, player, LedgerKind.BUY_IN, -tournament.starting_stack * registration.entries, actor, "withdrawn"
        )
    registration.delete()
    promoted = None
    if was_seated:
        promoted = (
            Registration.objects.select_for_update(of=("self",))
            .filter(tournament=tournament, status=RegistrationStatus.WAITING)
            .first()
        )
        if promoted is not None:
            promoted.status = RegistrationStatus.REGISTERED
            promoted.entries = 1
            promoted.save(update_fields=["status", "entries"])
            _book(tournament, promoted.player, LedgerKind.BUY_IN, tournament.starting_stack, actor)
    _field_changed(tournament)
    _audit(
        actor=actor,
        tournament=tournament,
        action="tournament_unregister",
        data={"player": player.pk, "promoted": promoted.player_id if promoted else None},
    )
    return promoted


REFUNDED_KINDS = (LedgerKind.BUY_IN, LedgerKind.REBUY, LedgerKind.ADDON)


@retry_on_conflict
@transaction.atomic
def tournament_call_off(*, actor: Actor, tournament: Tournament) -> dict[int, int]:
    """Call off a tournament that never started (registering, no draw, no clock): every buy-in (and add-on)
    booked at the event is refunded through the ledger, the registrations end (the waiting list too), the
    tournament reads "Called off" and its league event is finished, not counting for the standings.

    Each player's refund is the net of what the event's ledger holds for them by kind (refunds already booked
    count), so nothing is refunded twice and nothing is left behind. Returns the credits refunded by player id.
    """
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.status == TournamentStatus.CALLED_OFF:
        raise ConflictError("This tournament is already called off; its buy-ins are refunded.")
    if tournament.status != TournamentStatus.REGISTERING or tournament.completed_at is not None:
        raise ConflictError("Only a tournament that has not started can be called off; this one has started.")
    if tournament.drawn_at is not None or tournament.clock_started_at is not None:
        raise ConflictError(
            "The seats are drawn: a tournament can be called off only before the draw. Play it out (eliminate "
            "the players, or record a deal) and complete it from the control room."
        )
    registrations = list(
        Registration.objects.select_for_update(of=("self",)).filter(tournament=tournament).select_related("player")
    )
    nets: dict[tuple[int, str], int] = {}
    for player_id, kind, amount in LedgerEntry.objects.filter(
        event_id=tournament.event_id, kind__in=REFUNDED_KINDS
    ).values_list("player_id", "kind", "amount"):
        nets[(player_id, kind)] = nets.get((player_id, kind), 0) + amount
    players = {registration.player_id: registration.player for registration in registrations}
    missing = {player_id for (player_id, _kind), net in nets.items() if net > 0} - set(players)
    players.update({player.pk: player for player in Player.objects.filter(pk__in=missing)})
    refunded: dict[int, int] = {}
    for (player_id, kind), net in sorted(nets.items()):
        if net > 0:
            _book(tournament, players[player_id], kind, -net, actor, "tournament called off")
            refunded[player_id] = refunded.get(player_id, 0) + net
    Registration.objects.filter(pk__in=[registration.pk for registration in registrations]).delete()
    tournament.status = TournamentStatus.CALLED_OFF
    tournament.save(update_fields=["status"])
    _audit(
        actor=actor,
        tournament=tournament,
        action="tournament_call_off",
        data={
            "refunded": {str(player_id): amount for player_id, amount in refunded.items()},
            "registrations": [registration.player_id for registration in registrations],
        },
    )
    if tournament.event.status != EventStatus.FINISHED:
        # The event is over without being played: finished, and not counting for the standings (no results).
        tournament.event = league_services.event_update(
            actor=actor, event=tournament.event, status=EventStatus.FINISHED, counts_for_standings=False
        )
    _field_changed(tournament)
    return refunded
