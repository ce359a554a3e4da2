"""Fixtures for online play: a league world, a table, and a recorded schedule instead of Celery's timer.

Services schedule tasks with `games.online.schedule.later`; here those are recorded, so a test decides
when each one runs (and may run one twice, or late) and can assert what was scheduled with which delay.
"""

import uuid
from dataclasses import dataclass, field

import pytest
from django.utils import timezone

from games.engine import Game
from games.online import schedule, services, tasks
from games.online.models import OnlineTable
from tests.factories import MembershipFactory, PlayerFactory, UserFactory
from tests.league.conftest import build_world, eager_tasks  # noqa: F401 (fixture)


@dataclass
class Schedule:
    calls: list[tuple[str, list, float]] = field(default_factory=list)

    def names(self) -> list[str]:
        return [name for name, _, _ in self.calls]

    def last(self, name: str) -> tuple[str, list, float]:
        return next(call for call in reversed(self.calls) if call[0] == name)

    def run(self, call: tuple[str, list, float]):
        """Run the task as its worker would once its countdown has passed: the turn clock's at the deadline."""
        name, args, _ = call
        if name == "turn_timeout":
            time_runs_out(*args)
        return getattr(tasks, name).run(*args)

    def drain(self, table: OnlineTable, *, limit: int = 20_000) -> int:
        """Run scheduled tasks in order until the table finishes or nothing is left; returns tasks run."""
        count = 0
        while self.calls and count < limit:
            self.run(self.calls.pop(0))
            count += 1
            table.refresh_from_db()
            if table.status == "finished":
                break
        return count


def time_runs_out(table_id: int, turn_version: int) -> None:
    """The clock reaches the turn's deadline: the table's stored deadline for `turn_version`, when still ahead, is
    moved to now (the task acts only once it has passed; a later turn's deadline is left alone)."""
    now = timezone.now()
    OnlineTable.objects.filter(pk=table_id, turn_version=turn_version, deadline__gt=now).update(deadline=now)


def to_next_hand_pause(table: OnlineTable, scheduled: Schedule) -> None:
    """Let the clock play the hand out until the table waits for its next hand."""
    for _ in range(50):  # the clock acts for whoever is awaited (sitting-out seats are acted for at once)
        table.refresh_from_db()
        if not Game.from_json(table.state).in_hand:
            break
        scheduled.run(scheduled.last("turn_timeout"))
    else:
        raise AssertionError("the hand did not end")
    table.refresh_from_db()


@pytest.fixture(autouse=True)
def event_prefix(settings):
    # Redis pub/sub channels are shared by every database number: keep this run's apart.
    settings.ONLINE_EVENT_PREFIX = f"test-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def scheduled(monkeypatch) -> Schedule:
    recorder = Schedule()
    monkeypatch.setattr(schedule, "later", lambda name, args, countdown: recorder.calls.append((name, args, countdown)))
    return recorder


@pytest.fixture
def world(db):
    return build_world()


@pytest.fixture
def humans(world):
    """Three signed-in members with player profiles, besides the organiser."""
    users = [world.users["member"]]
    for name in ("Bail", "Mon"):
        user = UserFactory(username=name.lower())
        MembershipFactory(league=world.league, player=PlayerFactory(user=user, display_name=name))
        users.append(user)
    return users


@pytest.fixture
def open_table(world):
    world.event.status = "planned"
    world.event.save()

    def make(**fields) -> OnlineTable:
        fields.setdefault("name", "Table 1")
        fields.setdefault("seats", 2)
        return services.table_open(actor=world.users["organiser"], event=world.event, **fields)

    return make


def start_heads_up(world, humans, open_table) -> OnlineTable:
    """A running two-seat table of the league's variant: the organiser and a member, first hand dealt."""
    table = open_table(seats=2, turn_seconds=20)
    services.seat_take(actor=world.users["organiser"], table=table)
    services.seat_take(actor=humans[0], table=table)
    services.table_start(actor=world.users["organiser"], table=table)
    table.refresh_from_db()
    return table


@pytest.fixture
def heads_up(world, humans, open_table, scheduled):
    """A running two-seat table: the organiser and a member, first hand dealt."""
    return start_heads_up(world, humans, open_table)
