"""Celery tasks of tournaments (the clock, online tables' reports): thin, ids in, one service call; each safe
to run twice or late."""

import logging

from celery import shared_task

from config.errors import ApplicationError
from tournaments.services import clock as clock_services
from tournaments.services import halcyon as halcyon_services
from tournaments.services import online as online_services
from tournaments.services import realcards as realcards_services


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


logger = logging.getLogger(__name__)


@shared_task(name="tournaments.halcyon_online_table", autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def halcyon_online_table(event_id: int, table_id: int, tournament_table: int) -> bool:
    """A finished online table of a Halcyon round: record its game (True), once; a repeat records nothing. A
    game the round refuses is logged, not retried: the organiser sees the table unrecorded and records it."""
    try:
        return halcyon_services.tournament_halcyon_online_result(table_id=table_id) is not None
    except ApplicationError as exc:
        logger.warning("Halcyon online table %s (table %s) not recorded: %s", table_id, tournament_table, exc.message)
        return False


@shared_task(name="tournaments.realcards_busts", autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def realcards_busts(event_id: int, table_id: int, hand: int, busts: list[dict]) -> int:
    """Eliminations a real-cards table reported after a hand; the number recorded (a repeat records none)."""
    return len(
        realcards_services.tournament_realcards_busts(event_id=event_id, table_id=table_id, hand=hand, busts=busts)
    )


@shared_task(name="tournaments.realcards_table", autoretry_for=(Exception,), retry_backoff=True, max_retries=5)
def realcards_table(event_id: int, table_id: int, tournament_table: int) -> bool:
    """A finished real-cards table of a Halcyon round: record its game's result (True), once; a repeat records
    nothing. A result the round refuses is logged, not retried: the organiser sees the table unrecorded and enters
    it."""
    try:
        return realcards_services.tournament_realcards_result(table_id=table_id) is not None
    except ApplicationError as exc:
        logger.warning("Real-cards table %s (table %s) not recorded: %s", table_id, tournament_table, exc.message)
        return False
