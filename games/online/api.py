"""Online tables over REST: the lobby, opening a table, the table as I see it, my legal actions, acting,
joining, leaving, starting, bots, pausing and resuming. The same services as the pages; the same answers."""

from collections.abc import Callable, Mapping
from typing import Any

from drf_spectacular.plumbing import build_array_type, build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from config.api_views import ViewSet
from config.inputs import is_digits, parse_whole_number
from config.serializers import StrictInput, validated
from games.engine.bots import BOTS
from games.engine.options import variant_presets
from games.online import hands as hand_history
from games.online import my_games, selectors, services
from games.online.models import MAX_SEATS, MAX_TURN_SECONDS, MIN_SEATS, MIN_TURN_SECONDS, OnlineTable
from games.online.permissions import NoSuchTable
from games.online.services import casual
from league.models import MAX_CREDITS, Event
from league.selectors import league_list


class TableOpenInput(StrictInput):
    event = serializers.IntegerField(help_text="The event (single game or tournament) the table belongs to.")
    name = serializers.CharField(max_length=80)
    seats = serializers.IntegerField(min_value=MIN_SEATS, max_value=MAX_SEATS, default=6)
    turn_seconds = serializers.IntegerField(min_value=MIN_TURN_SECONDS, max_value=MAX_TURN_SECONDS, default=30)
    preset = serializers.CharField(required=False, help_text="A preset of the variant; defaults to the league's.")
    option_overrides = serializers.DictField(required=False, help_text="Engine options over the preset.")


class CasualInput(StrictInput):
    variant = serializers.ChoiceField(choices=list(variant_presets()), default=casual.DEFAULT_VARIANT)
    preset = serializers.CharField(required=False, help_text="A preset of the variant; defaults to its first.")
    seats = serializers.IntegerField(min_value=MIN_SEATS, max_value=MAX_SEATS, default=casual.DEFAULT_SEATS)
    bot = serializers.ChoiceField(
        choices=sorted(BOTS), default=casual.DEFAULT_BOT, help_text="The kind of bot for the empty seats."
    )
    turn_seconds = serializers.IntegerField(
        min_value=MIN_TURN_SECONDS, max_value=MAX_TURN_SECONDS, default=casual.DEFAULT_TURN_SECONDS
    )
    hands = serializers.IntegerField(
        min_value=1, max_value=casual.MAX_HANDS, required=False, help_text="A short game: over after this many hands."
    )


class ActInput(StrictInput):
    verb = serializers.ChoiceField(choices=services.VERBS)
    version = serializers.IntegerField(min_value=0, help_text="The table version the action was made against.")
    key = serializers.CharField(
        max_length=services.MAX_KEY_LENGTH, help_text="Idempotency key: a repeat gets the first answer."
    )
    cards = serializers.ListField(child=serializers.CharField(max_length=4), required=False, max_length=10)
    amount = serializers.IntegerField(min_value=1, max_value=MAX_CREDITS, required=False)
    card = serializers.CharField(
        max_length=4,
        required=False,
        help_text="The card of your hand a trade (or a Corellian Spike spike) gives.",
    )
    source = serializers.ChoiceField(
        choices=("deck", "pilot", "wing", "gunner", "discard"),
        required=False,
        help_text="Corellian Spike: where a trade or buy takes its card from.",
    )
    unlock = serializers.CharField(
        max_length=4, required=False, help_text="Classic Sabacc: a card of your field to unlock before the play."
    )
    lock = serializers.CharField(
        max_length=5,
        required=False,
        help_text=(
            "Classic Sabacc: a card of your hand to lock after the play, or `taken` for the card your draw or "
            "trade takes (a card you have not seen cannot be named)."
        ),
    )
    call_hand = serializers.BooleanField(
        required=False, help_text="Classic Sabacc: call the hand with this betting action (from the call round on)."
    )


INVITE_HELP = (
    "A casual game's invite token, from its share link (`?invite=`): needed to see or join it before it starts."
)


class JoinInput(StrictInput):
    seat = serializers.IntegerField(min_value=0, max_value=MAX_SEATS - 1, required=False)
    invite = serializers.CharField(max_length=64, required=False, help_text=INVITE_HELP)


class EntropyInput(StrictInput):
    value = serializers.CharField(max_length=200, help_text="Random text from your device, mixed into the next deck.")


class NoInput(StrictInput):
    """The body of a request that takes no fields: any field sent is refused, not ignored."""


class BotsInput(StrictInput):
    bot = serializers.ChoiceField(choices=sorted(BOTS), default="sensible", help_text="The kind of bot.")


