"""Every write to a tournament: keyword-only, atomic, audited, locked in the project's lock order.

Locks: the league first (`league.services.lock_event` locks the league, then the event), then the tournament
row, then its registrations; the ledger is append-only and never locked. A refused call raises
`ApplicationError` before writing anything (and the transaction rolls back if it is refused later).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError, ForbiddenError
from config.events import publish
from games.engine.variant import get_variant
from league import services as league_services
from league.models import AuditEntry, EventKind, LedgerEntry, LedgerKind, Membership, Player
from league.permissions import can_manage_event
from tournaments import clock, seating, structures
from tournaments.errors import TournamentLogicError
from tournaments.models import (
    Format,
    Registration,
    RegistrationStatus,
    Tournament,
    TournamentStatus,
    rebuy_threshold_error,
)

MAX_STACK = 10**9


def _refuse_logic(exc: TournamentLogicError, field: str) -> ApplicationError:
    return ApplicationError(str(exc), extra={"field": field})


def _check_manager(actor: Any, event: Any) -> None:
    if not can_manage_event(actor, event):
        raise ForbiddenError(f"Only the organisers of {event.season.league} (and site admins) may run its tournaments.")


def _lock(tournament: Tournament) -> Tournament:
    """League, then event, then the tournament row: the project's one lock order."""
    event = league_services.lock_event(tournament.event_id)
    locked = Tournament.objects.select_for_update(no_key=True, of=("self",)).get(pk=tournament.pk)
    locked.event = event
    return locked


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


