"""Reads for the event and game pages: only events and games of leagues the viewer can see.

The replay document (deck order, seeds) is never loaded here except by `game_replay_history`, which turns it
into what was public at the table (`games.history`) and returns nothing else.
"""

from typing import Any

from django.db.models import F, Prefetch, Sum
from django.http import Http404

from games.models import Game, Seat, Table
from league import selectors
from league.models import Event, EventResult, LedgerEntry, LedgerKind


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


def event_tables(*, event: Event) -> tuple[list[Table], list[Game]]:
    """The event's tables, each with `.game_list`, and the games at no table: three queries in all."""
    games = list(
        Game.objects.filter(event=event)
        .defer("replay_document", "replay_result", "hands", "options")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")))
        .order_by("round", "played_at", "id")
    )
    tables = list(Table.objects.filter(event=event).order_by("number"))
    for table in tables:
        table.game_list = [game for game in games if game.table_id == table.pk]
    return tables, [game for game in games if game.table_id is None]


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
