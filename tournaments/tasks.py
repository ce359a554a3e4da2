"""Celery tasks of the tournament clock: thin, ids in, one service call; each safe to run twice or late."""

from celery import shared_task

from tournaments.services import clock as clock_services


@shared_task(name="tournaments.clock_tick")
def clock_tick(tournament_id: int, reschedule: bool = False) -> int:
    """Announce whatever the clock has reached (level, break, one-minute warning); the number announced."""
    return len(clock_services.tournament_clock_tick(tournament_id=tournament_id, reschedule=reschedule))


@shared_task(name="tournaments.clock_tick_due")
def clock_tick_due() -> int:
    """Celery beat's re-check of every running clock: the number of announcements it made."""
    return clock_services.clock_tick_due()
