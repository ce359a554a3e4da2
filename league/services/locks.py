"""The app's one lock order, and the helpers that take locks in it.

Every write takes its row locks in this order, and never the other way round:

    league -> season -> event -> table -> game -> seats -> player -> ledger

- A write that touches anything of a league first locks the league row
  (`lock_league`): writes of one league then queue behind each other instead of
  deadlocking, and the standings recomputation (the Celery task
  `league.standings_recompute`) takes the same lock first.
- Rows are locked `FOR NO KEY UPDATE` of the row itself only (`no_key=True`,
  `of=("self",)`): a lock never spreads to joined rows, and it does not block the key
  share locks PostgreSQL takes when another row referencing it is inserted.
- Locking the league also moves its data version on (`league.services.versions`): the
  lock is the `UPDATE` of that counter, a `FOR NO KEY UPDATE` lock of the row like the
  one it replaces, so a refused write (rolled back) moves nothing.
- Players (and users) are locked alone, after any league row; the ledger is
  append-only and never locked.
- A lock race PostgreSQL still breaks (deadlock, serialization failure, lock timeout)
  rolls the whole transaction back, and `config.db.retry_on_conflict` runs it again.
"""

from config.errors import ApplicationError
from league.models import Event, League, Season
from league.services.versions import bump_data_version

LOCK_ORDER = ("league", "season", "event", "table", "game", "seats", "player", "ledger")


def lock_league(league_id: int) -> League | None:
    """Lock a league row (the first lock of every write of the league) and bump its data version, so the
    pages cached under the old one are not served again; None when the league is gone."""
    if not bump_data_version(league_id):
        return None
    return League.objects.filter(pk=league_id).first()


def lock_league_or_refuse(league_id: int) -> League:
    """`lock_league` for a write that needs the league: its deletion a moment ago is the user's to hear."""
    league = lock_league(league_id)
    if league is None:
        raise ApplicationError("This league was deleted a moment ago.")
    return league


def lock_season(season_id: int) -> Season:
    """Lock a season after its league; the season comes back with its (already locked) league loaded."""
    league_id = Season.objects.values_list("league_id", flat=True).get(pk=season_id)
    lock_league(league_id)
    return Season.objects.select_for_update(no_key=True, of=("self",)).select_related("league").get(pk=season_id)


def lock_event(event_id: int) -> Event:
    """Lock an event after its league (seasons are only read): the event comes back with season and league."""
    league_id = Event.objects.values_list("season__league_id", flat=True).get(pk=event_id)
    lock_league(league_id)
    return (
        Event.objects.select_for_update(no_key=True, of=("self",))
        .select_related("season__league", "buy_in_policy", "season__buy_in_policy", "season__league__buy_in_policy")
        .get(pk=event_id)
    )
