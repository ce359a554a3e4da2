"""Games API: list and read games, record a result by hand, correct one, and chip history.

The replay document (it holds the deck order) is never served; the result's public parts are.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import mixins, serializers, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from config.api_views import APIView, GenericViewSet
from config.serializers import StrictInput
from games import selectors as game_selectors
from games import services
from games.models import Game, ResultCorrection, Seat, Table
from league import selectors
from league.api import serializers as league_serializers
from league.api.permissions import require_organiser
from league.api.views import ID_PATTERN, id_filterset
from league.models import MAX_COUNT, MAX_CREDITS, Event, League


class SeatOutput(serializers.ModelSerializer):
    display_name = serializers.CharField(source="player.display_name", read_only=True)
    credits_in = serializers.IntegerField(read_only=True)

    class Meta:
        model = Seat
        fields = [
            "number",
            "player",
            "display_name",
            "buy_in",
            "rebuys",
            "rebuy_credits",
            "addon_credits",
            "credits_in",
            "final_credits",
            "place",
            "knockouts",
            "biggest_pot",
        ]


class GameOutput(serializers.ModelSerializer):
    seats = SeatOutput(many=True, read_only=True)
    has_replay = serializers.BooleanField(read_only=True, help_text="Whether a replay is stored (it is never served).")
    hands_known = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "event",
            "table",
            "round",
            "status",
            "source",
            "variant",
            "preset",
            "options",
            "played_at",
            "has_replay",
            "hands_known",
            "seats",
        ]

    def get_hands_known(self, game: Game) -> bool:
        return bool(game.hands)


class VisibleEventField(league_serializers.VisibleOnly, serializers.PrimaryKeyRelatedField):
    selector = staticmethod(selectors.event_list)

    def __init__(self, **kwargs):
        super().__init__(queryset=Event.objects.none(), **kwargs)


class VisibleTableField(league_serializers.VisibleOnly, serializers.PrimaryKeyRelatedField):
    @staticmethod
    def selector(*, user):
        return Table.objects.filter(event__in=selectors.event_list(user=user))

    def __init__(self, **kwargs):
        super().__init__(queryset=Table.objects.none(), **kwargs)


class SeatInput(StrictInput):
    player = serializers.IntegerField(help_text="A player id; the player must be a member of the league.")
    buy_in = serializers.IntegerField(
        min_value=0, max_value=MAX_CREDITS, required=False, help_text="Defaults to the event's buy-in."
    )
    rebuys = serializers.IntegerField(min_value=0, max_value=MAX_COUNT, required=False)
    rebuy_credits = serializers.IntegerField(min_value=0, max_value=MAX_CREDITS, required=False)
    addon_credits = serializers.IntegerField(min_value=0, max_value=MAX_CREDITS, required=False)
    final_credits = serializers.IntegerField(min_value=0, max_value=MAX_CREDITS, required=False)
    place = serializers.IntegerField(min_value=1, max_value=services.MAX_SEATS, required=False)
    knockouts = serializers.IntegerField(min_value=0, max_value=MAX_COUNT, required=False)


class ResultInput(StrictInput):
    event = VisibleEventField()
    table = VisibleTableField(required=False, allow_null=True)
    round = serializers.IntegerField(min_value=1, max_value=MAX_COUNT, required=False, default=1)
    played_at = serializers.DateTimeField(required=False)
    variant = serializers.CharField(required=False)
    preset = serializers.CharField(required=False)
    option_overrides = serializers.DictField(required=False)
    seats = SeatInput(many=True)
    hands = serializers.ListField(
        child=serializers.DictField(child=serializers.IntegerField(min_value=-MAX_CREDITS, max_value=MAX_CREDITS)),
        required=False,
        help_text="Hand by hand: [{player id: credits won (+) or lost (-)}], each hand summing to 0.",
    )
    replay = serializers.JSONField(required=False, help_text="A sabacc-replay/1 document; the engine checks it.")


class CorrectionInput(StrictInput):
    reason = serializers.CharField(max_length=255)
    seats = SeatInput(many=True)


class CorrectionOutput(league_serializers.AuditDetails, serializers.ModelSerializer):
    """Who corrected a result, why, and the result before and after: shown to the league's organisers and
    site admins only; others see that a correction happened and when (the fields are null)."""

    author = serializers.SerializerMethodField()
    reason = serializers.SerializerMethodField()
    before = serializers.SerializerMethodField()
    after = serializers.SerializerMethodField()

    class Meta:
        model = ResultCorrection
        fields = ["id", "game", "author", "reason", "before", "after", "created_at"]

    def audit_league(self, correction: ResultCorrection) -> League:
        return correction.game.event.season.league

    @extend_schema_field({"type": "array", "items": {"type": "object"}, "nullable": True})
    def get_before(self, correction: ResultCorrection) -> list | None:
        return correction.before if self._audit_visible(correction) else None

    @extend_schema_field({"type": "array", "items": {"type": "object"}, "nullable": True})
    def get_after(self, correction: ResultCorrection) -> list | None:
        return correction.after if self._audit_visible(correction) else None


class ChipPoint(serializers.Serializer):
    hand = serializers.IntegerField(
        allow_null=True, help_text="0 is the start; null is the end when hands are unknown."
    )
    credits = serializers.IntegerField()


class ChipSeries(league_serializers.NamedPlayerOutput):
    points = ChipPoint(many=True)


class GameChipHistoryOutput(serializers.Serializer):
    game = serializers.IntegerField()
    hands_known = serializers.BooleanField()
    series = ChipSeries(many=True)


@extend_schema_view(
    list=extend_schema(
        summary="Games of the leagues you can see",
        description="Every game's result, online and recorded by hand: its event, round, rules, when it was played "
        "and each seat's buy-in, re-buys, final credits, place and knockouts. Filter by event, season, player "
        "(`seats__player`), league, status or source. A game's replay, which holds the deck order, is never "
        "served: `has_replay` says one is stored.",
    ),
    retrieve=extend_schema(
        summary="One game's result",
        description="One game by its id, as the list shows it: its event, round, rules and status, and each seat's "
        "buy-in, re-buys, final credits, place and knockouts. Anyone who may see the league may read it; a game "
        "of a members-only league is a 404 to others, as a game that does not exist.",
    ),
)
class GameViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, GenericViewSet):
    serializer_class = GameOutput
    lookup_value_regex = ID_PATTERN
    filterset_class = id_filterset(
        Game,
        {"event": "event_id", "event__season": "event__season_id", "seats__player": "seats__player_id"},
        ("event__season__league__slug", "status", "source"),
        league="event__season__league__slug",
    )
    ordering_fields = ["played_at", "id"]

    def get_queryset(self):
        return game_selectors.game_list(user=self.request.user)

    @extend_schema(
        request=ResultInput,
        responses={201: GameOutput},
        summary="Record a game played at a table",
    )
    def create(self, request: Request) -> Response:
        """Records the result of a game played with real cards at an event (the league's organisers and site admins;
        else 403): each seat's player, buy-in, re-buys and final credits or place, and if you have them its hands
        (credits won or lost, each hand summing to 0) or a replay the engine checks. The ledger, the event's
        results and the standings follow. Nothing is saved if anything is wrong: a 400 names the field and what it
        takes (credits that do not add up, a player not of the league, hands and a replay both sent)."""
        data = ResultInput(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        event = fields.pop("event")
        require_organiser(request.user, event.season.league)
        fields["seats"] = [dict(seat) for seat in fields["seats"]]
        if "hands" in fields:
            fields["hands"] = [dict(hand) for hand in fields["hands"]]
        game = services.result_record(actor=request.user, event=event, **fields)
        return Response(
            GameOutput(game_selectors.game_list(user=request.user).get(pk=game.pk)).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        request=CorrectionInput,
        responses={201: CorrectionOutput},
        summary="Correct a recorded result",
    )
    @action(detail=True, methods=["post"])
    def corrections(self, request: Request, pk: str) -> Response:
        """Replaces a finished game's seats with the result as it should be, with a reason (the league's organisers
        and site admins). The old ledger lines are reversed by new ones, never edited, and the result before and
        after is kept with its author and reason. A correction that changes nothing, or of a game not finished, is
        a 400."""
        game = self.get_object()
        require_organiser(request.user, game.event.season.league)
        data = CorrectionInput(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        correction = services.result_correct(
            actor=request.user,
            game=game,
            reason=data.validated_data["reason"],
            seats=[dict(seat) for seat in data.validated_data["seats"]],
        )
        return Response(CorrectionOutput(correction, context={"request": request}).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        responses=CorrectionOutput(many=True),
        summary="A game's result corrections",
    )
    @corrections.mapping.get
    def corrections_list(self, request: Request, pk: str) -> Response:
        """Every correction of the game's result, newest first, for anyone who may see the league: when each was made
        and, for the league's organisers and site admins only, who made it, why, and the result before and after
        (null for everyone else). Empty for a game never corrected."""
        game = self.get_object()
        corrections = ResultCorrection.objects.filter(game=game).select_related("author", "game__event__season__league")
        return Response(CorrectionOutput(corrections, many=True, context={"request": request}).data)

    @extend_schema(
        responses=GameChipHistoryOutput,
        summary="Each player's credits through the game",
    )
    @action(detail=True, methods=["get"], url_path="chip-history")
    def chip_history(self, request: Request, pk: str) -> Response:
        """Each player's credits through the game, read from the ledger: after buying in (hand 0), then after every
        hand when the hands are known (`hands_known`), else once at the end. A corrected game shows its latest
        result. Anyone who may see the league may read it."""
        game = self.get_object()
        return Response(selectors.chip_history_for_game(game_id=game.pk))


# In games rather than in the league API, which never imports games.
class EventTablesView(APIView):
    """Add a table of the event, for results entered by hand (organisers of the event's league)."""

    @extend_schema(
        request=league_serializers.TableInput,
        responses={201: league_serializers.TableOutput},
        summary="Add a table to an event",
        operation_id="events_tables_create",
    )
    def post(self, request: Request, pk: int) -> Response:
        """Adds a numbered table to the event, where results recorded by hand are played (the league's organisers and
        site admins; else 403). Answers 201 with the table. An event you cannot see is a 404; a number the event
        already has, or a name or number out of range, a 400."""
        event = get_object_or_404(selectors.event_list(user=request.user), pk=pk)
        require_organiser(request.user, event.season.league)
        data = league_serializers.TableInput(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        table = services.table_create(actor=request.user, event=event, **data.validated_data)
        return Response(league_serializers.TableOutput(table).data, status=status.HTTP_201_CREATED)
