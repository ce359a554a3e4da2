"""Reads of casual games and of "My games": a casual table found by its link, and the signed-in user's games,
casual and league apart, each with its result and where its hands, replay and fair decks are."""

from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.urls import reverse

from config.inputs import is_digits
from games.my_rows import event_fields, result_fields
from games.online import selectors
from games.online.models import OnlineSeat, OnlineTable, TableStatus
from games.online.permissions import can_watch_table, is_own_seat
from league.pages import rules_name
from league.selectors import user_player_id

MY_GAMES_LIMIT = 100


def _tables() -> QuerySet[OnlineTable]:
    return (
        OnlineTable.objects.select_related("event__season__league")
        .prefetch_related(Prefetch("seats", queryset=OnlineSeat.objects.order_by("number")))
        .defer("state", "history")
    )


def find_table(user: Any, pk: Any, *, invite: str | None = None) -> OnlineTable | None:
    """The table `pk` as `user` may see it: a table of a league they see, or a casual game they may watch (with its
    invite token before it starts, its host and players any time); None otherwise."""
    if not is_digits(str(pk)):
        return None
    table = selectors.table_list(user=user).filter(pk=pk).first()
    if table is None:
        table = _tables().filter(pk=pk, event__isnull=True, tournament_table__isnull=True).first()
    if table is None or not can_watch_table(user, table, invite):
        return None
    return table


def _row(table: OnlineTable, user: Any) -> dict[str, Any]:
    mine = next((seat for seat in table.seats.all() if is_own_seat(user, seat)), None)
    result = result_fields(table.outcome, mine.name if mine else None)
    # Over with a game to replay: a casual game closed before it started has none (no outcome, no league game).
    over = table.status == TableStatus.FINISHED and (table.outcome is not None or table.game_id is not None)
    return {
        "id": table.pk,
        "name": table.name,
        **event_fields(table),
        "rules": rules_name(table.variant, table.preset),
        "status": table.status,
        "seats": table.seat_count,
        "players": [seat.name for seat in table.seats.all()],
        "bots": [seat.name for seat in table.seats.all() if seat.is_bot],
        "you": mine.name if mine else None,
        "place": result["place"],
        "of": len((table.outcome or {}).get("standings", [])) or None,
        "final_credits": result["final_credits"],
        "buy_in": table.buy_in,
        "created_at": table.created_at.isoformat(),
        "links": {
            "table": reverse("online-table", args=[table.pk]),
            "hands": reverse("online-hands", args=[table.pk]),
            "fair_decks": reverse("online-seeds", args=[table.pk]),
            "replay": reverse("online-replay-download", args=[table.pk]) if over else None,
            "league_game": reverse("game-detail", args=[table.game_id]) if table.game_id else None,
        },
    }


def my_games(user: Any) -> dict[str, list[dict[str, Any]]]:
    """The user's online games, newest first: casual games (hosted or sat at) and league tables, apart."""
    if not getattr(user, "is_authenticated", False):
        return {"casual": [], "league": []}
    casual = _tables().filter(event__isnull=True, tournament_table__isnull=True)
    casual = casual.filter(Q(created_by=user) | Q(seats__user=user)).distinct().order_by("-created_at", "-id")
    player_id = user_player_id(user)
    league: list[OnlineTable] = []
    if player_id is not None:
        league = list(
            _tables().filter(seats__player_id=player_id).distinct().order_by("-created_at", "-id")[:MY_GAMES_LIMIT]
        )
    return {
        "casual": [_row(table, user) for table in casual[:MY_GAMES_LIMIT]],
        "league": [_row(table, user) for table in league],
    }
