"""Event results derived from games and the ledger, and the stored standings tables."""

import json
import logging
from collections import defaultdict
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from config.db import retry_on_conflict
from config.events import publish
from league import hooks
from league.models import (
    Event,
    EventResult,
    EventStatus,
    League,
    LedgerEntry,
    LedgerKind,
    Player,
    Season,
    Standing,
    StandingsTable,
)
from league.services.common import ALL_TIME, season_scope
from league.services.locks import lock_league
from league.services.rules import season_rules
from league.services.versions import league_data_changed
from league.standings.compute import ResultRow, compute_standings

logger = logging.getLogger(__name__)


def event_results_rebuild(*, event: Event) -> list[EventResult]:
    """Derive each player's event result from the event's finished games and its ledger adjustments.

    A player ranks by the latest round they reached, then by their place in that round's game;
    players on the same rung share a place. Call it holding the event's league lock.
    """
    # A tournament's places come from the tournament (its registrations) when it has them; else from games.
    seats = hooks.event_place_rows(event_id=event.pk)
    if seats is None:
        seats = hooks.finished_seat_rows(event_id=event.pk)
    # Credits in and out come from the ledger: buy-ins, re-buys and add-ons in; payouts and adjustments out.
    credits_in: dict[int, int] = defaultdict(int)
    credits_out: dict[int, int] = defaultdict(int)
    for player_id, kind, amount in (
        LedgerEntry.objects.filter(event=event)
        .values("player_id", "kind")
        .annotate(total=Sum("amount"))
        .values_list("player_id", "kind", "total")
    ):
        if kind in (LedgerKind.BUY_IN, LedgerKind.REBUY, LedgerKind.ADDON):
            credits_in[player_id] += amount
        elif kind == LedgerKind.PAYOUT:
            credits_out[player_id] -= amount
        elif kind == LedgerKind.ADJUSTMENT:
            credits_out[player_id] += amount
    per_player: dict[int, dict[str, Any]] = {}
    for seat in seats:
        row = per_player.setdefault(
            seat["player_id"],
            {"buy_in": 0, "rebuys": 0, "knockouts": 0, "biggest_pot": 0},
        )
        row["buy_in"] += seat["buy_in"]
        row["rebuys"] += seat["rebuys"]
        row["knockouts"] += seat["knockouts"]
        row["biggest_pot"] = max(row["biggest_pot"], seat["biggest_pot"])
        row["rung"] = (-seat["round"], seat["place"] or 0)
    EventResult.objects.filter(event=event).delete()
    if not per_player:
        return []
    prize_pool = sum(credits_in[player_id] for player_id in per_player)
    ordered = sorted(per_player.items(), key=lambda item: item[1]["rung"])
    counts: dict[tuple, int] = defaultdict(int)
    for _, row in ordered:
        counts[row["rung"]] += 1
    results, place, previous = [], 0, None
    for index, (player_id, row) in enumerate(ordered, start=1):
        if row["rung"] != previous:
            place, previous = index, row["rung"]
        results.append(
            EventResult(
                event=event,
                player_id=player_id,
                place=place,
                players=len(ordered),
                tied=counts[row["rung"]],
                buy_in=row["buy_in"],
                credits_in=credits_in[player_id],
                credits_out=credits_out[player_id],
                rebuys=row["rebuys"],
                knockouts=row["knockouts"],
                biggest_pot=row["biggest_pot"],
                prize_pool=prize_pool,
            )
        )
    return EventResult.objects.bulk_create(results)


def standings_schedule(*, league_id: int) -> None:
    """Queue a standings recomputation for after the current transaction commits.

    The request has already succeeded by then: a failure to queue (or, in-process, to run) the task
    is logged, never turned into an error of the request that committed (`robust=True`).
    """
    from league.tasks import standings_recompute_task

    # One recomputation per league per transaction, however many changes it holds.
    pending = transaction.get_connection().run_on_commit
    if any(getattr(entry[1], "standings_league_id", None) == league_id and not entry[1].done for entry in pending):
        return

    def queue() -> None:
        queue.done = True
        standings_recompute_task.delay(league_id)

    queue.standings_league_id = league_id
    queue.done = False
    # What changed shows on the league's pages at once, not only once the recomputation has run.
    league_data_changed(league_id=league_id)
    transaction.on_commit(queue, robust=True)


