"""What is due lives on the table row, and the sweep sends it again when its message was lost: a table resumes
by itself, exactly once (no hand dealt twice or skipped, no decision made twice, every chip kept)."""

import contextlib
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from games.engine import Game
from games.online import schedule, services
from games.online.models import Due, OnlineAction, OnlineTable, TableStatus
from tests.league.conftest import client_for

pytestmark = pytest.mark.django_db


@contextlib.contextmanager
def clock_ahead(seconds: float):
    """The sweep runs `seconds` from now (the rows keep their times)."""
    real = timezone.now
    previous = schedule.timezone
    schedule.timezone = SimpleNamespace(now=lambda: real() + timedelta(seconds=seconds))
    try:
        yield
    finally:
        schedule.timezone = previous


@pytest.fixture
def resent(monkeypatch, scheduled):
    """What the sweep sends lands in the same recorder as what services send after their commit."""
    monkeypatch.setattr(schedule, "dispatch", lambda name, args, countdown: scheduled.calls.append((name, args, 0)))
    return scheduled


def sweep_at(seconds: float) -> int:
    with clock_ahead(seconds):
        return schedule.sweep()


@pytest.fixture
def bots(world, open_table, scheduled):
    table = open_table(seats=3, turn_seconds=30)
    services.table_fill_bots(actor=world.users["organiser"], table=table, kind="random")
    services.table_start(actor=world.users["organiser"], table=table)
    table.refresh_from_db()
    return table


def test_the_row_says_what_is_due_and_when(bots, heads_up):
    assert bots.due == Due.BOT and bots.deadline - timedelta(seconds=30) < bots.due_at < bots.deadline
    assert heads_up.due == Due.CLOCK and heads_up.due_at == heads_up.deadline


def test_nothing_is_sent_again_before_it_is_overdue(bots, resent):
    resent.calls.clear()
    assert sweep_at(0) == 0 and resent.calls == []


def test_lost_bot_messages_are_sent_again_and_each_bot_acts_once(bots, resent):
    resent.calls.clear()  # the worker was killed with the messages
    assert sweep_at(5) == 1
    names = resent.names()
    assert names == ["bot_act"] * 3  # one per bot; a bot already decided does nothing
    for call in list(resent.calls):
        resent.run(call)
    bots.refresh_from_db()
    assert OnlineAction.objects.filter(table=bots, phase="select").count() == 3
    # The next decision is due afresh (its messages are sent), not overdue.
    bots.refresh_from_db()
    assert bots.resent_at is None and bots.due_at > timezone.now()
    assert sweep_at(0) == 0


def test_a_lost_turn_clock_is_sent_again_and_acts_once(heads_up, resent):
    resent.calls.clear()
    assert sweep_at(10) == 0  # the clock of 20 seconds has not run out
    assert sweep_at(22) == 1 and resent.names() == ["turn_timeout"]
    call = resent.calls.pop()
    assert resent.run(call) == 2 and resent.run(call) == 0
    assert OnlineAction.objects.filter(table=heads_up, source="timeout").count() == 2


def test_a_lost_next_hand_is_sent_again_and_deals_once(settings, heads_up, resent):
    settings.ONLINE_HAND_PAUSE_SECONDS = 4
    while "next_hand" not in resent.names():
        resent.run(resent.last("turn_timeout"))
    original = resent.last("next_hand")
    resent.calls.clear()
    heads_up.refresh_from_db()
    assert heads_up.due == Due.DEAL
    assert sweep_at(3) == 0 and sweep_at(6) == 1
    again = resent.last("next_hand")
    assert again[1] == original[1]
    assert resent.run(again) is True
    assert resent.run(original) is False  # the original arriving late deals nothing
    heads_up.refresh_from_db()
    game = Game.from_json(heads_up.state)
    assert game.in_hand and game.hands_played == 1 and heads_up.due == Due.CLOCK


def test_a_table_waiting_in_the_queue_is_sent_again_only_once_per_interval(settings, bots, resent):
    settings.ONLINE_SWEEP_RESEND_SECONDS = 10
    resent.calls.clear()
    assert sweep_at(5) == 1
    assert sweep_at(6) == sweep_at(12) == 0  # queued behind others, not lost: not sent again and again
    assert sweep_at(16) == 1
    assert resent.names() == ["bot_act"] * 6


