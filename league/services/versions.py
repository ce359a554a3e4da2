"""The league's data version: one integer on the league row that every write of what the league's pages
show moves, so the pages can cache what they render under (league, version, ...) and never serve it stale.

- `lock_league` (`league.services.locks`) bumps it in the same transaction as the write it starts: every
  service of a league's results, ledger, standings, members, seasons and events takes that lock first.
- `league_data_changed` bumps it after the current transaction commits, for the few writes that change a
  page without that lock (an online table starting or finishing a game; the standings task scheduled).

A reader must read the version before the data it caches: a bump commits with (or after) the data it
announces, so data read under a version is never older than that version.
"""

from django.db import transaction
from django.db.models import F

from league.models import League


def bump_data_version(league_id: int) -> bool:
    """Move the league's data version on, in the current transaction; False when the league is gone. Once it
    commits, this process forgets what it remembered for anonymous visitors' pages (`league.page_stamps`)."""
    from league import page_stamps

    moved = bool(League.objects.filter(pk=league_id).update(data_version=F("data_version") + 1))
    transaction.on_commit(page_stamps.forget)  # outside a transaction: at once, the update committed
    return moved


def league_data_changed(*, league_id: int) -> None:
    """Bump the league's data version once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: bump_data_version(league_id), robust=True)