_ROW_FIELDS = (
    "event_id",
    "player_id",
    "place",
    "players",
    "tied",
    "buy_in",
    "credits_in",
    "credits_out",
    "rebuys",
    "knockouts",
    "biggest_pot",
    "prize_pool",
)


@retry_on_conflict
@transaction.atomic
def standings_recompute(*, league_id: int) -> int:
    """Rebuild every stored standings table of a league (each season and all-time); safe to run twice.

    Takes the league lock first, like every write of the league (see `league.services.locks`).
    Returns the number of rows written.
    """
    league = lock_league(league_id)
    if league is None:
        return 0
    seasons = {season.pk: season for season in Season.objects.filter(league=league)}
    rows_by_season: dict[int, list[ResultRow]] = defaultdict(list)
    query = EventResult.objects.filter(
        event__season__league=league, event__status=EventStatus.FINISHED, event__counts_for_standings=True
    ).values_list("event__season_id", *_ROW_FIELDS)
    for season_id, *values in query.iterator(chunk_size=5000):
        rows_by_season[season_id].append(ResultRow(*values))
    now = timezone.now()
    new_rows: list[Standing] = []
    names = dict(Player.objects.filter(memberships__league=league).values_list("pk", "display_name"))
    missing = {row.player_id for rows in rows_by_season.values() for row in rows} - names.keys()
    names.update(Player.objects.filter(pk__in=missing).values_list("pk", "display_name"))

    def add(scope: str, season: Season | None, rows: list[ResultRow]) -> None:
        for rank, tally in compute_standings(rows, season_rules(league, season)):
            new_rows.append(
                Standing(
                    league=league,
                    season=season,
                    scope=scope,
                    player_id=tally.player_id,
                    display_name=names.get(tally.player_id, ""),
                    rank=rank,
                    points=round(tally.points, 6),
                    wins=tally.wins,
                    net_credits=tally.net_credits,
                    average_place=round(tally.average_place, 6),
                    events_played=tally.events_played,
                    events_counted=tally.events_counted,
                    biggest_pot=tally.biggest_pot,
                    computed_at=now,
                )
            )

    for season_id, season in seasons.items():
        add(season_scope(season_id), season, rows_by_season.get(season_id, []))
    add(ALL_TIME, None, [row for rows in rows_by_season.values() for row in rows])
    Standing.objects.filter(league=league).delete()
    Standing.objects.bulk_create(new_rows, batch_size=2000)
    _write_standings_tables(league, seasons, new_rows, now)
    publish("standings.updated", {"league": league.slug})
    return len(new_rows)


def standings_payload(league: League, season: Season | None, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The standings document the API serves (StandingsOutput)."""
    formula = season.points_formula if season is not None and season.points_formula else league.points_formula
    return {
        "league": league.slug,
        "season": season.pk if season else None,
        "points_formula": formula,
        "tie_breakers": list(league.tie_breakers or []),
        "rows": rows,
    }


def _write_standings_tables(league: League, seasons: dict[int, Season], rows: list[Standing], now: datetime) -> None:
    from league.selectors import STANDING_COLUMNS, STANDING_KEYS

    by_scope: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in sorted(rows, key=lambda r: (r.scope, r.rank, r.display_name, r.player_id)):
        values = [getattr(row, column) for column in STANDING_COLUMNS]
        by_scope[row.scope].append(dict(zip(STANDING_KEYS, values, strict=True)))
    tables = [
        StandingsTable(
            league=league,
            scope=scope,
            payload=json.dumps(standings_payload(league, season, by_scope.get(scope, [])), separators=(",", ":")),
            computed_at=now,
        )
        for scope, season in [(ALL_TIME, None), *((season_scope(pk), season) for pk, season in seasons.items())]
    ]
    StandingsTable.objects.filter(league=league).delete()
    StandingsTable.objects.bulk_create(tables)
