"""A tournament played on online tables: eliminations reported by the tables, and tables opened from the
control room. Games never import this: the tables report busts through `games.hooks` (registered in
`TournamentsConfig.ready`), and opening a table calls `games.online.services`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError
from games.online import services as online_services
from games.online import tournament as online_tournament
from games.online.models import OnlineTable, TableStatus
from league.models import AuditEntry, Player
from tournaments import structures
from tournaments.models import Format, Registration, RegistrationStatus, Tournament, TournamentStatus
from tournaments.services.registration import (
    _check_manager,
    _eliminate,
    _lock,
    _registration_open,
    tournament_clock,
)


@retry_on_conflict
@transaction.atomic
def tournament_online_busts(
    *, event_id: int, table_id: int, hand: int, busts: list[dict[str, Any]], now: datetime | None = None
) -> list[int]:
    """Record the eliminations an online table reported after `hand`; returns the registrations eliminated.

    Once: a bust already recorded for that table and hand (or a player already out) is skipped, so the task
    may run twice. Players out in the same hand are placed by the stack they started it with (the smaller
    goes out first, in the worse place). While a re-buy tournament's re-buy period is open nobody is
    eliminated here: the player may still re-buy, and the organiser eliminates from the control room.
    """
    tournament = Tournament.objects.filter(event_id=event_id).first()
    if tournament is None:
        return []
    tournament = _lock(tournament)
    if tournament.status != TournamentStatus.RUNNING or tournament.format == Format.HALCYON:
        return []  # a Halcyon table's places come from its whole game (tournaments.services.halcyon)
    if tournament.format == Format.REBUY and _registration_open(tournament, now or timezone.now()):
        return []
    eliminated = []
    for bust in sorted(busts, key=lambda row: row["stack"]):
        player_id = bust["player_id"]
        recorded = AuditEntry.objects.filter(
            action="tournament_eliminate", data__table=table_id, data__hand=hand, data__player=player_id
        ).exists()
        registration = (
            Registration.objects.select_for_update(of=("self",))
            .select_related("player")
            .filter(tournament=tournament, player_id=player_id, status=RegistrationStatus.REGISTERED)
            .first()
        )
        if recorded or registration is None:
            continue
        if Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED).count() <= 1:
            break
        winner = bust.get("knocked_out_by")
        knocked_out_by = None
        if winner and winner != player_id:
            still_in = Registration.objects.filter(
                tournament=tournament, player_id=winner, status=RegistrationStatus.REGISTERED
            ).exists()
            knocked_out_by = Player.objects.get(pk=winner) if still_in else None
        _eliminate(
            actor=None,
            tournament=tournament,
            registration=registration,
            eliminated_by=knocked_out_by,
            data={"table": table_id, "hand": hand, "source": "online"},
        )
        eliminated.append(registration.pk)
    return eliminated


def _playing_level(levels: list[structures.Level], index: int) -> structures.Level:
    """The level a table plays at `index`: during a break, the level after it (the last one at the end)."""
    after = [level for level in levels[index:] if not level.is_break]
    before = [level for level in levels[:index] if not level.is_break]
    return after[0] if after else before[-1]


@retry_on_conflict
@transaction.atomic
def tournament_online_table_open(
    *, actor: Any, tournament: Tournament, table_number: Any, turn_seconds: Any = 30, now: datetime | None = None
) -> Any:
    """Open an online table for a tournament table's seated players, at the level in force, with the event's
    rules: escalation off (the levels come from the clock, at each next hand), no re-buys at the table (the
    tournament takes them), each player bringing the stack known for them from their last online table (the
    starting stack when none is known). A player still playing at another online table is refused: they move
    between hands first, so no chip is counted twice."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if isinstance(table_number, bool) or not isinstance(table_number, int) or table_number < 1:
        raise ApplicationError(
            f"Choose a table by its number (1 or more); got {table_number!r}.", extra={"field": "table"}
        )
    if tournament.drawn_at is None or tournament.status not in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING):
        raise ConflictError("Online tables open after the seat draw, while the tournament is on.")
    seated = list(
        Registration.objects.filter(
            tournament=tournament, status=RegistrationStatus.REGISTERED, table_number=table_number
        )
        .select_related("player")
        .order_by("seat_number", "pk")
    )
    tables = sorted(
        set(
            Registration.objects.filter(
                tournament=tournament, status=RegistrationStatus.REGISTERED, table_number__isnull=False
            ).values_list("table_number", flat=True)
        )
    )
    if not seated:
        raise ApplicationError(
            f"Table {table_number} has nobody seated; the tables are {', '.join(map(str, tables)) or 'none yet'}.",
            extra={"field": "table"},
        )
    if OnlineTable.objects.filter(
        event=tournament.event,
        tournament_table=table_number,
        status__in=(TableStatus.OPEN, TableStatus.RUNNING, TableStatus.PAUSED),
    ).exists():
        raise ConflictError(f"Table {table_number} already has an online table; finish it before opening another.")
    known = online_tournament.known_stacks(event_id=tournament.event_id)
    stacks = []
    for registration in seated:
        row = known.get(registration.player_id)
        if row is None:
            stacks.append(tournament.starting_stack)
            continue
        name = registration.player.display_name
        if row["active"]:
            raise ConflictError(
                f"{name} is still playing at online table {row['table']}; move them between hands, or finish "
                f"that table, before opening table {table_number}."
            )
        if row["stack"] <= 0:
            raise ConflictError(
                f"{name} has no chips left (out at online table {row['table']}); record their elimination or "
                "re-buy before opening this table."
            )
        stacks.append(row["stack"])
    levels = structures.structure_from_json(tournament.structure)
    state = tournament_clock(tournament, now=now or timezone.now())
    level = _playing_level(levels, state.level_index if state else 0)
    event = tournament.event
    league, season = event.season.league, event.season
    overrides = {
        **league.option_overrides,
        **season.option_overrides,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "escalation": "none",
        "rebuys": False,
        "starting_stack": tournament.starting_stack,
    }
    if (season.variant or league.variant) == "coruscant_shift":
        # The tournament decides when a table ends (its last player moves on or wins), so players can move
        # between hands (engine join and leave: the cash-game rule); odd credits go to a player, never to a
        # carry-over, so every chip stays in a stack.
        overrides.update({"end_rule": "never", "odd_credits": "left_of_dealer"})
    return online_services.table_open_seated(
        actor=actor,
        event=event,
        name=f"{event.name}: table {table_number}",
        players=[registration.player for registration in seated],
        stack=tournament.starting_stack,
        stacks=stacks,
        seat_count=tournament.seats_per_table,
        option_overrides=overrides,
        tournament_table=table_number,
        turn_seconds=turn_seconds,
    )


