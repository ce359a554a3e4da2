"""Reads for the event and game pages: only events and games of leagues the viewer can see.

The replay document (deck order, seeds) is never loaded here except by `game_replay_history`, which turns it
into what was public at the table (`games.history`) and returns nothing else.
"""

from typing import Any

from django.db.models import F, Prefetch, Sum
from django.http import Http404

from games import hooks
from games import selectors as game_selectors
from games.models import Game, GameSource, GameStatus, Seat, Table
from league import selectors
from league.models import Event, EventKind, EventResult, LedgerEntry, LedgerKind


def event_for_viewer(*, user: Any, pk: int) -> Event:
    """One event of a league the viewer can see (`selectors.can_see_league`, as `league_list` filters), or
    Http404: read by its key with its season and league, a query PostgreSQL plans in a fraction of the time
    of one filtered through the visible leagues."""
    event = (
        Event.objects.filter(pk=pk).select_related("season__league", "buy_in_policy", "chip_set", "tournament").first()
    )
    if event is None or not selectors.can_see_league(user, event.season.league):
        raise Http404("No such event.")
    return event


# What each kind of table is, as the event page says it.
TABLE_KINDS = {
    "table": "Table, results entered by hand",
    "online": "Online table",
    "real_cards": "Real cards, chips on phones",
    "tournament": "Tournament table, played at the venue",
}


def event_tables(*, event: Event) -> dict[str, Any]:
    """Every table of the event with its games: the tables results are entered at (`Table`), its online and
    real-cards tables (`games.selectors.event_site_tables`: its own and its tournament's) and, for a tournament,
    the tables it seats players at now that no site table plays. Each row: kind, kind_label, name, status, url,
    tournament_table and `game_list` (a results table's also its `number`). Also `by_hand`: games entered by hand
    at no table, and `other_games`: games whose table is gone. Five queries (six for a tournament). The event's
    public page and its organiser page both list these rows."""
    games = list(
        Game.objects.filter(event=event)
        .defer("replay_document", "replay_result", "hands", "options")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")))
        .order_by("round", "played_at", "id")
    )
    by_id = {game.pk: game for game in games}
    rows: list[dict[str, Any]] = []
    for table in Table.objects.filter(event=event).order_by("number"):
        game_list = [game for game in games if game.table_id == table.pk]
        rows.append(
            {
                "kind": "table",
                "name": table.name,
                "number": table.number,
                "status": _games_status(game_list),
                "url": None,
                "tournament_table": None,
                "game_list": game_list,
            }
        )
    site_tables = game_selectors.event_site_tables(event.pk)
    for row in site_tables:
        row["game_list"] = [by_id[row["game"]]] if row["game"] in by_id else []
        rows.append(row)
    if event.kind == EventKind.TOURNAMENT:
        played = {row["tournament_table"] for row in site_tables if row["status"] != "finished"}
        for table in hooks.tournament_seated_tables(event_id=event.pk):
            if table["number"] not in played:
                rows.append(
                    {
                        "kind": "tournament",
                        "name": f"Table {table['number']}",
                        "status": f"playing, {table['seated']} seated",
                        "url": None,  # the tournament's page, which the template links
                        "tournament_table": table["number"],
                        "game_list": None,
                    }
                )
    for row in rows:
        row["kind_label"] = TABLE_KINDS[row["kind"]]
    at_tables = {game.pk for row in rows for game in row["game_list"] or ()}
    loose = [game for game in games if game.table_id is None and game.pk not in at_tables]
    return {
        "tables": rows,
        "by_hand": [game for game in loose if game.source == GameSource.MANUAL],
        "other_games": [game for game in loose if game.source != GameSource.MANUAL],
    }


def _games_status(games: list[Game]) -> str:
    """A results table's status, from its games: running while one is, finished once one is, else no game yet."""
    statuses = {game.status for game in games}
    if GameStatus.RUNNING in statuses:
        return "running"
    if GameStatus.FINISHED in statuses:
        return "finished"
    return "no game yet"


def event_results(*, event: Event) -> list[EventResult]:
    return list(
        EventResult.objects.filter(event=event)
        .select_related("player")
        .annotate(net=F("credits_out") - F("credits_in"))
        .order_by("place", "player__display_name")
    )


def event_prize_pool(*, event: Event) -> dict[str, int]:
    """Credits brought to the tables (buy-ins, re-buys, add-ons), from the ledger, net of corrections."""
    totals = dict(
        LedgerEntry.objects.filter(event=event, kind__in=[LedgerKind.BUY_IN, LedgerKind.REBUY, LedgerKind.ADDON])
        .values("kind")
        .annotate(total=Sum("amount"))
        .values_list("kind", "total")
    )
    return {
        "buy_ins": totals.get(LedgerKind.BUY_IN, 0),
        "rebuys": totals.get(LedgerKind.REBUY, 0),
        "addons": totals.get(LedgerKind.ADDON, 0),
        "total": sum(totals.values()),
    }


def game_for_viewer(*, user: Any, pk: int) -> Game:
    """One game the viewer may see, without its replay document."""
    game = (
        Game.objects.filter(pk=pk, event__season__league__in=selectors.league_list(user=user))
        .select_related("event__season__league", "table", "real_table")
        # A real-cards table's code links its hand history; its steps and its private seed are not read here.
        .defer(
            "replay_document",
            "real_table__steps",
            "real_table__changes",
            "real_table__setup",
            "real_table__master",
            "real_table__outcome",
        )
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")))
        .first()
    )
    if game is None:
        raise Http404("No such game.")
    return game


def game_has_replay(*, game: Game) -> bool:
    return Game.objects.filter(pk=game.pk, replay_document__isnull=False).exists()


def game_replay_history(*, game: Game) -> dict[str, Any] | None:
    """The public hand history of a game with a replay, or None; the document itself never leaves here."""
    from games.history import HistoryError, public_history

    document = Game.objects.filter(pk=game.pk).values_list("replay_document", flat=True).first()
    if not document:
        return None
    try:
        return public_history(document)
    except HistoryError as exc:
        return {"error": str(exc), "hands": []}
