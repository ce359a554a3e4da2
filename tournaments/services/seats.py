"""Seats: publish the draw seed's hash, draw the seats from it (and reveal it), seat a late registrant or a
returning player, and balance the tables."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from config.db import retry_on_conflict
from config.errors import ConflictError
from config.inputs import Actor
from tournaments import seating
from tournaments.errors import TournamentLogicError
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.services.common import _audit, _check_manager, _lock, _refuse_logic


def _seat_late(tournament: Tournament, registration: Registration) -> None:
    """After the draw, a late registrant or a returning player takes the worst free seat of the smallest table.

    A new table opens when every table is full; balancing evens the tables out afterwards. A late registrant's
    first seat is kept as where they were drawn (`drawn_table`, `drawn_seat`).
    """
    if tournament.drawn_at is None:
        return
    tables: dict[int, seating.Table] = {}
    seated = Registration.objects.filter(
        tournament=tournament, status=RegistrationStatus.REGISTERED, table_number__isnull=False
    ).exclude(pk=registration.pk)
    for table_number, seat_number, player_id in seated.values_list("table_number", "seat_number", "player_id"):
        tables.setdefault(table_number, seating.Table(table_number, {}, tournament.seats_per_table)).seats[
            seat_number
        ] = player_id
    open_tables = [table for table in tables.values() if len(table.seats) < table.seat_count]
    if open_tables:
        table = min(open_tables, key=lambda item: (len(item.seats), item.number))
        registration.table_number, registration.seat_number = table.number, table.worst_free_seat()
    else:
        registration.table_number, registration.seat_number = max(tables, default=0) + 1, 1
    if registration.drawn_table is None:  # their first seat stands for the draw they missed; a return keeps it
        registration.drawn_table, registration.drawn_seat = registration.table_number, registration.seat_number


@retry_on_conflict
@transaction.atomic
def tournament_publish_seed(*, actor: Actor, tournament: Tournament) -> str:
    """Choose the secret draw seed and publish its SHA-256 (returned); the seed itself stays hidden until the draw."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.draw_seed_hash:
        raise ConflictError("The draw seed's hash is already published; it cannot change.")
    tournament.draw_seed = seating.new_seed()
    tournament.draw_seed_hash = seating.seed_hash(tournament.draw_seed)
    tournament.save(update_fields=["draw_seed", "draw_seed_hash"])
    _audit(
        actor=actor, tournament=tournament, action="tournament_publish_seed", data={"hash": tournament.draw_seed_hash}
    )
    return tournament.draw_seed_hash


@retry_on_conflict
@transaction.atomic
def tournament_draw(*, actor: Actor, tournament: Tournament, now: datetime | None = None) -> dict[int, tuple[int, int]]:
    """Draw the seats from the published seed: player id -> (table, seat). The seed is revealed from then on."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if not tournament.draw_seed_hash:
        raise ConflictError("Publish the draw seed's hash first, so players can check the draw afterwards.")
    if tournament.drawn_at is not None:
        raise ConflictError("The seats are already drawn.")
    field = list(
        Registration.objects.select_for_update(of=("self",)).filter(
            tournament=tournament, status=RegistrationStatus.REGISTERED
        )
    )
    try:
        draw = seating.draw_seats(
            [registration.player_id for registration in field],
            seed=tournament.draw_seed,
            seats_per_table=tournament.seats_per_table,
        )
    except TournamentLogicError as exc:
        raise _refuse_logic(exc, "registrations") from exc
    for registration in field:
        registration.table_number, registration.seat_number = draw[registration.player_id]
        registration.drawn_table, registration.drawn_seat = draw[registration.player_id]
    Registration.objects.bulk_update(field, ["table_number", "seat_number", "drawn_table", "drawn_seat"])
    tournament.drawn_at = now or timezone.now()
    tournament.save(update_fields=["drawn_at"])
    _audit(actor=actor, tournament=tournament, action="tournament_draw", data={"seed": tournament.draw_seed})
    return draw


@retry_on_conflict
@transaction.atomic
def tournament_balance(
    *, actor: Actor, tournament: Tournament, next_big_blind: dict[int, int] | None = None
) -> list[seating.Move]:
    """Move players so tables are within one of each other, breaking tables when they fit in fewer.

    `next_big_blind` gives, per table number, the seat that would be big blind next (seat 1 when unknown).
    """
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.drawn_at is None:
        raise ConflictError("Draw the seats before balancing tables.")
    field = list(
        Registration.objects.select_for_update(of=("self",)).filter(
            tournament=tournament, status=RegistrationStatus.REGISTERED, table_number__isnull=False
        )
    )
    tables: dict[int, seating.Table] = {}
    for registration in field:
        table = tables.setdefault(
            registration.table_number,
            seating.Table(
                registration.table_number,
                {},
                tournament.seats_per_table,
                next_big_blind_seat=(next_big_blind or {}).get(registration.table_number, 1),
            ),
        )
        table.seats[registration.seat_number] = registration.player_id
    moves = seating.balance(list(tables.values()))
    if moves:
        by_player = {registration.player_id: registration for registration in field}
        moved = [by_player[move.player_id] for move in moves]
        # Free the seats first: two moves may swap seats that the unique constraint guards.
        for registration in moved:
            registration.table_number = registration.seat_number = None
        Registration.objects.bulk_update(moved, ["table_number", "seat_number"])
        for move in moves:
            by_player[move.player_id].table_number, by_player[move.player_id].seat_number = move.to_table, move.to_seat
        Registration.objects.bulk_update(moved, ["table_number", "seat_number"])
        _audit(
            actor=actor,
            tournament=tournament,
            action="tournament_balance",
            data={"moves": [[m.player_id, m.from_table, m.from_seat, m.to_table, m.to_seat] for m in moves]},
        )
    return moves
