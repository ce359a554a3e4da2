"""The turn clock, bots and the next hand, as Celery tasks: each acts once, even run twice or late."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import Game
from games.online import schedule, services, tasks
from games.online.models import OnlineAction, OnlineSeat, OnlineTable, TableStatus
from games.online.selectors import table_state
from tests.online.conftest import start_heads_up

pytestmark = pytest.mark.django_db


def actions(table, **filters) -> list[OnlineAction]:
    return list(OnlineAction.objects.filter(table=table, **filters).order_by("id"))


def test_a_timeout_acts_for_every_awaited_player_once_even_run_twice(heads_up, scheduled):
    call = scheduled.last("turn_timeout")
    assert scheduled.run(call) == 2  # both players were awaited at select: both keep nothing
    heads_up.refresh_from_db()
    version = heads_up.version
    assert scheduled.run(call) == 0
    heads_up.refresh_from_db()
    assert heads_up.version == version
    timed_out = actions(heads_up, source="timeout")
    assert [(a.verb, a.phase) for a in timed_out] == [("select", "select"), ("select", "select")]
    assert all(s.timeouts == 1 and not s.away for s in OnlineSeat.objects.filter(table=heads_up))


def _clock(table: OnlineTable) -> tuple:
    """What a timeout would change: the table's version, state, deadline and due work, and its seats' counts."""
    table.refresh_from_db()
    seats = sorted(OnlineSeat.objects.filter(table=table).values_list("number", "timeouts", "away"))
    return table.version, table.state, table.deadline, table.due, table.due_at, seats


def test_a_timeout_run_before_the_deadline_changes_nothing_and_the_sweep_sends_it_when_due(
    monkeypatch, heads_up, scheduled
):
    _, args, countdown = scheduled.last("turn_timeout")
    before = _clock(heads_up)
    assert before[2] > timezone.now() and countdown == 20
    assert tasks.turn_timeout.run(*args) == 0  # early (as Celery runs it in-process: at once)
    assert _clock(heads_up) == before and not actions(heads_up, source="timeout")
    real_now = timezone.now
    sent = []
    monkeypatch.setattr(schedule, "dispatch", lambda name, args, countdown: sent.append((name, args)))
    monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(seconds=10))
    assert schedule.sweep() == 0 and tasks.turn_timeout.run(*args) == 0  # 10 s of 20: still ahead
    monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(seconds=22))  # the deadline has passed
    assert schedule.sweep() == 1 and sent == [("turn_timeout", args)]
    assert tasks.turn_timeout.run(*args) == 2  # both players were awaited at select: both keep nothing
    assert len(actions(heads_up, source="timeout")) == 2


def test_in_process_tasks_do_not_run_a_players_clock_out_at_once(
    world, humans, open_table, django_capture_on_commit_callbacks
):
    """No broker (`runserver`, `shell`): every task runs as it is sent, the turn clock's too, at once."""
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        table = start_heads_up(world, humans, open_table)
    assert callbacks  # the clock's task was sent, and run
    table.refresh_from_db()
    game = Game.from_json(table.state)
    assert len(game.waiting_for()) == 2 and table.deadline > timezone.now()
    assert not actions(table, source="timeout")
    assert not OnlineSeat.objects.filter(table=table, timeouts__gt=0).exists()


def test_a_timeout_after_the_player_acted_does_nothing(world, humans, heads_up, scheduled):
    call = scheduled.last("turn_timeout")
    for user in (world.users["organiser"], humans[0]):
        heads_up.refresh_from_db()
        services.table_act(actor=user, table=heads_up, verb="select", cards=[], version=heads_up.version, key="s")
    heads_up.refresh_from_db()
    version = heads_up.version
    assert scheduled.run(call) == 0
    heads_up.refresh_from_db()
    assert heads_up.version == version and not actions(heads_up, source="timeout")


def test_a_timeout_in_select_acts_only_for_the_player_still_awaited(world, humans, heads_up, scheduled):
    call = scheduled.last("turn_timeout")
    services.table_act(actor=humans[0], table=heads_up, verb="select", cards=[], version=heads_up.version, key="s")
    assert scheduled.run(call) == 1
    assert [a.seat.player.user for a in actions(heads_up, source="timeout")] == [world.users["organiser"]]


