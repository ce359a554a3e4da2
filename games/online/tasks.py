"""Celery tasks of online play: thin, ids in, one service call; each safe to run twice or late.

A task that loses its database connection (a restart, `pg_terminate_backend`) is retried with backoff; its
transaction was rolled back, so the retry starts afresh. The sweep (`online.sweep`, from beat) sends again
whatever a lost message left overdue (games.online.schedule).
"""

from celery import shared_task
from django.db import InterfaceError, OperationalError

from games.online import schedule, services

# No result is kept: nobody waits for one, and sending a task that keeps one subscribes to its result on Redis
# first, which with Redis down held a request for 19 s before it failed.
OPTIONS = {
    "ignore_result": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 10,
    "retry_jitter": True,
    "max_retries": 5,
}


@shared_task(name="online.turn_timeout", **OPTIONS)
def turn_timeout(table_id: int, turn_version: int) -> int:
    return services.turn_timeout(table_id=table_id, turn_version=turn_version)


@shared_task(name="online.bot_act", **OPTIONS)
def bot_act(table_id: int, seat_number: int, turn_version: int) -> bool:
    return services.bot_act(table_id=table_id, seat_number=seat_number, turn_version=turn_version)


@shared_task(name="online.next_hand", **OPTIONS)
def next_hand(table_id: int, version: int) -> bool:
    return services.next_hand(table_id=table_id, version=version)


@shared_task(name="online.seat_changes", **OPTIONS)
def seat_changes(table_id: int) -> bool:
    return services.arrivals(table_id=table_id)


@shared_task(name="online.sweep", ignore_result=True)
def sweep() -> int:
    """Send again the work of running tables that is overdue (its message was lost); beat runs this."""
    return schedule.sweep()
