"""Reads of games: only games of leagues the user can see."""

from typing import Any

from django.db.models import BooleanField, ExpressionWrapper, Prefetch, Q, QuerySet

from games.models import Game, Seat
from league.selectors import league_list


def game_list(*, user: Any) -> QuerySet[Game]:
    return (
        Game.objects.filter(event__season__league__in=league_list(user=user))
        .select_related("event__season__league")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number")))
        .defer("replay_document", "replay_result")
        # Whether a replay is stored, answered by the list query: the document itself is never loaded here.
        .annotate(has_replay=ExpressionWrapper(Q(replay_document__isnull=False), output_field=BooleanField()))
    )
