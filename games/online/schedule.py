"""When the table needs something to happen later (a bot's decision, the turn clock, the next hand).

What is due lives on the table row: `due` (what) and `due_at` (when), set by the service that made it due
(`mark`), beside `deadline`, `turn_version` and `version`. Services call `later()` inside their transaction;
the task is sent to Celery once the transaction commits, with its delay, as a hint only: a message lost (a
worker killed, the broker down or emptied, a server killed after its commit) is sent again by the sweep
(`sweep`, every couple of seconds from beat), which finds the running tables whose work is overdue with one
indexed query. Every task re-checks the table under its lock when it runs, so one sent twice, late, or after
the player already acted does nothing.
"""

import logging
import random
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

from games.online.models import Due, OnlineSeat, OnlineTable, SeatKind, TableStatus

logger = logging.getLogger(__name__)

DUE_FIELDS = ("due", "due_at", "resent_at")
# The sweep re-sends a table's work once it is this late (its message is then taken as lost)...
SWEEP_MARGIN_SECONDS = 1.0
# ...and not again for this long (a task merely queued behind others is not sent a second and third time).
SWEEP_RESEND_SECONDS = 10.0
# A longer wait is not sent as a countdown: the sweep sends it when due (a message held by a worker beyond the
# broker's visibility timeout, `CELERY_BROKER_TRANSPORT_OPTIONS`, would be delivered a second time).
MAX_COUNTDOWN_SECONDS = 60.0
SWEEP_BATCH = 500
# More messages than this waiting in the task queue: the workers are behind, not missing messages, and the sweep
# sends nothing (what it would send is in the queue already; sending it again only lengthens the queue).
SWEEP_BACKLOG = 20
CONNECTION_ERRORS = (BrokerError, RedisError, ConnectionError, TimeoutError, OSError)


def dispatch(name: str, args: list[Any], countdown: float) -> None:
    """Send the task `name` of `games.online.tasks` (registered as `online.<name>`) with `args`, to run after
    `countdown` seconds. By its registered name: the tasks call the services, which schedule through here."""
    from celery import current_app

    current_app.tasks[f"online.{name}"].apply_async(args=args, countdown=countdown)


def send(name: str, args: list[Any], countdown: float) -> bool:
    """`dispatch`, passing over a broker that cannot take the message (logged): the change it follows is
    committed already, and the sweep sends the work again once it is overdue. True if sent."""
    from celery import current_app

    if countdown > MAX_COUNTDOWN_SECONDS and not current_app.conf.task_always_eager:
        return False  # the sweep sends it at its time
    try:
        dispatch(name, args, countdown)
    except Exception as exc:
        # In-process (eager) the "message" is the task itself: its bug is not a broker outage.
        if current_app.conf.task_always_eager and not isinstance(exc, CONNECTION_ERRORS):
            raise
        logger.exception("online task %s%s not sent; the sweep sends it when it is overdue", name, args)
        return False
    return True


def later(name: str, args: list[Any], countdown: float) -> None:
    """Send the task after the current transaction commits (never for a change that was rolled back)."""
    transaction.on_commit(lambda: send(name, args, countdown))


def mark(table: OnlineTable, due: str, at: datetime) -> None:
    """Record on the (locked) row, saved by the caller, that `due` is due at `at`."""
    table.due, table.due_at, table.resent_at = due, at, None


def clear(table: OnlineTable) -> None:
    table.due, table.due_at, table.resent_at = "", None, None


def deal_later(table: OnlineTable) -> None:
    """The next hand after the pause, again (a change between hands restarts the pause): due on the row, which
    is saved here, and sent after the commit."""
    pause = hand_pause()
    mark(table, Due.DEAL, timezone.now() + timedelta(seconds=pause))
    table.save(update_fields=[*DUE_FIELDS, "updated_at"])
    later("next_hand", [table.pk, table.version], pause)


def waiting_messages() -> int | None:
    """How many task messages wait in the broker's default queue, not yet taken by a worker (None: cannot tell,
    or tasks run in-process)."""
    from celery import current_app

    if current_app.conf.task_always_eager:
        return None
    try:
        with current_app.pool.acquire(block=True, timeout=2) as connection:
            queue = current_app.conf.task_default_queue
            return connection.default_channel.queue_declare(queue=queue, passive=True).message_count
    except Exception:  # a broker that is down, or a queue not declared yet: the sweep goes on as if none waited
        return None


def sweep() -> int:
    """Send again the work of every running table overdue by `SWEEP_MARGIN_SECONDS` and not re-sent in the last
    `SWEEP_RESEND_SECONDS`; returns how many tables. One indexed query when nothing is overdue.

    Nothing while more than `SWEEP_BACKLOG` messages wait in the queue: overdue work is then work queued behind
    other work, and sending it again multiplied the queue exactly when the workers were behind (tables bench, 20
    tables on 2 busy cores: 72% of the tasks run were resent work that was no longer due, and 5 hands were played in
    a minute; with this and the worker's connections reused, none and 52)."""
    waiting = waiting_messages()
    backlog = int(getattr(settings, "ONLINE_SWEEP_BACKLOG", SWEEP_BACKLOG))
    if waiting is not None and waiting > backlog:
        logger.info("online sweep: %d messages wait in the queue; the workers are behind, nothing sent", waiting)
        return 0
    now = timezone.now()
    margin = float(getattr(settings, "ONLINE_SWEEP_MARGIN_SECONDS", SWEEP_MARGIN_SECONDS))
    resend = float(getattr(settings, "ONLINE_SWEEP_RESEND_SECONDS", SWEEP_RESEND_SECONDS))
    cutoff = now - timedelta(seconds=margin)
    overdue = list(
        OnlineTable.objects.filter(status=TableStatus.RUNNING, due_at__lt=cutoff)
        .filter(Q(resent_at__isnull=True) | Q(resent_at__lt=now - timedelta(seconds=resend)))
        .order_by("due_at")
        .values_list("pk", "due", "version", "turn_version", "deadline")[:SWEEP_BATCH]
    )
    if not overdue:
        return 0
    # Marked first: a sweep running meanwhile (beat is not exclusive) finds them re-sent and leaves them.
    OnlineTable.objects.filter(pk__in=[row[0] for row in overdue], due_at__lt=cutoff).update(resent_at=now)
    bots: dict[int, list[int]] = {}
    turn_tables = [pk for pk, due, *_ in overdue if due == Due.BOT]
    for table_id, number in OnlineSeat.objects.filter(
        table_id__in=turn_tables, kind=SeatKind.BOT, left=False
    ).values_list("table_id", "number"):
        bots.setdefault(table_id, []).append(number)
    for pk, due, version, turn_version, deadline in overdue:
        logger.info("online table %s: %s overdue, sent again", pk, due or "work")
        if due == Due.DEAL:
            send("next_hand", [pk, version], 0)
            continue
        for number in bots.get(pk, ()):  # a bot no longer awaited (acted already) does nothing
            send("bot_act", [pk, number, turn_version], 0)
        if deadline is not None and deadline < cutoff:
            send("turn_timeout", [pk, turn_version], 0)
    return len(overdue)


def bot_delay() -> float:
    """A short, human-like pause before a bot decides (not a secret: the global random is fine here)."""
    low, high = getattr(settings, "ONLINE_BOT_DELAY_SECONDS", (0.8, 2.0))
    return random.uniform(low, high)


def hand_pause() -> float:
    """The pause between the end of a hand and the start of the next, to read the reveal."""
    return float(getattr(settings, "ONLINE_HAND_PAUSE_SECONDS", 5.0))
