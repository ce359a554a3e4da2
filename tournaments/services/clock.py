"""The clock: the organiser's controls (start, pause and resume, move by levels), the clock as every screen
shows it, and its announcements: level changes, break starts and ends, one-minute warnings.

The level in force is always derived (`tournaments.clock`); what is stored here is only that an announcement
was made, once per (tournament, epoch, level, kind) (`ClockEvent`'s unique key, checked under the tournament's
lock). A tick therefore never repeats an announcement, and because it walks every level from the last one
announced to the one in force, it never skips one either, however late it runs (a worker down for two levels
announces both, late, with their due times). Moving the clock starts a new epoch: the level moved to is
announced again on purpose.

Ticks come from two sources: a task scheduled for the exact time of the next change (after every tick and every
clock change) and Celery beat's periodic re-check (`clock_tick_due`), so a lost task costs at most a beat period.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError
from config.events import publish
from config.inputs import Actor
from league import services as league_services
from league.models import EventStatus
from tournaments import clock, structures
from tournaments.errors import TournamentLogicError
from tournaments.models import ClockEvent, ClockEventKind, Format, Tournament, TournamentStatus
from tournaments.selectors import clock_pauses as _pauses
from tournaments.selectors import tournament_clock
from tournaments.services.common import _audit, _check_manager, _lock, clock_topic

logger = logging.getLogger(__name__)
# The clock's task, by the name it is registered under (`tournaments.tasks`, which calls these services).
CLOCK_TICK = "tournaments.clock_tick"
WARNING_SECONDS = 60


def _store_pauses(tournament: Tournament, pauses: list[clock.Pause]) -> None:
    tournament.clock_pauses = [
        [item.started_at.isoformat(), item.ended_at.isoformat() if item.ended_at else None] for item in pauses
    ]


def wall_time(tournament: Tournament, played_seconds: int) -> datetime | None:
    """When (wall clock) `played_seconds` of play since the clock's start are reached; None while paused before."""
    moment = tournament.clock_started_at + timedelta(seconds=played_seconds)
    for pause in _pauses(tournament):
        if pause.started_at > moment:
            break
        if pause.ended_at is None:
            return None
        moment += pause.ended_at - pause.started_at
    return moment


def level_due(tournament: Tournament, levels: list[structures.Level], index: int) -> datetime | None:
    """When level `index` starts in the current epoch (counted from the level the clock started at)."""
    offset = 0
    for level in levels[tournament.clock_start_level : index]:
        if level.seconds is None:
            return None
        offset += level.seconds
    return wall_time(tournament, offset)


def _due(state: clock.ClockState, tournament: Tournament) -> bool:
    """Whether a tick has something to announce (read without a lock; the tick re-checks under it)."""
    if state.level_index > tournament.level_announced:
        return True
    return (
        state.seconds_left is not None
        and state.seconds_left <= WARNING_SECONDS
        and not state.paused
        and not state.level.is_break
        and not ClockEvent.objects.filter(
            tournament=tournament,
            epoch=tournament.clock_epoch,
            level_index=state.level_index,
            kind=ClockEventKind.WARNING,
        ).exists()
    )


@retry_on_conflict
@transaction.atomic
def tournament_clock_tick(
    *, tournament_id: int, now: datetime | None = None, reschedule: bool = False
) -> list[ClockEvent]:
    """Announce every level (and break start or end) reached since the last announcement, and the one-minute
    warning of the level in force; safe to run twice, late or concurrently. Returns the new announcements.

    The next tick is scheduled (eta) when this one announced something, or after a change of the clock
    (`reschedule`): a duplicate tick that finds nothing new schedules nothing, so chains never multiply."""
    now = now or timezone.now()
    event_id = Tournament.objects.filter(pk=tournament_id).values_list("event_id", flat=True).first()
    if event_id is None:
        return []
    tournament = _lock(Tournament(pk=tournament_id, event_id=event_id))
    if tournament.status != TournamentStatus.RUNNING or tournament.clock_started_at is None:
        return []
    state = tournament_clock(tournament, now=now)
    levels = structures.structure_from_json(tournament.structure)
    done = set(
        ClockEvent.objects.filter(tournament=tournament, epoch=tournament.clock_epoch).values_list(
            "level_index", "kind"
        )
    )
    new: list[ClockEvent] = []

    def announce(index: int, kind: str, due: datetime | None) -> None:
        if (index, kind) not in done:
            done.add((index, kind))
            new.append(
                ClockEvent(
                    tournament=tournament,
                    epoch=tournament.clock_epoch,
                    level_index=index,
                    kind=kind,
                    due_at=due or now,
                    recorded_at=timezone.now(),
                )
            )

    first = max(tournament.level_announced + 1, tournament.clock_start_level)
    for index in range(first, state.level_index + 1):
        due = level_due(tournament, levels, index)
        if index > tournament.clock_start_level and levels[index - 1].is_break:
            announce(index - 1, ClockEventKind.BREAK_END, due)
        announce(index, ClockEventKind.BREAK_START if levels[index].is_break else ClockEventKind.LEVEL, due)
    if (
        state.seconds_left is not None
        and state.seconds_left <= WARNING_SECONDS
        and not state.paused
        and not state.level.is_break
    ):
        end = level_due(tournament, levels, state.level_index + 1) if state.level_index + 1 < len(levels) else None
        announce(state.level_index, ClockEventKind.WARNING, end - timedelta(seconds=WARNING_SECONDS) if end else now)
    if new:
        ClockEvent.objects.bulk_create(new)
    if state.level_index != tournament.level_announced:
        tournament.level_announced = state.level_index
        tournament.save(update_fields=["level_announced"])
    for item in new:
        publish(
            clock_topic(tournament.pk),
            {"tournament": tournament.pk, "kind": item.kind, "level": item.level_index + 1, "epoch": item.epoch},
        )
    if any(item.kind in (ClockEventKind.LEVEL, ClockEventKind.BREAK_END) for item in new):
        _apply_to_tables(tournament, levels[state.level_index], number=state.level_index + 1)
    if any(item.kind in (ClockEventKind.LEVEL, ClockEventKind.BREAK_START) for item in new):
        # A re-buy period that ended with this level: the players still out of chips online are out.
        from tournaments.services.online import rebuy_period_sweep

        rebuy_period_sweep(tournament, now=now)
    if new or reschedule:
        schedule_next_tick(tournament, state=state, now=now)
    return new


