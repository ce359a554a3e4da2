import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.clock import Pause, clock_state, pause, played_seconds, resume
from tournaments.errors import TournamentLogicError
from tournaments.structures import Level

START = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)
LEVELS = [
    Level(small_blind=5, big_blind=10, length=10),
    Level(small_blind=10, big_blind=20, length=10),
    Level(length=5, is_break=True),
    Level(small_blind=25, big_blind=50, length=10),
]


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def test_the_level_and_time_left_follow_from_the_start():
    state = clock_state(levels=LEVELS, started_at=START, pauses=[], now=at(12.5))
    assert (state.level_index, state.seconds_left, state.next_break_in) == (1, 450, 450)
    assert not state.paused


def test_a_pause_stops_the_clock_and_resume_shifts_the_schedule_exactly():
    pauses = pause([], now=at(5))
    frozen = [clock_state(levels=LEVELS, started_at=START, pauses=pauses, now=at(minute)) for minute in (5, 9, 30)]
    assert {(state.level_index, state.seconds_left) for state in frozen} == {(0, 300)}
    assert all(state.paused for state in frozen)
    pauses = resume(pauses, now=at(8))
    state = clock_state(levels=LEVELS, started_at=START, pauses=pauses, now=at(12))
    assert (state.level_index, state.seconds_left, state.paused) == (0, 60, False)  # 9 minutes played of 10


def test_the_last_level_runs_on_when_its_time_is_up():
    state = clock_state(levels=LEVELS, started_at=START, pauses=[], now=at(500))
    assert state.level_index == 3 and state.finished_structure and state.seconds_left is None


def test_a_level_in_hands_stops_the_timed_count():
    levels = [Level(big_blind=10, length=10), Level(big_blind=20, length=5, unit="hands")]
    state = clock_state(levels=levels, started_at=START, pauses=[], now=at(60))
    assert (state.level_index, state.seconds_left) == (1, None)


def test_the_start_level_is_where_the_count_begins():
    state = clock_state(levels=LEVELS, started_at=START, pauses=[], now=at(1), start_level=3)
    assert (state.level_index, state.seconds_left) == (3, 540)


def test_pausing_twice_or_resuming_a_running_clock_is_refused():
    with pytest.raises(TournamentLogicError, match="already paused"):
        pause(pause([], now=at(1)), now=at(2))
    with pytest.raises(TournamentLogicError, match="is running"):
        resume([], now=at(1))


def test_overlapping_pauses_are_refused():
    bad = [Pause(at(5), at(10)), Pause(at(7), at(12))]
    with pytest.raises(TournamentLogicError, match="Pause 2 starts before"):
        clock_state(levels=LEVELS, started_at=START, pauses=bad, now=at(20))


pause_plans = st.lists(st.tuples(st.integers(0, 600), st.integers(0, 600)), max_size=5)


def build_pauses(plan):
    pauses, cursor = [], START
    for gap, length in plan:
        begin = cursor + timedelta(seconds=gap)
        pauses.append(Pause(begin, begin + timedelta(seconds=length)))
        cursor = begin + timedelta(seconds=length)
    return pauses


@settings(max_examples=75, deadline=None)
@given(plan=pause_plans, times=st.lists(st.integers(0, 4000), min_size=2, max_size=6))
def test_the_clock_is_monotonic_and_pauses_stop_it(plan, times):
    pauses = build_pauses(plan)
    times = sorted(times)
    states = [clock_state(levels=LEVELS, started_at=START, pauses=pauses, now=at(t / 60)) for t in times]
    for earlier, later in itertools.pairwise(states):
        assert later.elapsed_seconds >= earlier.elapsed_seconds
        assert later.level_index >= earlier.level_index
    for item in pauses:
        inside = [item.started_at + (item.ended_at - item.started_at) * share for share in (0, 0.5, 1)]
        counted = {played_seconds(started_at=START, pauses=pauses, now=moment) for moment in inside}
        assert len(counted) == 1
    total_paused = sum((item.ended_at - item.started_at).total_seconds() for item in pauses)
    end = max(item.ended_at for item in pauses) if pauses else START
    assert played_seconds(started_at=START, pauses=pauses, now=end) == int((end - START).total_seconds() - total_paused)
