"""Celery tasks of the league app: thin, take ids, safe to run twice."""

from celery import shared_task


@shared_task(name="league.standings_recompute", bind=True, max_retries=3, default_retry_delay=5)
def standings_recompute_task(self, league_id: int) -> int:
    """Rebuild a league's stored standings; the result is the same however often it runs."""
    from django.db import OperationalError

    from league.services import standings_recompute

    try:
        return standings_recompute(league_id=league_id)
    except OperationalError as exc:  # a lock wait or a lost connection: try again shortly
        raise self.retry(exc=exc) from exc