def _apply_to_tables(tournament: Tournament, level: structures.Level, *, number: int) -> None:
    """The new level reaches the tables at their next hand (online tables: `games.online.services.level_changed`)."""
    from games.online import services as online_services

    if tournament.format == Format.HALCYON:
        return  # a Halcyon table plays its preset's forced bets for its whole game (every player deals once)

    transaction.on_commit(
        lambda: online_services.level_changed(
            event_id=tournament.event_id,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
            level=number,
        ),
        robust=True,
    )


def next_tick_at(tournament: Tournament, *, now: datetime) -> datetime | None:
    """The exact time of the clock's next announcement (the next level, or the one-minute warning before it);
    None when nothing is timed (paused, a level of hands or orbits, the last level)."""
    state = tournament_clock(tournament, now=now)
    if state is None or state.paused or state.seconds_left is None:
        return None
    levels = structures.structure_from_json(tournament.structure)
    if state.level_index + 1 >= len(levels):
        return None
    due = level_due(tournament, levels, state.level_index + 1)
    if due is None:
        return None
    warning = due - timedelta(seconds=WARNING_SECONDS)
    if not state.level.is_break and warning > now:
        return warning
    return due


# A message a worker holds longer than the broker's visibility timeout (`CELERY_BROKER_TRANSPORT_OPTIONS`, 120 s)
# is delivered a second time, and that copy again: a level's change further off than this is left to beat.
MAX_ETA_SECONDS = 60.0


def schedule_next_tick(tournament: Tournament, *, state: clock.ClockState | None, now: datetime) -> None:
    """After commit, queue a tick for the exact time of the next change (only with a real worker: an eager
    task would run at once). Beat's re-check covers a task lost on the way."""
    if settings.CELERY_TASK_ALWAYS_EAGER or state is None:
        return
    eta = next_tick_at(tournament, now=now)
    if eta is None or (eta - now).total_seconds() > MAX_ETA_SECONDS:
        return  # beat's re-check (every second) announces it; a far ETA would be delivered again and again
    tournament_id = tournament.pk

    def queue() -> None:
        current_app.tasks[CLOCK_TICK].apply_async((tournament_id,), eta=eta)

    transaction.on_commit(queue, robust=True)


def clock_changed(tournament: Tournament) -> None:
    """After a start, pause, resume or move: tick now (after commit), which also schedules the next tick."""
    tournament_id = tournament.pk

    def queue() -> None:
        current_app.tasks[CLOCK_TICK].delay(tournament_id, reschedule=True)

    publish(clock_topic(tournament_id), {"tournament": tournament_id, "kind": "changed"})
    transaction.on_commit(queue, robust=True)


def clock_tick_due(*, now: datetime | None = None) -> int:
    """Beat's re-check: tick every running tournament that has an announcement due (cheap reads first)."""
    now = now or timezone.now()
    made = 0
    for tournament in Tournament.objects.filter(status=TournamentStatus.RUNNING, clock_started_at__isnull=False):
        try:
            state = tournament_clock(tournament, now=now)
        except Exception:  # a broken structure must not stop the other tournaments' clocks
            logger.exception("clock of tournament %s cannot be computed", tournament.pk)
            continue
        if state is not None and _due(state, tournament):
            made += len(tournament_clock_tick(tournament_id=tournament.pk, now=now))
    return made


@retry_on_conflict
@transaction.atomic
def tournament_clock_start(*, actor: Actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    """Start the clock (after the draw): the tournament, and its league event, are running from now."""
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
    if tournament.event.status == EventStatus.PLANNED:
        # The tournament starts with its clock, and so does its league event (the league's pages show it running).
        tournament.event = league_services.event_update(actor=actor, event=tournament.event, status=EventStatus.RUNNING)
    clock_changed(tournament)
    _audit(actor=actor, tournament=tournament, action="tournament_clock_start")
    return tournament


@retry_on_conflict
@transaction.atomic
def tournament_clock_pause(
    *, actor: Actor, tournament: Tournament, resume: bool = False, now: datetime | None = None
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
    clock_changed(tournament)
    action = "tournament_clock_resume" if resume else "tournament_clock_pause"
    _audit(actor=actor, tournament=tournament, action=action)
    return tournament


@retry_on_conflict
@transaction.atomic
def tournament_clock_move(
    *, actor: Actor, tournament: Tournament, levels: int, now: datetime | None = None
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
    clock_changed(tournament)
    _audit(
        actor=actor,
        tournament=tournament,
        action="tournament_clock_move",
        data={"from": state.level_index, "to": target},
    )
    return tournament
