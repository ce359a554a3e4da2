"""Reads of games: only games of leagues the user can see."""

from typing import Any

from django.db.models import BooleanField, ExpressionWrapper, F, Prefetch, Q, QuerySet

from games import hooks
from games.models import Game, GameStatus, Seat
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