@retry_on_conflict
@transaction.atomic
def tournament_online_moves(*, actor: Any, tournament: Tournament) -> dict[str, list]:
    """Carry out the balancing moves between running online tables (`selectors.online_moves`), each between
    hands through `games.online.tournament.seat_move`: `{"made": [...], "waiting": [...]}`. A move refused
    because a hand is being played writes nothing and stays to make (at the next hand break, or asked again);
    when none can be made the request is refused. Asking twice moves nobody twice."""
    from tournaments import selectors

    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.status != TournamentStatus.RUNNING:
        raise ConflictError("Players move between online tables while the tournament is running.")
    registrations = list(
        Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED).select_related(
            "player"
        )
    )
    moves = selectors.online_moves(tournament, registrations)["to_make"]
    if not moves:
        raise ConflictError("No player waits to move between online tables; balance the tables first.")
    made, waiting = [], []
    for move in moves:
        try:
            with transaction.atomic():
                online_tournament.seat_move(
                    actor=actor, source_id=move["source"], target_id=move["target"], player_id=move["player"]
                )
            made.append(move)
        except ApplicationError as exc:
            waiting.append({**move, "reason": exc.message})
    if not made:
        raise ConflictError(" ".join(move["reason"] for move in waiting))
    return {"made": made, "waiting": waiting}
