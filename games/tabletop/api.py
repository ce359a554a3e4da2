"""Real-cards tables over REST: open, join, remove a seat, start, the table as you see it, a step, undo. The same
services and the same permissions as the pages. A guest (no account) proves their seat with the secret `join` gave
them, sent as the `X-Tabletop-Guest` header (a browser's session works too)."""

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from config.api_views import ViewSet
from config.errors import ApplicationError
from config.serializers import StrictInput, validated
from games.engine.options import variant_presets
from games.tabletop import handover, services
from games.tabletop.models import GROWING, RealSeat, RealTable
from games.tabletop.names import MAX_NAME
from games.tabletop.permissions import is_host, seat_of
from games.tabletop.present import table_view
from games.tabletop.views import guest_token
from league.selectors import event_list

GUEST_HEADER = "X-Tabletop-Guest"
GUEST_PARAMETER = OpenApiParameter(
    GUEST_HEADER, OpenApiTypes.STR, OpenApiParameter.HEADER, required=False, description="A guest's seat secret."
)


class RealTableOpenInput(StrictInput):
    variant = serializers.ChoiceField(choices=list(variant_presets()), default=services.DEFAULT_VARIANT)
    preset = serializers.CharField(required=False, help_text="A preset of the variant; defaults to its first.")
    options = serializers.DictField(required=False, help_text="Engine option overrides, checked by the engine.")
    starting_credits = serializers.IntegerField(
        min_value=1, max_value=services.MAX_STARTING, required=False, help_text="Defaults to the rules' own."
    )
    has_dice = serializers.BooleanField(default=True, help_text="False: the site rolls for the table.")
    host_plays = serializers.BooleanField(default=True, help_text="False: the host only runs the table.")
    event = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="A league event's id: a league table (its organisers only; the league's rules unless given, the "
        "event's buy-in as the starting credits, the league's players as its seats).",
    )


class RealTableJoinInput(StrictInput):
    name = serializers.CharField(max_length=MAX_NAME, required=False, allow_blank=True)


class RealTableStepInput(StrictInput):
    step = serializers.DictField(help_text='The engine\'s step, e.g. {"step": "act", "seat": 0, "verb": "check"}.')
    version = serializers.IntegerField(min_value=0, required=False, help_text="Refused if the table moved on.")


class RealTableAddInput(StrictInput):
    name = serializers.CharField(max_length=MAX_NAME, required=False, help_text="At a casual table.")
    player = serializers.IntegerField(min_value=1, required=False, help_text="At a league table: a member's id.")


class RealTableStartInput(StrictInput):
    dealer = serializers.IntegerField(
        min_value=0, max_value=99, default=0, help_text="The seat that deals first (0 is the first), as drawn."
    )


class RealTableRemoveInput(StrictInput):
    seat = serializers.IntegerField(min_value=0, max_value=99, help_text="The seat's number (0 is the first).")


class RealTableHandoverInput(StrictInput):
    seat = serializers.IntegerField(min_value=0, max_value=99, help_text="The seat's number (0 is the first).")


class RealTableClaimInput(StrictInput):
    secret = serializers.CharField(max_length=64, help_text="The secret of the seat's hand-over link.")


class RealTableUndoInput(StrictInput):
    version = serializers.IntegerField(min_value=0, required=False, help_text="Refused if the table moved on.")