def _table_action(
    service: Callable[..., Any],
    summary: str,
    *,
    name: str,
    description: str = "",
    url_path: str | None = None,
    given: type[serializers.Serializer] = NoInput,
    arguments: Callable[[dict], dict] = lambda data: {},
) -> Any:
    """A table's action (`POST /api/tables/<id>/<name>/`): the input checked by `given` (none: any field sent is
    refused), the service called with the user, the table and `arguments(input)`, answered with the table as the
    user sees it after."""

    def run(self: "TableViewSet", request: Request, pk: str) -> Response:
        table = self._table(pk)
        data = validated(given, request.data)
        service(actor=request.user, table=table, **arguments(data))
        return self._state(table)

    run.__name__ = run.__qualname__ = name
    run = action(detail=True, methods=["post"], url_path=url_path)(run)
    schema = extend_schema(
        request=None if given is NoInput else given,
        responses={200: OpenApiTypes.OBJECT},
        summary=summary,
        description=description or None,
    )
    return schema(run)


# Who runs an online table (fills it with bots, starts, pauses, resumes, ends and closes it), in the words of the docs.
WHO_RUNS = (
    "the league's organisers and site admins, and the member who opened a league table while they are a member; "
    "a casual game's host"
)


class TableViewSet(ViewSet):
    """Tables of the leagues you can see. Every answer about one table is the table as *you* see it."""

    queryset = OnlineTable.objects.none()  # for the schema's path parameter type only
    read_query_params = {"replay": ["hand"], "retrieve": ["invite"], "legal": ["invite"]}

    def _table(self, pk: str) -> OnlineTable:
        """The table as the user may see it, or the same 404 whether it is missing or hidden (a casual game asked
        for without its invite token: `?invite=` on a read, the `invite` field of a join)."""
        table = my_games.find_table(self.request.user, pk, invite=self._invite()) if is_digits(str(pk)) else None
        if table is None:
            raise NoSuchTable()
        return table

    def _invite(self) -> str | None:
        given = self.request.query_params.get("invite")
        if given is None and self.request.method == "POST" and isinstance(self.request.data, Mapping):
            given = self.request.data.get("invite")
        return given if isinstance(given, str) else None

    def _state(self, table: OnlineTable, code: int = status.HTTP_200_OK) -> Response:
        table = OnlineTable.objects.select_related("event__season__league").get(pk=table.pk)
        state = selectors.table_state(table, user=self.request.user)
        return Response(selectors.with_share_link(state, self.request.build_absolute_uri), status=code)

    @extend_schema(
        operation_id="tables_list",
        responses={200: build_array_type(build_basic_type(OpenApiTypes.OBJECT))},
        summary="The lobby: open, running and paused tables",
    )
    def list(self, request: Request) -> Response:
        """The online tables of the leagues you can see (signed out: public leagues only) that are open for seats,
        running or paused: each with its league and event, rules, buy-in, seats free, the players' names, the turn
        time and whether you may sit. Casual games are not listed: yours are in `mine`, a friend's reaches you as
        its share link."""
        tables = selectors.lobby_tables(user=request.user)
        return Response([selectors.table_summary(t, user=request.user) for t in tables])

    @extend_schema(
        request=TableOpenInput,
        responses={201: OpenApiTypes.OBJECT},
        summary="Open a table",
    )
    def create(self, request: Request) -> Response:
        """Opens an online table at a planned or running event: the league's organisers and site admins may, and its
        members where the league lets members open tables (else 403, saying who may). Answers 201 with the table
        as you see it; it takes seats until someone who runs it starts it. An event you cannot see is a 404, a
        finished event or a field out of range a 400 naming it."""
        data = validated(TableOpenInput, request.data)
        event = Event.objects.filter(pk=data.pop("event"), season__league__in=league_list(user=request.user)).first()
        if event is None:
            raise NotFound("No such event (or it belongs to a league you cannot see).")
        table = services.table_open(actor=request.user, event=event, **data)
        return self._state(table, status.HTTP_201_CREATED)

    @extend_schema(
        request=CasualInput,
        responses={201: OpenApiTypes.OBJECT},
        summary="Play now: open a casual game (no league) with you seated; `start` fills empty seats with bots",
    )
    @action(detail=False, methods=["post"])
    def casual(self, request: Request) -> Response:
        """Opens a game of no league for any signed-in user (else 401), with you seated as its host: the variant's
        first preset unless you name one, and bots of the kind asked for the seats nobody takes when you start it.
        Answers 201 with the table and its share link, which lets friends join before the start. Casual games
        count in no league's results. A preset the variant lacks or a number out of range is a 400."""
        data = validated(CasualInput, request.data)
        table = services.casual_open(actor=request.user, bot_kind=data.pop("bot"), **data)
        return self._state(table, status.HTTP_201_CREATED)

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="My games: your casual games and your league tables, apart, with results and links",
    )
    @action(detail=False, methods=["get"])
    def mine(self, request: Request) -> Response:
        """Your online games, newest first, up to 100 of each kind: `casual` (those you host or sat at) and `league`
        (the league tables your player sat at), each with its status, players and bots, your seat, place and final
        credits once it is over, and links to the table, its hands, fair decks and replay. Signed-in users only:
        signed out, 401."""
        if not request.user.is_authenticated:
            raise NotAuthenticated("Sign in to see your games.")
        return Response(my_games.my_games(request.user))

    @extend_schema(
        parameters=[OpenApiParameter("invite", str, required=False, description=INVITE_HELP)],
        responses={200: OpenApiTypes.OBJECT},
        summary="The table as you see it",
    )
    def retrieve(self, request: Request, pk: str) -> Response:
        """The table's status, seats and stacks, the pot and the hand in play with your own cards only (never another
        player's, nor the deck), what you may do now, and the table's `version`, which an action must carry.
        Anyone who may see the league may read it; a casual game answers 404 without its invite token (`?invite=`)
        unless you are its host or seated."""
        return self._state(self._table(pk))

    @extend_schema(
        parameters=[OpenApiParameter("invite", str, required=False, description=INVITE_HELP)],
        responses={200: OpenApiTypes.OBJECT},
        summary="What you may do now, with the bounds",
    )
    @action(detail=True, methods=["get"])
    def legal(self, request: Request, pk: str) -> Response:
        """Only your choices at the table now and the `version` to send with them: the verbs, the phase, the cards
        you may select and the bounds of a bet, a raise and a call, in credits. No verbs when it is not your
        decision or you have no seat."""
        state = selectors.table_state(self._table(pk), user=request.user)
        legal = state["view"]["legal"] if state["view"] and "legal" in state["view"] else {"verbs": []}
        return Response({"version": state["table"]["version"], "legal": legal})

    @extend_schema(
        request=ActInput,
        responses={200: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
        summary="Act",
    )
    @action(detail=True, methods=["post"])
    def act(self, request: Request, pk: str) -> Response:
        """Makes your decision at the table (seated players only), against the `version` you last saw and with a
        `key` of your choosing: a repeat with the same key gets the first answer and acts once. Answers what was
        applied and the table as you see it after. Refused with 400 when the rules do not allow the decision now
        (the message says what they allow) or you have no seat (`not_seated`); with 409 when the table has moved
        on (`stale`, the table as it is now in `extra.state`), it is not your decision (`not_your_turn`), the
        table is not running, or the key was used for another decision (`key_reused`)."""
        table = self._table(pk)
        data = validated(ActInput, request.data)
        answer = services.table_act(actor=request.user, table=table, **data)
        return Response({**answer, "state": self._state(table).data})

    # The actions that answer with the table as the user sees it after (`_table_action`).
    join = _table_action(
        services.seat_take,
        "Take a seat",
        name="join",
        description="Sits your player (a member of the league with a player profile) at the table: before the game "
        "starts, or between hands at a running cash table, whose buy-in is then booked in the ledger at once. "
        "`seat` picks a seat number, else the first free one. A casual game takes friends through its share link "
        "(`invite`) before it starts. Refused with 409 when you are seated already, the seat is taken or none is "
        "free, the game has started (not a cash table) or is over, or at a tournament's table (its draw seats "
        "the players).",
        given=JoinInput,
        arguments=lambda data: {"number": data.get("seat"), "invite": data.get("invite")},
    )
    leave = _table_action(
        services.seat_leave,
        "Leave your seat",
        name="leave",
        description="Gives up your seat: any time before the game starts; once it runs only at a cash table, "
        "between hands, where your stack is cashed out in the ledger at once. Refused with 409 at any other "
        "running game (step away instead: the clock acts for you), at a tournament's table, and when the game is "
        "over.",
    )
    bots = _table_action(
        services.table_fill_bots,
        "Fill empty seats with bots",
        name="bots",
        description="Seats a bot of the kind asked in every empty seat, before the game starts (who runs the "
        f"table: {WHO_RUNS}). Bots play for the house: they are "
        "in no league's results, ledger or standings. Refused with 409 once the game has started, at a "
        "tournament's table, and with nobody seated.",
        given=BotsInput,
        arguments=lambda data: {"kind": data["bot"]},
    )
    start = _table_action(
        services.table_start,
        "Start the game",
        name="start",
        description=f"Deals the first hand (who runs the table: {WHO_RUNS}); from then on each awaited player has "
        "the table's turn time to act. Refused with 409 with "
        "fewer than two seated or when the game has started already.",
    )
    pause = _table_action(
        services.table_pause,
        "Pause the game",
        name="pause",
        description=f"Stops the turn clock and the bots: nobody acts until the game resumes (who runs the table: "
        f"{WHO_RUNS}; anyone else gets 403). Answers the table as you see it, paused. Refused with 409 when the "
        "table is not running (not started, paused already, or over).",
    )
    resume = _table_action(
        services.table_resume,
        "Resume the game",
        name="resume",
        description=f"Plays on after a pause (who runs the table: {WHO_RUNS}; anyone else gets 403): the awaited "
        "player gets a fresh turn time, and if you are seated and were marked away you are back. Refused with 409 "
        "when the table is not paused.",
    )
    entropy = _table_action(
        services.seat_entropy,
        "Add entropy to the next deck",
        name="entropy",
        description="Mixes random text from your device into the next hand's deck, so that no one, the site "
        "included, alone decides its order (seated players only, between hands of a running or paused game; a "
        "later text replaces yours). Nothing anyone sees changes and the table's `version` stays as it is. "
        "Refused with 400 when you have no seat, a hand is being played or the text is not 1 to 200 printable "
        "characters; with 409 when the game has not started or is over.",
        given=EntropyInput,
        arguments=dict,
    )
    rebuy = _table_action(
        services.seat_rebuy,
        "Re-buy when out of credits",
        name="rebuy",
        description="Buys you back in when your stack is gone, between hands, for the event's re-buy amount (else "
        "the table's buy-in), booked in the ledger at once. At a tournament's table the tournament takes it, in "
        "its re-buy period, and the chips join your stack at the next hand break. Refused with 400 when you have "
        "no seat; with 409 when the game is not running, the rules or the event's buy-in policy allow no (more) "
        "re-buys, you still have credits or a hand is being played, or the tournament's re-buy period is over.",
    )
    close = _table_action(
        services.table_close,
        "Close a cash table between hands, or a casual game before it starts",
        name="close",
        description=f"Ends a cash game (one that never ends by itself) between hands: the game lands in the league "
        "with every stack as it stands and the hands' seeds are revealed. A casual game that has not started "
        f"closes at once, unplayed, with no result. Who runs the table may ({WHO_RUNS}; else 403). Refused with "
        "409 when the game is not a cash game, has not started (a league table) or is over already, a hand is "
        "being played, or a player or a re-buy is on the way to the table.",
    )
    end = _table_action(
        services.table_end,
        "End a league table's game at its next hand break, booked from the stacks as they stand",
        name="end",
        description=f"Ends a running or paused league table's game at its next hand break (at once when between "
        f"hands); its result is booked from the stacks as they stand (who runs the table: {WHO_RUNS}; else 403). "
        "Refused with 409 at a casual game (it ends by itself, or its host closes it), at a tournament's table "
        "(its tournament ends it), at a cash table (close it instead), when the game is not running or paused, "
        "and when it already ends at the next break.",
    )
    come_back = _table_action(
        services.seat_return,
        "Come back after being marked away",
        url_path="return",
        name="come_back",
        description="Tells the table you are back after the clock marked you away (it acts for an away player): "
        "your decisions wait for you again, and a table that paused itself because nobody was there plays on. "
        "Refused with 400 when you have no seat at the table, with 409 when you are not marked away.",
    )

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="The finished hands as the table saw them (the public hand history)",
    )
    @action(detail=True, methods=["get"])
    def hands(self, request: Request, pk: str) -> Response:
        """Every finished hand step by step, told in words as everyone at the table saw it, with its dealer and its
        result: public information only, never a card that stayed hidden nor the deck's order. Anyone who may see
        the table may read it, while the game runs and after; empty until a hand ends."""
        return Response(hand_history.public_table_history(self._table(pk)))

    @extend_schema(
        parameters=[OpenApiParameter("hand", int, required=False, description="Stop after this hand (1, 2, ...).")],
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
        summary="The game as sabacc-replay/2, once it is over (409 while it runs: the decks would show folded hands)",
    )
    @action(detail=True, methods=["get"])
    def replay(self, request: Request, pk: str) -> Response:
        """The whole game as a replay document (every hand's deck and every decision) that any copy of the rules can
        play again, for anyone who may see the table, once the game is over; `hand` stops it after that hand.
        Answers 409 while the game runs (`replay_not_yet`: the decks would show folded hands) or when no hand was
        finished, 400 for a hand the table did not play."""
        raw = request.query_params.get("hand")
        upto = (
            None if raw in (None, "") else parse_whole_number(raw, "`hand`, a hand number (1, 2, ...),", max_digits=9)
        )
        return Response(hand_history.replay_document(self._table(pk), upto=upto))

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="Each hand's seed commitment and, once the game is over, its revealed seeds and the engine's check",
    )
    @action(detail=True, methods=["get"])
    def seeds(self, request: Request, pk: str) -> Response:
        """How to check that the decks were fair: each finished hand's commitment (the hash of its seed, published
        before its deal) and, once the game is over, the seed itself, the players' entropy and whether the deck
        follows from them (`verified`, with any `problems`). Anyone who may see the table may read it; while the
        game runs the seeds stay hidden."""
        return Response(hand_history.seed_report(self._table(pk)))
