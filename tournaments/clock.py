"""The tournament clock: a pure function of the start time, the structure, the recorded pauses and `now`.

The server is the one source of time. Nothing is stored per tick: every screen (and every worker after a
restart) computes the same level and time left from the same facts. Only levels measured in minutes are
timed; a level measured in hands or orbits stays in force until the organiser (or the tables) move on,
so the clock stops at the first such level and says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from tournaments.errors import TournamentLogicError
from tournaments.structures import Level


@dataclass(frozen=True)
class Pause:
    started_at: datetime
    ended_at: datetime | None = None  # None: still paused


@dataclass(frozen=True, kw_only=True)
class ClockState:
    level_index: int  # index into the structure; len(levels) - 1 once the last level runs on
    level: Level
    seconds_left: int | None  # None when the level is not timed (hands or orbits) or the last level runs on
    next_break_in: int | None  # seconds of play until the next break starts; None: no timed break ahead
    paused: bool
    elapsed_seconds: int  # seconds of play since the start, pauses excluded
    finished_structure: bool  # the last level's time is up: it runs on until the event ends


def played_seconds(*, started_at: datetime, pauses: list[Pause], now: datetime) -> int:
    """Seconds of play between the start and `now`, leaving out every pause (an open pause runs to `now`)."""
    if now <= started_at:
        return 0
    paused = timedelta()
    for pause in pauses:
        begin = max(pause.started_at, started_at)
        end = min(pause.ended_at or now, now)
        if end > begin:
            paused += end - begin
    return max(0, int((now - started_at - paused).total_seconds()))


def check_pauses(pauses: list[Pause], *, started_at: datetime) -> None:
    """Pauses are after the start, in order, non-overlapping, and only the last may be open."""
    previous_end = started_at
    for index, pause in enumerate(pauses):
        if pause.started_at < previous_end:
            raise TournamentLogicError(f"Pause {index + 1} starts before the clock started or the pause before ended.")
        if pause.ended_at is None:
            if index != len(pauses) - 1:
                raise TournamentLogicError("Only the last pause may still be open.")
            continue
        if pause.ended_at < pause.started_at:
            raise TournamentLogicError(f"Pause {index + 1} ends before it starts.")
        previous_end = pause.ended_at


def clock_state(
    *, levels: list[Level], started_at: datetime, pauses: list[Pause], now: datetime, start_level: int = 0
) -> ClockState:
    """The level in force at `now`, the time left in it and the time to the next break.

    `start_level` is the level the counting starts from: when the organiser moves a level forward or back,
    the caller records the move as a new start at that level (see services).
    """
    if not levels:
        raise TournamentLogicError("The clock needs a structure with at least one level.")
    check_pauses(pauses, started_at=started_at)
    elapsed = played_seconds(started_at=started_at, pauses=pauses, now=now)
    paused = bool(pauses) and pauses[-1].ended_at is None and pauses[-1].started_at <= now
    index = min(max(start_level, 0), len(levels) - 1)
    remaining = elapsed
    seconds_left: int | None = None
    finished = False
    while True:
        level = levels[index]
        if level.seconds is None:
            seconds_left = None
            break
        length = level.seconds
        if remaining < length:
            seconds_left = length - remaining
            break
        if index == len(levels) - 1:
            seconds_left = None
            finished = True
            break
        remaining -= length
        index += 1
    next_break_in: int | None = None
    if seconds_left is not None and not levels[index].is_break:
        ahead = seconds_left
        for later in levels[index + 1 :]:
            if later.is_break:
                next_break_in = ahead
                break
            if later.seconds is None:
                break
            ahead += later.seconds
    return ClockState(
        level_index=index,
        level=levels[index],
        seconds_left=seconds_left,
        next_break_in=next_break_in,
        paused=paused,
        elapsed_seconds=elapsed,
        finished_structure=finished,
    )


def pause(pauses: list[Pause], *, now: datetime) -> list[Pause]:
    """The pauses with a new open one from `now`; refused when the clock is already paused."""
    if pauses and pauses[-1].ended_at is None:
        raise TournamentLogicError("The clock is already paused; resume it first.")
    if pauses and now < pauses[-1].ended_at:
        raise TournamentLogicError("A pause cannot start before the previous one ended.")
    return [*pauses, Pause(started_at=now)]


def resume(pauses: list[Pause], *, now: datetime) -> list[Pause]:
    """The pauses with the open one closed at `now`; refused when the clock is running."""
    if not pauses or pauses[-1].ended_at is not None:
        raise TournamentLogicError("The clock is running; pause it before resuming.")
    if now < pauses[-1].started_at:
        raise TournamentLogicError("A pause cannot end before it started.")
    return [*pauses[:-1], Pause(started_at=pauses[-1].started_at, ended_at=now)]
