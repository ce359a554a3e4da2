"""Event results derived from games and the ledger, and the stored standings tables."""

import json
import logging
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Any, TypedDict

from django.db import transaction
from django.db.models import Count, F, Max, Sum
from django.utils import timezone

from config.db import retry_on_conflict
from config.events import publish
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
from league.standings.compute import (
    GROUP_FIELDS,
    ResultGroup,
    Rules,
    merge_groups,
    rank_tallies,
    tally_groups,
)
from league.standings.metrics import Tally

logger = logging.getLogger(__name__)


class SeatRow(TypedDict):
    """One seat of an event's game, or one place of a tournament, as a higher app hands it to league."""

    player_id: int
    round: int
    place: int | None
    buy_in: int
    rebuys: int
    knockouts: int
    biggest_pot: int


def event_credits(event: Event) -> tuple[dict[int, int], dict[int, int]]:
    """Credits in (buy-ins, re-buys, add-ons) and out (payouts, adjustments) per player, from the ledger."""
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
    return credits_in, credits_out


def event_results_rebuild(*, event: Event, seats: Iterable[SeatRow]) -> list[EventResult]:
    """Derive each player's event result from the seats a higher app hands in and the event's ledger.

    `seats` are every finished game's seats, ordered by round, game and seat number (games), or a completed
    tournament's places (tournaments): league never asks for them. A player ranks by the latest round they
    reached, then by their place in that round's game; players on the same rung share a place. Call it holding
    the event's league lock.
    """
    credits_in, credits_out = event_credits(event)
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
    # Whoever had a result here, or has one now, has standings to update (`standings_schedule` applies them).
    before = set(EventResult.objects.filter(event=event).values_list("player_id", flat=True))
    standings_touch(event=event, player_ids=before | per_player.keys())
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


def event_credits_refresh(*, event: Event) -> None:
    """Bring the event's results' credits up to date with its ledger (after an adjustment): the places and the
    seats they come from are unchanged. Call it holding the event's league lock."""
    results = list(EventResult.objects.filter(event=event))
    if not results:
        return
    credits_in, credits_out = event_credits(event)
    prize_pool = sum(credits_in[result.player_id] for result in results)
    for result in results:
        result.credits_in = credits_in[result.player_id]
        result.credits_out = credits_out[result.player_id]
        result.prize_pool = prize_pool
    EventResult.objects.bulk_update(results, ["credits_in", "credits_out", "prize_pool"])
    standings_touch(event=event, player_ids=[result.player_id for result in results])


def standings_touch(*, event: Event, player_ids: Iterable[int]) -> None:
    """Note that these players' results at this event changed in the current transaction.

    `standings_schedule` applies the notes at once; notes still there at commit (a service that rebuilt results
    and scheduled nothing after) are applied just after it, in a transaction of their own.
    """
    players = set(player_ids)
    league_id = event.season.league_id
    if not transaction.get_connection().in_atomic_block:
        if players:
            standings_refresh(league_id=league_id, touched={event.season_id: players})
        return
    notes = _notes(league_id)
    notes.noted = True  # even of no one (an event without results stopped counting): nothing else to do
    if players:
        notes.touched.setdefault(event.season_id, set()).update(players)


def _notes(league_id: int) -> Any:
    """The current transaction's notes of changed standings for a league, kept on its commit hooks, so a rolled
    back transaction or savepoint takes its notes with it."""
    for entry in transaction.get_connection().run_on_commit:
        if getattr(entry[1], "standings_notes_league_id", None) == league_id and not entry[1].done:
            return entry[1]

    def leftovers() -> None:
        leftovers.done = True
        if leftovers.touched:
            touched, leftovers.touched = leftovers.touched, {}
            try:
                standings_refresh(league_id=league_id, touched=touched)
            except Exception:
                logger.exception("standings of league %s not updated after commit; recomputing them all", league_id)
                _queue_recompute(league_id)

    leftovers.standings_notes_league_id = league_id
    leftovers.touched = {}
    leftovers.noted = False
    leftovers.done = False
    transaction.on_commit(leftovers, robust=True)
    return leftovers