def _whole(value: Any, what: str, field: str, *, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApplicationError(
            f"{what} must be a whole number from {low:,} to {high:,}; got {value!r}.", extra={"field": field}
        )
    return value


@retry_on_conflict
@transaction.atomic
def tournament_create(
    *,
    actor: Any,
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
    _whole(starting_stack, "The starting stack", "starting_stack", low=1, high=MAX_STACK)
    _whole(seats_per_table, "Seats per table", "seats_per_table", low=2, high=8)
    if cap is not None:
        _whole(cap, "The cap", "cap", low=2, high=10_000)
    _whole(late_registration_level, "The late registration level", "late_registration_level", low=0, high=1_000)
    _whole(advance_per_table, "Players advancing per table", "advance_per_table", low=1, high=8)
    _whole(rebuy_at_or_below, "The re-buy threshold", "rebuy_at_or_below", low=0, high=MAX_STACK)
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
    league_services.audit(actor=actor, action="tournament_create", obj=tournament, league=event.season.league)
    return tournament


def rebuy_limit(tournament: Tournament) -> str:
    """The re-buy threshold in words, for refusals and pages."""
    if not tournament.rebuy_at_or_below:
        return "a re-buy is for a player out of chips"
    return f"a re-buy is allowed at or below {tournament.rebuy_at_or_below:,} chips"


def _pauses(tournament: Tournament) -> list[clock.Pause]:
    return [
        clock.Pause(datetime.fromisoformat(begin), datetime.fromisoformat(end) if end else None)
        for begin, end in tournament.clock_pauses
    ]


def _store_pauses(tournament: Tournament, pauses: list[clock.Pause]) -> None:
    tournament.clock_pauses = [
        [item.started_at.isoformat(), item.ended_at.isoformat() if item.ended_at else None] for item in pauses
    ]


def tournament_clock(tournament: Tournament, *, now: datetime | None = None) -> clock.ClockState | None:
    """The clock as every screen shows it (None before the clock starts)."""
    if tournament.clock_started_at is None:
        return None
    return clock.clock_state(
        levels=structures.structure_from_json(tournament.structure),
        started_at=tournament.clock_started_at,
        pauses=_pauses(tournament),
        now=now or timezone.now(),
        start_level=tournament.clock_start_level,
    )


def _field_changed(tournament: Tournament) -> None:
    """Tell the clock's live pages that the field changed (players left, pool): public facts only, after commit."""
    from tournaments.services.clock import clock_topic

    publish(clock_topic(tournament.pk), {"tournament": tournament.pk, "kind": "field"})


def _clock_changed(tournament: Tournament) -> None:
    from tournaments.services.clock import clock_changed

    clock_changed(tournament)


def _registration_open(tournament: Tournament, now: datetime) -> bool:
    if tournament.status == TournamentStatus.REGISTERING:
        return True
    if tournament.status != TournamentStatus.RUNNING or not tournament.late_registration_level:
        return False
    state = tournament_clock(tournament, now=now)
    return state is None or state.level_index + 1 <= tournament.late_registration_level


def _book(tournament: Tournament, player: Player, kind: str, amount: int, actor: Any, reason: str = "") -> None:
    """A buy-in, re-buy or add-on (or its refund, negative) in the league's ledger, through the league's service."""
    league_services.ledger_book(
        actor=actor, event=tournament.event, player=player, kind=kind, amount=amount, reason=reason, reversal=amount < 0
    )


def _seat_late(tournament: Tournament, registration: Registration) -> None:
    """After the draw, a late registrant or a returning player takes the worst free seat of the smallest table.

    A new table opens when every table is full; balancing evens the tables out afterwards.
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


def _may_register(actor: Any, tournament: Tournament, player: Player) -> None:
    event = tournament.event
    if can_manage_event(actor, event):
        return
    own = getattr(actor, "is_authenticated", False) and player.user_id == actor.pk
    if not own:
        raise ForbiddenError("Players register themselves; only an organiser may register someone else.")
    if not Membership.objects.filter(league=event.season.league, player=player).exists():
        raise ForbiddenError(f"Join {event.season.league} first: its tournaments are for its members.")


@retry_on_conflict
@transaction.atomic
def tournament_register(
    *, actor: Any, tournament: Tournament, player: Player, now: datetime | None = None
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
        registration.save(update_fields=["table_number", "seat_number"])
    _field_changed(tournament)
    league_services.audit(
        actor=actor, action="tournament_register", obj=registration, league=tournament.event.season.league
    )
    return registration


@retry_on_conflict
@transaction.atomic
def tournament_unregister(*, actor: Any, tournament: Tournament, player: Player) -> Registration | None:
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
    league_services.audit(
        actor=actor,
        action="tournament_unregister",
        obj=tournament,
        league=tournament.event.season.league,
        data={"player": player.pk, "promoted": promoted.player_id if promoted else None},
    )
    return promoted


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


@retry_on_conflict
@transaction.atomic
def tournament_rebuy(
    *,
    actor: Any,
    tournament: Tournament,
    player: Player,
    kind: str,
    stack: int | None = None,
    now: datetime | None = None,
) -> Registration:
    """A re-buy, an add-on or a re-entry, within the late registration period, booked in the ledger.

    Re-buys and add-ons follow the event's buy-in policy (allowed, how many, how much); a re-entry brings a fresh
    starting stack to an eliminated player of a re-entry tournament. A re-buy is for a player whose stack is at
    or below the tournament's threshold (`rebuy_at_or_below`, 0: out of chips): an online table knows the stack;
    at a physical table the organiser gives it (`stack`, the chips counted there now; not needed when the
    threshold is 0, where booking the re-buy says the player is out); an eliminated player has none.
    """
    if kind not in ("rebuy", "addon", "reentry"):
        raise ApplicationError("Choose rebuy, addon or reentry.", extra={"field": "kind"})
    from games.online import tournament_rebuys

    now = now or timezone.now()
    tournament = _lock(tournament)
    # At an online table a player out of chips re-buys there themselves; elsewhere the organiser books it.
    place = tournament_rebuys.rebuy_place(event_id=tournament.event_id, player_id=player.pk)
    own = kind == "rebuy" and getattr(actor, "is_authenticated", False) and player.user_id == actor.pk
    if not (own and place is not None):
        _check_manager(actor, tournament.event)
    if not _registration_open(tournament, now):
        raise ConflictError("The re-buy period is over (it ends with late registration).")
    registration = _seated(tournament, player)
    policy = league_services.effective_buy_in_policy(tournament.event)
    if kind == "rebuy" and place is not None and place["pending"] is not None:
        return registration  # asked twice (a double submit): the first re-buy's chips are on their way
    if kind == "reentry":
        if tournament.format != Format.REENTRY:
            raise ApplicationError("Only a re-entry tournament takes re-entries.", extra={"field": "kind"})
        if registration.status != RegistrationStatus.ELIMINATED:
            raise ConflictError(f"{player} is still in: only an eliminated player re-enters.")
        registration.entries += 1
        registration.status = RegistrationStatus.REGISTERED
        registration.place = None
        registration.eliminated_by = None
        _book(tournament, player, LedgerKind.BUY_IN, tournament.starting_stack, actor, "re-entry")
    elif kind == "rebuy":
        if tournament.format != Format.REBUY or policy is None or not policy.rebuys_allowed or not policy.rebuy_amount:
            raise ApplicationError("Re-buys need a re-buy tournament whose buy-in policy allows them with an amount.")
        if policy.max_rebuys and registration.rebuys >= policy.max_rebuys:
            raise ConflictError(f"{player} has had the {policy.max_rebuys} re-buys allowed.")
        _check_rebuy_stack(tournament, registration, player, place, stack)
        registration.rebuys += 1
        registration.status = RegistrationStatus.REGISTERED
        registration.place = None
        _book(tournament, player, LedgerKind.REBUY, policy.rebuy_amount, actor)
        if place is not None:  # the chips join the player's stack at the table's next hand break, once
            tournament_rebuys.rebuy_queue(
                actor=actor,
                event_id=tournament.event_id,
                player_id=player.pk,
                table_id=place["table"],
                amount=policy.rebuy_amount,
            )
    else:
        if policy is None or not policy.addon_allowed or not policy.addon_amount:
            raise ApplicationError("The event's buy-in policy allows no add-on.")
        if registration.addons:
            raise ConflictError(f"{player} has had their add-on.")
        if registration.status != RegistrationStatus.REGISTERED:
            raise ConflictError(f"{player} is out: an add-on is for players still in.")
        registration.addons += 1
        _book(tournament, player, LedgerKind.ADDON, policy.addon_amount, actor)
        if place is not None:  # the chips join the player's stack at the table's next hand break, once
            tournament_rebuys.rebuy_queue(
                actor=actor,
                event_id=tournament.event_id,
                player_id=player.pk,
                table_id=place["table"],
                amount=policy.addon_amount,
                kind="addon",
            )
    if registration.table_number is None:
        _seat_late(tournament, registration)
    registration.save()
    _field_changed(tournament)
    league_services.audit(
        actor=actor, action=f"tournament_{kind}", obj=registration, league=tournament.event.season.league
    )
    return registration


def _check_rebuy_stack(
    tournament: Tournament, registration: Registration, player: Player, place: dict | None, stack: Any
) -> None:
    """A re-buy only at or below the tournament's threshold, the same rule at online and physical tables."""
    limit = tournament.rebuy_at_or_below
    if place is not None:
        held, where = place["stack"], f"online table {place['tournament_table']}"
    elif registration.status == RegistrationStatus.ELIMINATED:
        held, where = 0, ""
    elif stack is None and not limit:
        held, where = 0, ""  # re-buys only when out of chips: booking one says the player is out, as before
    elif stack is None:
        table = f"table {registration.table_number}" if registration.table_number else "their table"
        raise ApplicationError(
            f"Give {player}'s chip count at {table} now (they play at a physical table): {rebuy_limit(tournament)}.",
            extra={"field": "stack"},
        )
    else:
        held = _whole(stack, "The chip count", "stack", low=0, high=MAX_STACK)
        where = f"table {registration.table_number}" if registration.table_number else "their table"
    if held > limit:
        raise ConflictError(f"{player} still has {held:,} chips at {where}: {rebuy_limit(tournament)}.")


@retry_on_conflict
@transaction.atomic
def tournament_publish_seed(*, actor: Any, tournament: Tournament) -> str:
    """Choose the secret draw seed and publish its SHA-256 (returned); the seed itself stays hidden until the draw."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.draw_seed_hash:
        raise ConflictError("The draw seed's hash is already published; it cannot change.")
    tournament.draw_seed = seating.new_seed()
    tournament.draw_seed_hash = seating.seed_hash(tournament.draw_seed)
    tournament.save(update_fields=["draw_seed", "draw_seed_hash"])
    league_services.audit(
        actor=actor,
        action="tournament_publish_seed",
        obj=tournament,
        league=tournament.event.season.league,
        data={"hash": tournament.draw_seed_hash},
    )
    return tournament.draw_seed_hash


@retry_on_conflict
@transaction.atomic
def tournament_draw(*, actor: Any, tournament: Tournament, now: datetime | None = None) -> dict[int, tuple[int, int]]:
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
    Registration.objects.bulk_update(field, ["table_number", "seat_number"])
    tournament.drawn_at = now or timezone.now()
    tournament.save(update_fields=["drawn_at"])
    league_services.audit(
        actor=actor,
        action="tournament_draw",
        obj=tournament,
        league=tournament.event.season.league,
        data={"seed": tournament.draw_seed},
    )
    return draw


def revealed_seed(tournament: Tournament) -> str | None:
    """The draw seed, only once the seats are drawn."""
    return tournament.draw_seed if tournament.drawn_at is not None else None


@retry_on_conflict
@transaction.atomic
def tournament_clock_start(*, actor: Any, tournament: Tournament, now: datetime | None = None) -> Tournament:
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.clock_started_at is not None:
        raise ConflictError("The clock is already started.")
    if tournament.drawn_at is None:
        raise ConflictError("Draw the seats before starting the clock.")
    tournament.clock_started_at = now or timezone.now()
    tournament.status = TournamentStatus.RUNNING
    tournament.level_announced = tournament.clock_start_level - 1
    tournament.save(update_fields=["clock_started_at", "status", "level_announced"])
    _clock_changed(tournament)
    league_services.audit(
        actor=actor, action="tournament_clock_start", obj=tournament, league=tournament.event.season.league
    )
    return tournament


@retry_on_conflict
@transaction.atomic
def tournament_clock_pause(
    *, actor: Any, tournament: Tournament, resume: bool = False, now: datetime | None = None
) -> Tournament:
    """Pause the clock (or resume it with `resume=True`): the pause is recorded as an interval."""
    now = now or timezone.now()
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.clock_started_at is None:
        raise ConflictError("The clock has not started.")
    try:
        pauses = (clock.resume if resume else clock.pause)(_pauses(tournament), now=now)
    except TournamentLogicError as exc:
        raise ConflictError(str(exc)) from exc
    _store_pauses(tournament, pauses)
    tournament.save(update_fields=["clock_pauses"])
    _clock_changed(tournament)
    action = "tournament_clock_resume" if resume else "tournament_clock_pause"
    league_services.audit(actor=actor, action=action, obj=tournament, league=tournament.event.season.league)
    return tournament


@retry_on_conflict
@transaction.atomic
def tournament_clock_move(
    *, actor: Any, tournament: Tournament, levels: int, now: datetime | None = None
) -> Tournament:
    """Move the clock `levels` forward (+) or back (-): the level moved to starts now, with its full time.

    Recorded as a new start (time and level); a paused clock stays paused from now.
    """
    now = now or timezone.now()
    if isinstance(levels, bool) or not isinstance(levels, int) or levels == 0:
        raise ApplicationError("Move the clock by a whole number of levels other than 0.", extra={"field": "levels"})
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    state = tournament_clock(tournament, now=now)
    if state is None:
        raise ConflictError("The clock has not started.")
    count = len(tournament.structure)
    target = state.level_index + levels
    if not 0 <= target < count:
        raise ApplicationError(
            f"The structure has levels 1 to {count}; level {target + 1} does not exist.", extra={"field": "levels"}
        )
    tournament.clock_started_at = now
    tournament.clock_start_level = target
    # A new epoch: the level moved to is announced (again, when moving back) by the next tick.
    tournament.clock_epoch += 1
    tournament.level_announced = target - 1
    _store_pauses(tournament, [clock.Pause(started_at=now)] if state.paused else [])
    tournament.save(
        update_fields=["clock_started_at", "clock_start_level", "clock_pauses", "clock_epoch", "level_announced"]
    )
    _clock_changed(tournament)
    league_services.audit(
        actor=actor,
        action="tournament_clock_move",
        obj=tournament,
        league=tournament.event.season.league,
        data={"from": state.level_index, "to": target},
    )
    return tournament


@retry_on_conflict
@transaction.atomic
def tournament_eliminate(
    *, actor: Any, tournament: Tournament, player: Player, eliminated_by: Player | None = None
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
    actor: Any,
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
    league_services.audit(
        actor=actor,
        action="tournament_eliminate",
        obj=registration,
        league=tournament.event.season.league,
        data={"player": player.pk, "place": still_in, "seat": seat, **(data or {})},
    )
    return registration


@retry_on_conflict
@transaction.atomic
def tournament_eliminate_undo(*, actor: Any, tournament: Tournament) -> Registration:
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
    league_services.audit(
        actor=actor,
        action="tournament_eliminate_undo",
        obj=registration,
        league=tournament.event.season.league,
        data={"player": registration.player_id},
    )
    return registration


@retry_on_conflict
@transaction.atomic
def tournament_balance(
    *, actor: Any, tournament: Tournament, next_big_blind: dict[int, int] | None = None
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
        league_services.audit(
            actor=actor,
            action="tournament_balance",
            obj=tournament,
            league=tournament.event.season.league,
            data={"moves": [[m.player_id, m.from_table, m.from_seat, m.to_table, m.to_seat] for m in moves]},
        )
    return moves


def prize_pool(tournament: Tournament) -> int:
    """Every buy-in, re-buy and add-on booked at the event (refunds included)."""
    kinds = (LedgerKind.BUY_IN, LedgerKind.REBUY, LedgerKind.ADDON)
    return sum(
        LedgerEntry.objects.filter(event_id=tournament.event_id, kind__in=kinds).values_list("amount", flat=True)
    )