def test_in_betting_a_timeout_checks_when_free_and_folds_otherwise(world, humans, heads_up, scheduled):
    for _ in range(4):  # both select one card, then keep nothing new at improve
        heads_up.refresh_from_db()
        for user in (world.users["organiser"], humans[0]):
            view = table_state(heads_up, user=user)["view"]
            if "select" in view["legal"]["verbs"]:
                cards = view["cards"][:1] if view["hand"]["phase"] == "select" else []
                services.table_act(
                    actor=user, table=heads_up, verb="select", cards=cards, version=heads_up.version, key=f"{_}"
                )
                break
    heads_up.refresh_from_db()
    game = Game.from_json(heads_up.state)
    seat = game.waiting_for()[0]
    legal = game.legal_actions(seat)
    assert legal.phase.startswith("betting")
    expected = "check" if legal.can_check else "fold"
    assert scheduled.run(scheduled.last("turn_timeout")) == 1
    assert actions(heads_up, source="timeout")[-1].verb == expected


def member_acts_or_clock_runs(world, humans, table, scheduled) -> None:
    """The member takes the clock's own choice when awaited; otherwise the organiser's clock runs out."""
    table.refresh_from_db()
    game = Game.from_json(table.state)
    mem_seat = OnlineSeat.objects.get(table=table, player__user=humans[0]).engine_seat
    if not game.waiting_for():
        scheduled.run(scheduled.last("next_hand"))
    elif mem_seat in game.waiting_for():
        decision = services.default_decision(game, mem_seat)
        services.table_act(
            actor=humans[0],
            table=table,
            verb=decision.verb,
            cards=list(decision.cards),
            version=table.version,
            key=f"m{table.version}",
        )
    else:
        assert scheduled.run(scheduled.last("turn_timeout")) == 1


def test_two_timeouts_mark_a_player_away_and_they_are_then_acted_for_at_once(world, humans, heads_up, scheduled):
    org = world.users["organiser"]
    away = OnlineSeat.objects.get(table=heads_up, player__user=org)
    for _ in range(50):
        member_acts_or_clock_runs(world, humans, heads_up, scheduled)
        away.refresh_from_db()
        if away.away:
            break
    assert away.away and away.timeouts == 2
    # From now on the away player's decisions are taken at once, without waiting for the clock.
    for _ in range(10):
        member_acts_or_clock_runs(world, humans, heads_up, scheduled)
        heads_up.refresh_from_db()
        assert away.engine_seat not in Game.from_json(heads_up.state).waiting_for()
    assert actions(heads_up, source="away")
    services.seat_return(actor=org, table=heads_up)
    away.refresh_from_db()
    assert not away.away and away.timeouts == 0


def test_acting_yourself_resets_the_timeout_count(world, humans, heads_up, scheduled):
    org = world.users["organiser"]
    services.table_act(actor=humans[0], table=heads_up, verb="select", cards=[], version=heads_up.version, key="m")
    scheduled.run(scheduled.last("turn_timeout"))
    seat = OnlineSeat.objects.get(table=heads_up, player__user=org)
    assert seat.timeouts == 1
    while True:
        heads_up.refresh_from_db()
        game = Game.from_json(heads_up.state)
        if seat.engine_seat in game.waiting_for():
            break
        member_acts_or_clock_runs(world, humans, heads_up, scheduled)
    decision = services.default_decision(game, seat.engine_seat)
    services.table_act(
        actor=org, table=heads_up, verb=decision.verb, cards=list(decision.cards), version=heads_up.version, key="o"
    )
    assert OnlineSeat.objects.get(table=heads_up, player__user=org).timeouts == 0


def test_a_paused_table_ignores_its_clock(world, heads_up, scheduled):
    call = scheduled.last("turn_timeout")
    services.table_pause(actor=world.users["organiser"], table=heads_up)
    assert scheduled.run(call) == 0
    services.table_resume(actor=world.users["organiser"], table=heads_up)
    assert scheduled.run(call) == 0  # resuming starts a fresh clock; the old one is void
    assert scheduled.run(scheduled.last("turn_timeout")) == 2


@pytest.fixture
def bot_table(world, humans, open_table, scheduled):
    table = open_table(seats=3, turn_seconds=30)
    services.seat_take(actor=humans[0], table=table)
    services.table_fill_bots(actor=world.users["organiser"], table=table, kind="random")
    services.table_start(actor=world.users["organiser"], table=table)
    table.refresh_from_db()
    return table