def test_paused_and_finished_tables_are_not_swept(world, bots, resent):
    services.table_pause(actor=world.users["organiser"], table=bots)
    resent.calls.clear()
    assert sweep_at(60) == 0
    OnlineTable.objects.filter(pk=bots.pk).update(status=TableStatus.FINISHED)
    assert sweep_at(60) == 0


def test_the_sweep_costs_one_query_when_nothing_is_overdue(bots, resent, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert sweep_at(0) == 0


def test_a_game_losing_messages_finishes_through_the_sweep_with_every_hand_once(world, open_table, resent):
    """Every third message is lost and every fifth arrives twice: the sweep carries the game to its end, each hand
    is dealt once and in order, and the chips add up."""
    table = open_table(seats=4, turn_seconds=30)
    services.table_fill_bots(actor=world.users["organiser"], table=table, kind="sensible")
    services.table_start(actor=world.users["organiser"], table=table)
    ahead, sent, sweeps = 0.0, 0, 0
    while sweeps < 5_000:
        table.refresh_from_db()
        if table.status == TableStatus.FINISHED:
            break
        if not resent.calls:
            ahead += 15  # nothing left in the queue: time passes until the sweep finds the table overdue
            sweeps += 1
            sweep_at(ahead)
            continue
        call = resent.calls.pop(0)
        sent += 1
        if sent % 3 == 0:
            continue  # lost
        resent.run(call)
        if sent % 5 == 0:
            resent.run(call)  # delivered twice
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED and sweeps > 10
    game = Game.from_json(table.state, history=table.history)
    hands = [r["number"] for r in table.results if "stacks" in r]
    assert hands == list(range(1, game.hands_played + 1))
    record = table.game.replay_result["bots"]  # bots' results stay on the game's record (never league seats)
    assert sum(bot["final_credits"] for bot in record.values()) == 4 * table.buy_in


def test_an_action_is_answered_2xx_when_the_broker_refuses_the_message(
    transactional_db, monkeypatch, world, humans, open_table
):
    def refuse(name, args, countdown):
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(schedule, "dispatch", refuse)
    table = open_table(seats=2, turn_seconds=20)
    services.seat_take(actor=world.users["organiser"], table=table)
    services.seat_take(actor=humans[0], table=table)
    assert client_for(world.users["organiser"]).post(f"/api/tables/{table.pk}/start/").status_code == 200
    table.refresh_from_db()
    body = {"verb": "select", "cards": [], "version": table.version, "key": "k1"}
    response = client_for(humans[0]).post(f"/api/tables/{table.pk}/act/", body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["applied"] and OnlineAction.objects.filter(table=table, source="player").count() == 1
    # The clock's message never left; the row still says it is due, so the sweep sends it.
    table.refresh_from_db()
    assert table.due == Due.CLOCK and table.due_at == table.deadline
    sent = []
    monkeypatch.setattr(schedule, "dispatch", lambda name, args, countdown: sent.append((name, args)))
    assert sweep_at(25) == 1 and sent == [("turn_timeout", [table.pk, table.turn_version])]


def test_a_wait_over_a_minute_is_left_to_the_sweep(monkeypatch, world, humans, open_table, resent):
    """A turn clock of 10 minutes is not a message held for 10 minutes (beyond the broker's visibility timeout it
    would come back a second time): with a real broker it is not sent, and the sweep sends it when it is due."""
    from config.celery import app

    sent = []
    monkeypatch.setattr(schedule, "dispatch", lambda name, args, countdown: sent.append((name, countdown)))
    previous, app.conf.task_always_eager = app.conf.task_always_eager, False  # as with a real broker
    try:
        assert schedule.send("turn_timeout", [1, 1], 600) is False and sent == []
        assert schedule.send("bot_act", [1, 0, 1], 1.5) is True and sent == [("bot_act", 1.5)]
    finally:
        app.conf.task_always_eager = previous
    table = open_table(seats=2, turn_seconds=600)
    services.seat_take(actor=world.users["organiser"], table=table)
    services.seat_take(actor=humans[0], table=table)
    services.table_start(actor=world.users["organiser"], table=table)
    table.refresh_from_db()
    assert table.due == Due.CLOCK
    sent.clear()
    assert sweep_at(300) == 0 and sweep_at(602) == 1 and sent == [("turn_timeout", 0)]