def standings_schedule(*, league_id: int, full: bool = False) -> None:
    """Bring a league's stored standings up to date with the current transaction's changes.

    Results rebuilt in this transaction (`event_results_rebuild` notes whose) are applied now, under the league
    lock the writer holds: only the players they touch are recomputed, and their tables re-ranked. Anything else
    (new rules, `full=True`, nothing noted) queues the full recomputation for after the commit, once per league
    per transaction. The request has already succeeded by then: a failure to queue (or, in-process, to run) the
    task is logged, never turned into an error of the request that committed (`robust=True`).
    """
    # What changed shows on the league's pages at once.
    league_data_changed(league_id=league_id)
    notes = None if full else _notes(league_id)
    if notes is not None and notes.noted:
        touched, notes.touched, notes.noted = notes.touched, {}, False
        try:
            if touched:
                with transaction.atomic():
                    standings_refresh(league_id=league_id, touched=touched)
            return
        except Exception:  # a bug here must not lose the result: the full recomputation repairs the tables
            logger.exception("incremental standings update of league %s failed; recomputing them all", league_id)
    _queue_recompute(league_id)


def _queue_recompute(league_id: int) -> None:
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
    transaction.on_commit(queue, robust=True)


def standings_rename(*, player_id: int) -> None:
    """Show a player's new name in the stored standings of every league they are in, once the rename commits:
    league by league under its lock (a standings update running meanwhile may still hold the old name)."""
    league_ids = set(Player.objects.filter(pk=player_id).values_list("memberships__league_id", flat=True))
    league_ids |= set(Standing.objects.filter(player_id=player_id).values_list("league_id", flat=True))
    league_ids.discard(None)
    for league_id in league_ids:
        league_data_changed(league_id=league_id)

    def rename() -> None:
        for league_id in sorted(league_ids):
            _rename(league_id=league_id, player_id=player_id)

    transaction.on_commit(rename, robust=True)


@retry_on_conflict
@transaction.atomic
def _rename(*, league_id: int, player_id: int) -> None:
    league = lock_league(league_id)
    if league is None:
        return
    name = Player.objects.filter(pk=player_id).values_list("display_name", flat=True).first() or ""
    rows = Standing.objects.filter(league=league, player_id=player_id).exclude(display_name=name)
    scopes = set(rows.values_list("scope", flat=True))
    rows.update(display_name=name)
    seasons = Season.objects.filter(league=league).in_bulk([_season_id(scope) for scope in scopes - {ALL_TIME}])
    now = timezone.now()
    for scope in scopes:
        _write_table(league, None if scope == ALL_TIME else seasons.get(_season_id(scope)), scope, now)


def _season_id(scope: str) -> int:
    return int(scope.rpartition("-")[2])


_GROUP_VALUES = ("event__season_id", "player_id", *GROUP_FIELDS)


def standings_groups(league_id: int, *, player_ids: set[int] | None = None) -> dict[int, list[ResultGroup]]:
    """The league's counting results (finished events that count), grouped by the database: {season id: groups}.

    Results alike in everything their points depend on are one row with a count, so a recomputation reads a few
    rows per player instead of one per result.
    """
    if player_ids is not None:
        return _player_groups(league_id, player_ids)
    query = EventResult.objects.filter(
        event__season__league_id=league_id, event__status=EventStatus.FINISHED, event__counts_for_standings=True
    )
    query = (
        query.order_by()
        .values(*_GROUP_VALUES)
        .annotate(count=Count("id"), net=Sum(F("credits_out") - F("credits_in")), top=Max("biggest_pot"))
        .values_list(*_GROUP_VALUES, "count", "net", "top")
    )
    by_season: dict[int, list[ResultGroup]] = defaultdict(list)
    for season_id, *values in query.iterator(chunk_size=5000):
        by_season[season_id].append(ResultGroup(*values))
    return by_season


def _player_groups(league_id: int, player_ids: set[int]) -> dict[int, list[ResultGroup]]:
    """`standings_groups` of a few players, read from their own results first (the player index) and then their
    events that count: joined the other way, PostgreSQL may walk every event of the league to find them."""
    rows = EventResult.objects.filter(player_id__in=player_ids).order_by()
    rows = list(rows.values_list("event_id", "player_id", *GROUP_FIELDS, "credits_in", "credits_out", "biggest_pot"))
    counting = dict(
        Event.objects.filter(
            pk__in={row[0] for row in rows},
            season__league_id=league_id,
            status=EventStatus.FINISHED,
            counts_for_standings=True,
        )
        .order_by()
        .values_list("pk", "season_id")
    )
    sums: dict[tuple, list[int]] = {}
    for event_id, player_id, *values in rows:
        season_id = counting.get(event_id)
        if season_id is None:
            continue
        key, (credits_in, credits_out, biggest_pot) = (season_id, player_id, *values[:7]), values[7:]
        found = sums.get(key)
        if found is None:
            sums[key] = [1, credits_out - credits_in, biggest_pot]
        else:
            found[0] += 1
            found[1] += credits_out - credits_in
            found[2] = max(found[2], biggest_pot)
    by_season: dict[int, list[ResultGroup]] = defaultdict(list)
    for (season_id, *key), (count, net, top) in sums.items():
        by_season[season_id].append(ResultGroup(*key, count, net, top))
    return by_season