def test_bots_are_scheduled_after_a_short_delay_and_act_once_even_run_twice(bot_table, scheduled):
    bot_calls = [c for c in scheduled.calls if c[0] == "bot_act"]
    assert len(bot_calls) == 2 and all(0.5 <= c[2] <= 3 for c in bot_calls)
    assert scheduled.run(bot_calls[0]) is True
    assert scheduled.run(bot_calls[0]) is False
    assert len(actions(bot_table, source="bot")) == 1
    # The human and the other bot are still to select; the other bot's task is still good.
    assert scheduled.run(bot_calls[1]) is True


def test_a_bot_task_for_a_decision_already_made_does_nothing(bot_table, scheduled, humans):
    bot_calls = [c for c in scheduled.calls if c[0] == "bot_act"]
    for call in bot_calls:
        scheduled.run(call)
    bot_table.refresh_from_db()
    services.table_act(actor=humans[0], table=bot_table, verb="select", cards=[], version=bot_table.version, key="h")
    version = bot_table.version
    assert all(scheduled.run(call) is False for call in bot_calls)
    bot_table.refresh_from_db()
    assert bot_table.version > version and len(actions(bot_table, source="bot")) == 2


def test_the_next_hand_starts_after_a_pause_once_even_run_twice(settings, heads_up, scheduled):
    settings.ONLINE_HAND_PAUSE_SECONDS = 4
    while "next_hand" not in scheduled.names():
        scheduled.run(scheduled.last("turn_timeout"))
    call = scheduled.last("next_hand")
    assert call[2] == 4
    heads_up.refresh_from_db()
    assert Game.from_json(heads_up.state).between_hands
    assert scheduled.run(call) is True
    assert scheduled.run(call) is False
    heads_up.refresh_from_db()
    game = Game.from_json(heads_up.state)
    assert game.in_hand and game.hands_played == 1


def test_a_table_of_bots_plays_a_whole_game_through_the_tasks(world, open_table, scheduled):
    table = open_table(seats=4)
    services.table_fill_bots(actor=world.users["organiser"], table=table, kind="sensible")
    services.table_start(actor=world.users["organiser"], table=table)
    assert scheduled.drain(table) > 10
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    # Bots are never league players: the league game seats nobody, and the bots' results are on its record.
    bots = table.game.replay_result["bots"]
    assert not table.game.seats.exists() and len(bots) == 4
    assert min(bot["engine_place"] for bot in bots.values()) == 1
    assert sum(bot["final_credits"] for bot in bots.values()) == 4 * table.buy_in


def test_the_tasks_are_thin_wrappers_registered_with_celery():
    from config.celery import app

    assert {"online.turn_timeout", "online.bot_act", "online.next_hand"} <= set(app.tasks)
    assert tasks.turn_timeout.name == "online.turn_timeout"


def test_an_action_rewrites_the_results_and_history_only_when_a_hand_ends(world, open_table, scheduled):
    """`results` and `history` grow by a hand each hand: a decision inside a hand writes neither column, and
    every finished hand lands in `results` once, in order."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.engine.state import Game
    from games.online.models import OnlineTable

    update = f'UPDATE "{OnlineTable._meta.db_table}"'
    table = open_table(seats=3, turn_seconds=30)
    services.table_fill_bots(actor=world.users["organiser"], table=table, kind="random")
    services.table_start(actor=world.users["organiser"], table=table)
    mid_hand = ended = 0
    while scheduled.calls and ended < 3:
        call = scheduled.calls.pop(0)
        table.refresh_from_db()
        hands_before = len(table.results)
        with CaptureQueriesContext(connection) as queries:
            scheduled.run(call)
        updates = [q["sql"] for q in queries if q["sql"].startswith(update)]
        table.refresh_from_db()
        game = Game.from_json(table.state, history=table.history)
        hands = [r for r in table.results if "stacks" in r]
        assert [r["number"] for r in hands] == list(range(1, game.hands_played + 1))  # each hand once, in order
        if call[0] == "bot_act" and updates:
            if len(table.results) == hands_before:
                mid_hand += 1
                assert all('"results"' not in sql and '"history"' not in sql for sql in updates)
            else:
                ended += 1
                assert any('"results"' in sql for sql in updates)
        if table.status == "finished":
            break
    assert mid_hand > 5 and ended >= 1
