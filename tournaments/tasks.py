"""Celery tasks of the tournament clock: thin, ids in, one service call; each safe to run twice or late."""

from celery import shared_task

from tournaments.services import clock as clock_services
from tournaments.services import online as online_services


@shared_task(name="tournaments.clock_tick")
def clock_tick(tournament_id: int, reschedule: bool = False) -> int:
    """Announce whatever the clock has reached (level, break, one-minute warning); the number announced."""
    return len(clock_services.tournament_clock_tick(tournament_id=tournament_id, reschedule=reschedule))


@shared_task(name="tournaments.clock_tick_due")
def clock_tick_due() -> int:
    """Celery beat's re-check of every running clock: the number of announcements it made."""
    return clock_services.clock_tick_due()


@shared_task(name="tournaments.online_busts", autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def online_busts(event_id: int, table_id: int, hand: int, busts: list[dict]) -> int:
    """Eliminations an online table reported after a hand; the number recorded (a repeat records none)."""
    return len(online_services.tournament_online_busts(event_id=event_id, table_id=table_id, hand=hand, busts=busts))