class RealTableViewSet(ViewSet):
    """Real-cards tables, by their join code. Every answer is the table as *you* see it."""

    queryset = RealTable.objects.none()
    lookup_field = "code"
    lookup_value_regex = "[A-Za-z0-9]{1,10}"
    permission_classes = [permissions.AllowAny]  # guests join and act; each service checks who may

    def _table(self, code: str) -> RealTable:
        table = RealTable.objects.defer(*GROWING).filter(code=services.normal_code(code)).first()
        if table is None:
            raise NotFound("No real-cards table has this code.")
        return table

    def _guest(self, table: RealTable) -> str:
        return self.request.headers.get(GUEST_HEADER, "") or guest_token(self.request._request, table.code)

    def _state(self, table: RealTable, code: int = status.HTTP_200_OK, guest: str = "", **extra) -> Response:
        table = RealTable.objects.defer(*GROWING).prefetch_related("seats").get(pk=table.pk)
        mine = seat_of(table, self.request.user, guest or self._guest(table))
        return Response({**table_view(table, host=is_host(self.request.user, table), mine=mine), **extra}, status=code)

    @extend_schema(
        request=RealTableOpenInput,
        responses={201: OpenApiTypes.OBJECT},
        summary="Open a real-cards table",
    )
    def create(self, request: Request) -> Response:
        """Opens a table where people play with real cards and the site keeps the pots, stacks and turns: any
        signed-in user opens a casual one (else 403) and is its host, seated unless `host_plays` is false. With
        `event`, a league table of a single-game event (its league's organisers only, else 403): the league's
        rules unless given, the event's buy-in as starting credits, the league's players as its seats, and its
        result booked in the league when it ends. Answers 201 with the table and its join `code`. Rules the engine
        refuses are a 400, an unknown event (or one of a league you cannot see) a 404, a tournament's or a
        finished event a 409."""
        data = validated(RealTableOpenInput, request.data)
        table = self._open_league(data) if "event" in data else services.realtable_open(actor=request.user, **data)
        return self._state(table, status.HTTP_201_CREATED)

    def _open_league(self, data: dict) -> RealTable:
        event = event_list(user=self.request.user).filter(pk=data.pop("event")).first()
        if event is None:  # a members-only league's event is not named to someone who cannot see it
            raise NotFound("No event has this id (or it belongs to a league you cannot see).")
        if "starting_credits" in data:
            raise ApplicationError(
                "A league table's starting credits are its event's buy-in; leave starting_credits out.",
                extra={"field": "starting_credits"},
            )
        for default in ("variant", "host_plays"):  # the league's rules; an organiser runs the table unless they play
            if default not in self.request.data:
                data.pop(default, None)
        return services.realtable_open_league(actor=self.request.user, event=event, **data)

    def _seated(self, table: RealTable, seat: RealSeat) -> Response:
        """The table as a phone that just took `seat` sees it; a guest's secret is in the answer, this once."""
        extra = {"guest_token": seat.guest_token} if seat.guest_token else {}
        return self._state(table, guest=seat.guest_token, **extra)

    @extend_schema(
        parameters=[GUEST_PARAMETER],
        responses={200: OpenApiTypes.OBJECT},
        summary="The table",
    )
    def retrieve(self, request: Request, code: str) -> Response:
        """The table as everyone sees it (seats, stacks, bets, the pots and whose turn it is, and the hash committing
        to the seed of the site's dice rolls, the seed itself once the game is over) and the buttons you may
        press: your own seat's choices, everything for the host. Anyone with the table's code may read it; a code
        no table has is a 404."""
        return self._state(self._table(code))

    @extend_schema(
        request=RealTableJoinInput,
        parameters=[GUEST_PARAMETER],
        responses={200: OpenApiTypes.OBJECT},
        summary="Take a seat (a guest by name: keep the `guest_token` of the answer, it is shown once)",
    )
    @action(detail=True, methods=["post"])
    def join(self, request: Request, code: str) -> Response:
        """Sits you at the table before its game starts: signed in, by your account (your name unless you give one);
        without an account, at a casual table only, as a guest by `name`, answered with a `guest_token` to send as
        `X-Tabletop-Guest` from then on. A league table seats its league's members only (else 403). Refused with
        409 once the game has started, when you are seated already or the table is full; a name that cannot be
        used is a 400."""
        table = self._table(code)
        data = validated(RealTableJoinInput, request.data)
        seat = services.realseat_join(
            actor=request.user, guest=self._guest(table), table=table, name=data.get("name", "")
        )
        return self._seated(table, seat)

    @extend_schema(
        request=RealTableStepInput,
        parameters=[GUEST_PARAMETER],
        responses={200: OpenApiTypes.OBJECT},
        summary="A step",
    )
    @action(detail=True, methods=["post"])
    def step(self, request: Request, code: str) -> Response:
        """Enters what just happened at the table (a bet, a card drawn, the dice, a reveal): by the seat it is for,
        or by the host for anyone; the rules check it and the table moves on. Refused with 403 when the step is
        not yours, with 400 when the rules do not allow it now (`illegal_step`, saying why) or a league table is
        asked for a re-buy, an add-on or a player joining or leaving, and with 409 when the game has not started
        or is over, or `version` is not the table's (it moved on)."""
        table = self._table(code)
        data = validated(RealTableStepInput, request.data)
        services.realtable_step(
            actor=request.user, guest=self._guest(table), table=table, step=data["step"], version=data.get("version")
        )
        return self._state(table)

    @extend_schema(
        request=RealTableUndoInput,
        responses={200: OpenApiTypes.OBJECT},
        summary="Undo the last step (host)",
    )
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, code: str) -> Response:
        """Takes back the last step a person entered (a mis-tap, a wrong roll), with the steps the table then took by
        itself; the undo is kept in the table's log. The table's host only (else 403). Refused with 409 when no
        step has been taken, the game has not started or is over, or `version` is not the table's."""
        table = self._table(code)
        services.realtable_undo(
            actor=request.user, table=table, version=validated(RealTableUndoInput, request.data).get("version")
        )
        return self._state(table)

    @extend_schema(
        request=RealTableAddInput,
        responses={200: OpenApiTypes.OBJECT},
        summary="Seat a player who has no phone (host): a league member by id, or a name at a casual table",
    )
    @action(detail=True, methods=["post"])
    def add(self, request: Request, code: str) -> Response:
        """The host seats someone who has no phone, before the game starts (the host only, else 403): at a league
        table one of its members by `player`, at a casual table anyone by `name`. The seat gets a hand-over link
        in case they find a phone later. A player not of the league is a 400; one seated already, a started game
        or a full table a 409."""
        table = self._table(code)
        data = validated(RealTableAddInput, request.data)
        services.realseat_add(actor=request.user, table=table, name=data.get("name", ""), player=data.get("player"))
        return self._state(table)

    @extend_schema(
        request=RealTableStartInput,
        responses={200: OpenApiTypes.OBJECT},
        summary="Start the game with the seats as they are (host); `dealer`: the seat that deals first",
    )
    @action(detail=True, methods=["post"])
    def start(self, request: Request, code: str) -> Response:
        """Starts the game with the seats in their order, each with the table's starting credits, and `dealer`
        (counted from 0) dealing first as the table drew. The table's host only (else 403). Refused with 409 with
        fewer than two seated or once started, with 400 for a dealer who is not a seat."""
        table = self._table(code)
        data = validated(RealTableStartInput, request.data)
        services.realtable_start(actor=request.user, table=table, dealer=data["dealer"])
        return self._state(table)

    @extend_schema(
        request=RealTableRemoveInput,
        parameters=[GUEST_PARAMETER],
        responses={200: OpenApiTypes.OBJECT},
        summary="Remove a seat before the start (the host; a player their own seat); the seats after it move up",
    )
    @action(detail=True, methods=["post"])
    def remove(self, request: Request, code: str) -> Response:
        """Removes a seat before the game starts: the host any seat, a player their own (anyone else gets 403); the
        seats after it move up one. Refused with 409 once the game has started, with 400 for a seat number the
        table does not have."""
        table = self._table(code)
        data = validated(RealTableRemoveInput, request.data)
        services.realseat_remove(actor=request.user, guest=self._guest(table), table=table, number=data["seat"])
        return self._state(table)

    @extend_schema(
        request=None,
        responses={200: OpenApiTypes.OBJECT},
        summary="End the game (host)",
    )
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, code: str) -> Response:
        """Ends the game as it stands (the table's host only, else 403); the seed of the site's rolls is shown from
        then on, and a league table's result is booked in the league. Refused with 409 when the game is over
        already, at a league table while a hand is being played, and at a tournament's table while chips the
        tournament booked are on their way to it."""
        table = self._table(code)
        services.realtable_finish(actor=request.user, table=table)
        return self._state(table)

    @extend_schema(
        request=None,
        responses={200: OpenApiTypes.OBJECT},
        summary="Book a finished league table's result again after the league refused it (host)",
    )
    @action(detail=True, methods=["post"])
    def book(self, request: Request, code: str) -> Response:
        """Tries again to book a finished league table's result in its league, once the reason the league refused it
        is put right (the table's host only, else 403). Refused with 409 at a table of no league event, before the
        game is over, when the result is booked already, and when the league refuses it again (the message says
        why)."""
        table = self._table(code)
        services.realtable_land(actor=request.user, table=table)
        return self._state(table)

    @extend_schema(
        request=RealTableHandoverInput,
        responses={200: OpenApiTypes.OBJECT},
        summary="A new hand-over link for a seat nobody holds (host): `handover_url`; the old link stops working",
    )
    @action(detail=True, methods=["post"])
    def handover(self, request: Request, code: str) -> Response:
        """Makes a new link (`handover_url`) with which a phone takes over a seat nobody holds; the seat's old link
        stops working. The table's host only (else 403). Refused with 400 for a seat number the table does not
        have, with 409 when the seat is held by a phone already or the game is over."""
        table = self._table(code)
        data = validated(RealTableHandoverInput, request.data)
        seat = handover.realseat_handover(actor=request.user, table=table, number=data["seat"])
        path = reverse("tabletop-claim", kwargs={"code": table.code, "secret": seat.handover})
        return self._state(table, handover_url=request.build_absolute_uri(path))

    @extend_schema(
        request=RealTableClaimInput,
        parameters=[GUEST_PARAMETER],
        responses={200: OpenApiTypes.OBJECT},
        summary="Take a seat by its hand-over link's secret (a guest: keep the `guest_token` of the answer)",
    )
    @action(detail=True, methods=["post"])
    def claim(self, request: Request, code: str) -> Response:
        """Takes the seat a hand-over link names, by the link's secret: signed in, by your account; at a casual table
        anyone else as a guest, answered with a `guest_token`. A league table's seat is its player's alone, signed
        in (else 403). The link then stops working: a used or replaced one is a 400 (`handover_used`); holding a
        seat at the table already, or a game that is over, a 409."""
        table = self._table(code)
        data = validated(RealTableClaimInput, request.data)
        seat = handover.realseat_claim(actor=request.user, guest=self._guest(table), table=table, secret=data["secret"])
        return self._seated(table, seat)
