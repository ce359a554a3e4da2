"""Reads of games: only games of leagues the user can see."""

from typing import Any

from django.db.models import BooleanField, ExpressionWrapper, F, Prefetch, Q, QuerySet
from django.urls import reverse

from games import hooks
from games.models import Game, GameStatus, Seat
from games.online.models import OnlineTable, TableStatus
from games.tabletop.models import RealTable, RealTableStatus
from league.selectors import league_list
from league.services import SeatRow


def game_list(*, user: Any) -> QuerySet[Game]:
    return (
        Game.objects.filter(event__season__league__in=league_list(user=user))
        .select_related("event__season__league")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")))
        .defer("replay_document", "replay_result")
        # Whether a replay is stored, answered by the list query: the document itself is never loaded here.
        .annotate(has_replay=ExpressionWrapper(Q(replay_document__isnull=False), output_field=BooleanField()))
    )


def finished_seat_rows(event_id: int) -> list[SeatRow]:
    """The seats of an event's finished games as the rows league derives results from (player_id, round,
    place, buy_in, rebuys, knockouts, biggest_pot), ordered by round, game and seat number."""
    return list(
        Seat.objects.filter(game__event_id=event_id, game__status=GameStatus.FINISHED)
        .order_by("game__round", "game_id", "number")
        .values("player_id", "place", "buy_in", "rebuys", "knockouts", "biggest_pot", round=F("game__round"))
    )


def event_result_rows(event_id: int) -> list[SeatRow]:
    """What games hands league for an event's results: a completed tournament's places when the event is one (they
    stand above its tables' games, as the tournament decided them), else the seats of its finished games."""
    places = hooks.tournament_place_rows(event_id=event_id)
    return places if places is not None else finished_seat_rows(event_id)


def _table_row(table: OnlineTable | RealTable, *, kind: str, name: str, url: str) -> dict[str, Any]:
    """A table as the plain row the event's pages and refusals name it by; its status as said, the display's first
    words ("running", not "Running: ...")."""
    return {"kind": kind, "name": name, "status": table.get_status_display().split(":")[0].lower(), "url": url}


def _online_row(table: OnlineTable) -> dict[str, Any]:
    url = reverse("online-table", args=[table.pk])
    return _table_row(table, kind="online", name=f"online table “{table.name}”", url=url)


def _real_row(table: RealTable) -> dict[str, Any]:
    url = reverse("tabletop-table", args=[table.code])
    return _table_row(table, kind="real_cards", name=f"real-cards table {table.code}", url=url)


def event_site_tables(event_id: int) -> list[dict[str, Any]]:
    """Every online and real-cards table of the event, its own and its tournament's, in the order they were
    opened, as plain rows: kind, name, status (as said: open, running, paused, playing, finished), url,
    `tournament_table` (the tournament's table number it plays, or None) and `game` (the league game it
    landed as, or None). Two queries; what a table holds of its game (state, seeds, steps) is not read."""
    return events_site_tables([event_id])[event_id]


def events_site_tables(event_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """`event_site_tables` of several events at once, by event id (an empty list for an event without tables):
    two queries however many events, for a list of events."""
    online = OnlineTable.objects.filter(event_id__in=event_ids).order_by("created_at", "id")
    real = RealTable.objects.filter(event_id__in=event_ids).order_by("created_at", "id")
    by_event: dict[int, list[dict[str, Any]]] = {event_id: [] for event_id in event_ids}
    for table in online.only("pk", "event_id", "name", "status", "tournament_table", "game_id"):
        row = {**_online_row(table), "tournament_table": table.tournament_table, "game": table.game_id}
        by_event[table.event_id].append(row)
    for table in real.only("pk", "event_id", "code", "status", "tournament_table", "game_id"):
        row = {**_real_row(table), "tournament_table": table.tournament_table, "game": table.game_id}
        by_event[table.event_id].append(row)
    return by_event


def unfinished_tables(event_id: int, *, except_online: int | None = None) -> list[dict[str, Any]]:
    """The event's own tables whose game is not over, as plain rows (kind, name, status, url): online tables
    running or paused, real-cards tables open or playing. Their results land in the event when they end, so the
    event is not finished before them. A tournament's tables are its own (it completes or calls off its event),
    and an online table still open for seats has dealt nothing yet. `except_online`: a table finishing now."""
    online = (
        OnlineTable.objects.filter(
            event_id=event_id, tournament_table__isnull=True, status__in=(TableStatus.RUNNING, TableStatus.PAUSED)
        )
        .exclude(pk=except_online)
        .order_by("id")
    )
    real = RealTable.objects.filter(
        event_id=event_id,
        tournament_table__isnull=True,
        status__in=(RealTableStatus.OPEN, RealTableStatus.PLAYING),
    ).order_by("id")
    return [
        *(
            {
                **_online_row(table),
                "todo": "close it on its page (Close the table, between hands)"
                if table.options.get("end_rule") == "never"
                else "end it on its page (End the game: its result is booked from the stacks at the next hand break) "
                "or let its game play to its end"
                + (" (Resume it on its page)" if table.status == TableStatus.PAUSED else ""),
            }
            for table in online.only("pk", "name", "status", "options")
        ),
        *(
            {**_real_row(table), "todo": "its host ends the game on its page (End the game)"}
            for table in real.only("pk", "code", "status")
        ),
    ]


def unfinished_tables_refusal(*, event_name: str, tables: list[dict[str, Any]]) -> str | None:
    """Why an event with these unfinished tables may not be finished yet, naming them and what to do; None
    when there are none."""
    if not tables:
        return None
    named = "; ".join(f"{table['name']}, {table['status']} ({table['url']}): {table['todo']}" for table in tables)
    return (
        f"{event_name} still has {'a table' if len(tables) == 1 else f'{len(tables)} tables'} in play: {named}. "
        f"Finish or close {'it' if len(tables) == 1 else 'them'} first: each result then lands in this event "
        "with its buy-ins and payouts, and the event can be finished."
    )
