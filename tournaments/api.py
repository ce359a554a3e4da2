"""The tournament API: read-only for now, the clock as every screen shows it."""

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league import selectors as league_selectors
from tournaments import services
from tournaments.models import Tournament
from tournaments.structures import structure_from_json, structure_to_json


class LevelOutput(serializers.Serializer):
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    length = serializers.IntegerField()
    unit = serializers.CharField()
    is_break = serializers.BooleanField()


class ClockOutput(serializers.Serializer):
    tournament = serializers.IntegerField()
    status = serializers.CharField()
    started = serializers.BooleanField()
    level_number = serializers.IntegerField(allow_null=True, help_text="Counted from 1.")
    level = LevelOutput(allow_null=True)
    next_level = LevelOutput(allow_null=True)
    seconds_left = serializers.IntegerField(allow_null=True, help_text="Null when the level is not timed.")
    next_break_in = serializers.IntegerField(allow_null=True, help_text="Seconds of play until the next break.")
    paused = serializers.BooleanField()
    server_time = serializers.DateTimeField(help_text="The time the state was computed: the server's clock.")


class TournamentClockView(APIView):
    """`/api/tournaments/{id}/clock/`: level, time left and next break, computed on the server."""

    permission_classes = [AllowAny]  # visibility follows the league: members-only leagues stay 404 to outsiders

    @extend_schema(responses=ClockOutput, summary="A tournament's clock", operation_id="tournaments_clock_retrieve")
    def get(self, request: Request, pk: int) -> Response:
        events = league_selectors.event_list(user=request.user)
        tournament = get_object_or_404(Tournament.objects.filter(event__in=events), pk=pk)
        now = timezone.now()
        state = services.tournament_clock(tournament, now=now)
        levels = structure_to_json(structure_from_json(tournament.structure))
        index = state.level_index if state else None
        return Response(
            ClockOutput(
                {
                    "tournament": tournament.pk,
                    "status": tournament.status,
                    "started": state is not None,
                    "level_number": index + 1 if state else None,
                    "level": levels[index] if state else None,
                    "next_level": levels[index + 1] if state and index + 1 < len(levels) else None,
                    "seconds_left": state.seconds_left if state else None,
                    "next_break_in": state.next_break_in if state else None,
                    "paused": bool(state and state.paused),
                    "server_time": now,
                }
            ).data
        )