def _standing(
    league: League, season: Season | None, scope: str, rank: int, tally: Tally, name: str, now: datetime
) -> Standing:
    return Standing(
        league=league,
        season=season,
        scope=scope,
        player_id=tally.player_id,
        display_name=name,
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


def _stored_tally(row: tuple) -> Tally:
    """A stored row as `_replace` reads it (its id, then `league.selectors.STANDING_COLUMNS`) as the tally it was
    made from: its points and average place are stored rounded to 6 places, as the ranking compares them, and its
    place total is a whole number."""
    _, _, player_id, _, points, wins, net_credits, average_place, played, counted, biggest_pot = row
    return Tally(
        player_id=player_id,
        points=points,
        wins=wins,
        net_credits=net_credits,
        events_played=played,
        place_total=round(average_place * played),
        events_counted=counted,
        biggest_pot=biggest_pot,
    )


def _columns(rank: int, tally: Tally, name: str) -> tuple:
    """A tally as the stored row's columns (`league.selectors.STANDING_COLUMNS`)."""
    return (
        rank,
        tally.player_id,
        name,
        round(tally.points, 6),
        tally.wins,
        tally.net_credits,
        round(tally.average_place, 6),
        tally.events_played,
        tally.events_counted,
        tally.biggest_pot,
    )


@retry_on_conflict
@transaction.atomic
def standings_refresh(*, league_id: int, touched: dict[int, set[int]]) -> int:
    """Update the stored standings for some players' changed results: {season id: player ids}.

    Only those players' results are read (grouped), their rows in the touched seasons' tables and in the all-time
    table replaced, and those tables re-ranked from the rows stored for everyone else. Takes the league lock
    (the writer that calls it holds it already). Returns the number of rows written.
    """
    league = lock_league(league_id)
    if league is None:
        return 0
    players = set().union(*touched.values())
    groups = standings_groups(league.pk, player_ids=players)
    seasons = Season.objects.filter(league=league).in_bulk(list(touched))
    names = dict(Player.objects.filter(pk__in=players).values_list("pk", "display_name"))
    now = timezone.now()
    written = 0
    for season_id, season_players in touched.items():
        season = seasons.get(season_id)
        if season is None:
            continue
        rules = season_rules(league, season)
        own = [group for group in groups.get(season_id, []) if group.player_id in season_players]
        written += _replace(league, season, season_scope(season_id), rules, season_players, own, names, now)
    every = merge_groups(group for season_groups in groups.values() for group in season_groups)
    written += _replace(league, None, ALL_TIME, season_rules(league, None), players, every, names, now)
    publish("standings.updated", {"league": league.slug})
    return written


def _replace(
    league: League,
    season: Season | None,
    scope: str,
    rules: Rules,
    players: set[int],
    groups: list[ResultGroup],
    names: dict[int, str],
    now: datetime,
) -> int:
    """Replace some players' rows of one stored table and re-rank it; rows whose values are the same stay.

    The other rows are read as plain values, never as model objects, and the table's document is written from
    the same values: a table of a thousand players costs a few milliseconds, not a model per row.
    """
    from league.selectors import STANDING_COLUMNS

    fresh = tally_groups(groups, rules)
    stored = {
        row[2]: row
        for row in Standing.objects.filter(league=league, scope=scope).values_list("pk", *STANDING_COLUMNS).iterator()
    }
    tallies = [*fresh.values(), *(_stored_tally(row) for pk, row in stored.items() if pk not in players)]
    table: list[tuple] = []
    changed: list[Standing] = []
    stale: list[int] = []
    for rank, tally in rank_tallies(tallies, rules):
        old = stored.get(tally.player_id)
        name = names.get(tally.player_id, "") if tally.player_id in players or old is None else old[3]
        columns = _columns(rank, tally, name)
        table.append(columns)
        if old is not None and old[1:] == columns:
            continue
        if old is not None:
            stale.append(old[0])
        changed.append(
            Standing(
                league=league,
                season=season,
                scope=scope,
                computed_at=now,
                **dict(zip(STANDING_COLUMNS, columns, strict=True)),
            )
        )
    gone = [row[0] for pk, row in stored.items() if pk in players and pk not in fresh]
    if gone or changed:
        Standing.objects.filter(pk__in=gone + stale).delete()
        Standing.objects.bulk_create(changed, batch_size=2000)
    if gone or changed or not StandingsTable.objects.filter(league=league, scope=scope).exists():
        payload = standings_payload(league, season, _table_rows(table))
        StandingsTable.objects.update_or_create(
            league=league,
            scope=scope,
            defaults={"payload": json.dumps(payload, separators=(",", ":")), "computed_at": now},
        )
    return len(changed)


@retry_on_conflict
@transaction.atomic
def standings_recompute(*, league_id: int) -> int:
    """Rebuild every stored standings table of a league (each season and all-time); safe to run twice.

    Kept for repairs and for changes of rules; a new or corrected result goes through `standings_refresh`.
    Takes the league lock first, like every write of the league (see `league.services.locks`).
    Returns the number of rows written.
    """
    league = lock_league(league_id)
    if league is None:
        return 0
    seasons = {season.pk: season for season in Season.objects.filter(league=league)}
    groups = standings_groups(league.pk)
    now = timezone.now()
    new_rows: list[Standing] = []
    names = dict(Player.objects.filter(memberships__league=league).values_list("pk", "display_name"))
    missing = {group.player_id for season_groups in groups.values() for group in season_groups} - names.keys()
    names.update(Player.objects.filter(pk__in=missing).values_list("pk", "display_name"))

    def add(scope: str, season: Season | None, scope_groups: list[ResultGroup]) -> None:
        rules = season_rules(league, season)
        for rank, tally in rank_tallies(tally_groups(scope_groups, rules).values(), rules):
            new_rows.append(_standing(league, season, scope, rank, tally, names.get(tally.player_id, ""), now))

    for season_id, season in seasons.items():
        add(season_scope(season_id), season, groups.get(season_id, []))
    add(ALL_TIME, None, merge_groups(group for season_groups in groups.values() for group in season_groups))
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


def _table_rows(rows: Iterable[tuple]) -> list[dict[str, Any]]:
    """A table's rows (tuples of `STANDING_COLUMNS`) as the API serves them, best first, then by name and player
    (sorted here, not by the database's collation, so a full recomputation and an update order alike)."""
    from league.selectors import STANDING_KEYS

    return [dict(zip(STANDING_KEYS, row, strict=True)) for row in sorted(rows, key=lambda r: (r[0], r[2], r[1]))]


def _table(league: League, season: Season | None, scope: str, rows: Iterable[Standing], now: datetime) -> Any:
    from league.selectors import STANDING_COLUMNS

    values = [tuple(getattr(row, column) for column in STANDING_COLUMNS) for row in rows]
    payload = standings_payload(league, season, _table_rows(values))
    return StandingsTable(
        league=league, scope=scope, payload=json.dumps(payload, separators=(",", ":")), computed_at=now
    )


def _write_table(league: League, season: Season | None, scope: str, now: datetime) -> None:
    """Store one scope's standings document again, from its stored rows."""
    from league.selectors import STANDING_COLUMNS

    values = Standing.objects.filter(league=league, scope=scope).values_list(*STANDING_COLUMNS)
    payload = standings_payload(league, season, _table_rows(values))
    StandingsTable.objects.update_or_create(
        league=league,
        scope=scope,
        defaults={"payload": json.dumps(payload, separators=(",", ":")), "computed_at": now},
    )


def _write_standings_tables(league: League, seasons: dict[int, Season], rows: list[Standing], now: datetime) -> None:
    by_scope: dict[str, list[Standing]] = defaultdict(list)
    for row in rows:
        by_scope[row.scope].append(row)
    tables = [
        _table(league, season, scope, by_scope.get(scope, []), now)
        for scope, season in [(ALL_TIME, None), *((season_scope(pk), season) for pk, season in seasons.items())]
    ]
    StandingsTable.objects.filter(league=league).delete()
    StandingsTable.objects.bulk_create(tables)
