"""The tournament API: the clock, the tournament (tables, places, payouts, the draw), a player's entry and the
control room's actions. The same services and permission checks as the pages; refusals are 400/403/409 JSON."""

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from config.api_views import APIView
from config.errors import ApplicationError
from config.serializers import StrictInput, validated
from games.engine.replay import FORMATS_IN_WORDS
from league import services as league_services
from league.permissions import can_manage_event
from tournaments import actions, selectors, services
from tournaments.models import RegistrationStatus


class LevelOutput(serializers.Serializer):
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    length = serializers.IntegerField()
    unit = serializers.CharField()
    is_break = serializers.BooleanField()


class ChipLeaderOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    stack = serializers.IntegerField()


class PrizeOutput(serializers.Serializer):
    place = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    prize = serializers.IntegerField(help_text="Credits booked in the ledger at Complete.")


class ClockOutput(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    started = serializers.BooleanField()
    level_number = serializers.IntegerField(allow_null=True, help_text="Counted from 1.")
    level = LevelOutput(allow_null=True)
    level_label = serializers.CharField()
    next_level = LevelOutput(allow_null=True)
    next_level_label = serializers.CharField()
    finished = serializers.BooleanField(help_text="The tournament is finished: the clock is stopped.")
    seconds_left = serializers.IntegerField(
        allow_null=True, help_text="Null when the level is not timed or the tournament is finished."
    )
    next_break_in = serializers.IntegerField(allow_null=True, help_text="Seconds of play until the next break.")
    paused = serializers.BooleanField()
    epoch = serializers.IntegerField(help_text="Counts the organiser's moves of the clock.")
    players_left = serializers.IntegerField()
    entries = serializers.IntegerField()
    average_stack = serializers.IntegerField(
        allow_null=True, help_text="From the known stacks (online and real-cards tables); null when none is known."
    )
    stacks_known = serializers.IntegerField(
        help_text="Players still in whose stack is known (online and real-cards tables)."
    )
    stacks_unknown = serializers.IntegerField(
        help_text="Players still in at physical tables played without the site: stack not known."
    )
    average_note = serializers.CharField()
    chip_leader = ChipLeaderOutput(allow_null=True)
    prize_pool = serializers.IntegerField()
    payouts = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Credits for 1st, 2nd, ...: projected from the pool and the template until the tournament is "
        "complete, then the prizes booked (in place order; shared places and a deal as booked).",
    )
    payouts_booked = serializers.BooleanField(help_text="The prizes are booked (the tournament is complete).")
    payouts_label = serializers.CharField(help_text='"Projected payouts" or "Booked prizes".')
    prizes = PrizeOutput(many=True, help_text="Once booked: who got what, best place first; empty before.")
    server_time = serializers.DateTimeField(help_text="The time the state was computed: the server's clock.")


class TournamentSeatOutput(serializers.Serializer):
    stack = serializers.IntegerField(
        allow_null=True, help_text="Chips now, when the table is played online or on real cards."
    )
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()


class TournamentDrawnSeatOutput(serializers.Serializer):
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField(help_text="registered (still in, or the winner), eliminated")


class TournamentPlaceOutput(serializers.Serializer):
    place = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    eliminated_by = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField()


class TournamentOnlineTableOutput(serializers.Serializer):
    table = serializers.IntegerField(help_text="The tournament table's number.")
    id = serializers.IntegerField(help_text="The online table (`/api/tables/{id}/`).")
    status = serializers.CharField()


class TournamentRealTableOutput(serializers.Serializer):
    table = serializers.IntegerField(help_text="The tournament table's number.")
    id = serializers.IntegerField()
    code = serializers.CharField(help_text="The real-cards table (`/api/tabletop/{code}/`, page `/tabletop/{code}/`).")
    status = serializers.CharField()


class HalcyonSeatOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    credits = serializers.IntegerField(help_text="Credits held at the end of the table's game.")
    out_hand = serializers.IntegerField(allow_null=True, help_text="The hand they went out in; null if never out.")
    place = serializers.IntegerField(help_text="Place at the table (RULES 1.5).")
    advances = serializers.BooleanField(help_text="Goes on to the final table.")


class HalcyonOnlineOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="The online table (`/api/tables/{id}/`, page `/tables/{id}/`).")
    status = serializers.CharField()


class HalcyonTableOutput(serializers.Serializer):
    table = serializers.IntegerField()
    recorded = serializers.BooleanField(help_text="The table's game is recorded into the round.")
    source = serializers.CharField(
        allow_null=True,
        help_text="online, real_cards, replay or entered (credits and out hands), once recorded.",
    )
    online = HalcyonOnlineOutput(allow_null=True, help_text="The online table that plays (or played) it.")
    real_cards = serializers.CharField(
        allow_null=True, help_text="The code of the real-cards table that plays (or played) it."
    )
    results = HalcyonSeatOutput(many=True)


class HalcyonRoundOutput(serializers.Serializer):
    round = serializers.IntegerField()
    final = serializers.BooleanField(help_text="One table: it decides the places.")
    tables = HalcyonTableOutput(many=True)


class OnlineMoveOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    from_table = serializers.IntegerField()
    to_table = serializers.IntegerField()


class OnlineMoveDoneOutput(OnlineMoveOutput):
    stack = serializers.IntegerField(required=False, help_text="The chips the player brought.")
    dropped = serializers.CharField(
        allow_null=True, help_text="Why a waiting move was dropped at the hand break (null: made)."
    )


class OnlineMoveWaitingOutput(OnlineMoveOutput):
    id = serializers.IntegerField(help_text="Cancel it with the action `cancel_online_move` and `move`.")
    status = serializers.ChoiceField(
        choices=["waiting", "on_the_way"],
        help_text="waiting: for the hand at the player's table to end (cancellable); on_the_way: the player "
        "left it and joins the new table at its next hand break.",
    )


class OnlineMovesOutput(serializers.Serializer):
    to_make = OnlineMoveOutput(many=True)
    waiting = OnlineMoveWaitingOutput(many=True)
    done = OnlineMoveDoneOutput(many=True)


class TournamentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.IntegerField()
    format = serializers.CharField()
    status = serializers.CharField()
    starting_stack = serializers.IntegerField()
    seats_per_table = serializers.IntegerField()
    cap = serializers.IntegerField(allow_null=True)
    rebuy_at_or_below = serializers.IntegerField(
        help_text="Re-buy tournaments: a player may re-buy while their stack is at or below this (0: out of chips)."
    )
    seed_hash = serializers.CharField(allow_null=True, help_text="SHA-256 of the draw seed, published before it.")
    seed = serializers.CharField(allow_null=True, help_text="The draw seed, revealed after the draw only.")
    clock = ClockOutput()
    seats = TournamentSeatOutput(many=True, help_text="Where the players still in sit now.")
    drawn = TournamentDrawnSeatOutput(
        many=True,
        help_text="Where the draw seated each player (a late registrant: their first seat), kept after they go out "
        "and after the tournament is complete, when `seats` is empty; table then seat order.",
    )
    places = TournamentPlaceOutput(many=True)
    waiting = serializers.ListField(child=serializers.IntegerField())
    online_tables = TournamentOnlineTableOutput(many=True, help_text="The tables played online now.")
    real_cards_tables = TournamentRealTableOutput(many=True, help_text="The tables played on real cards now.")
    online_moves = OnlineMovesOutput(help_text="Balancing moves between online tables: to make, and made.")
    halcyon_rounds = HalcyonRoundOutput(many=True, help_text="Halcyon: each round's tables and results.")
    rounding_rule = serializers.CharField()


class TournamentEntryInput(StrictInput):
    action = serializers.ChoiceField(
        choices=["register", "unregister", "rebuy"],
        help_text="rebuy: out of chips (or at or below the tournament's `rebuy_at_or_below`) at an online table "
        "during the re-buy period; the chips join your stack at the table's next hand break (asked twice, one "
        "re-buy).",
    )


class HalcyonEnteredSeatInput(StrictInput):
    player = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    credits = serializers.IntegerField(min_value=0, max_value=10**12, help_text="Credits held at the end.")
    out_hand = serializers.IntegerField(
        min_value=0, max_value=10_000, allow_null=True, required=False, help_text="The hand they went out in."
    )


class TournamentActionInput(StrictInput):
    action = serializers.ChoiceField(choices=actions.ACTIONS)
    player = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    eliminated_by = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1, allow_null=True)
    name = serializers.CharField(required=False, max_length=80)
    template = serializers.CharField(required=False, max_length=32)
    shares = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=10_000), required=False)
    method = serializers.CharField(required=False, max_length=16)
    table = serializers.IntegerField(required=False, min_value=1, max_value=10_000)
    move = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1, help_text="A waiting move.")
    stack = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=10**9,
        help_text="rebuy at a physical table: the chips the player has there now (an online table knows them); "
        "a re-buy needs them at or below the tournament's `rebuy_at_or_below`.",
    )
    has_dice = serializers.BooleanField(
        required=False, help_text="open_real_cards: the table has its own dice (default true; false: the site rolls)."
    )
    replay = serializers.JSONField(required=False, help_text=f"Halcyon: the table's game, {FORMATS_IN_WORDS}.")
    results = HalcyonEnteredSeatInput(
        many=True,
        required=False,
        help_text="halcyon_enter: each player seated at the table with their final credits and the hand they went "
        "out in (null if never out).",
    )
    stacks = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=10**12), required=False, help_text="player id -> chips"
    )


class TournamentMessageOutput(serializers.Serializer):
    detail = serializers.CharField()


def _visible(request: Request, pk: int):
    return get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)


def _detail(tournament) -> dict[str, Any]:
    rows = selectors.field_rows(tournament)
    seed = selectors.public_seed(tournament)
    stacks = selectors.player_stacks(tournament)
    return {
        "id": tournament.pk,
        "event": tournament.event_id,
        "format": tournament.format,
        "status": tournament.status,
        "starting_stack": tournament.starting_stack,
        "seats_per_table": tournament.seats_per_table,
        "cap": tournament.cap,
        "rebuy_at_or_below": tournament.rebuy_at_or_below,
        "seed_hash": seed["hash"],
        "seed": seed["seed"],
        "clock": selectors.clock_summary(tournament, stacks=stacks),
        "seats": [
            {
                "table": r.table_number,
                "seat": r.seat_number,
                "player": r.player_id,
                "name": r.player.display_name,
                "stack": stacks.get(r.player_id),
            }
            for table in selectors.tables(rows)
            for r in table["seats"]
        ],
        "drawn": [
            {
                "table": r.drawn_table,
                "seat": r.drawn_seat,
                "player": r.player_id,
                "name": r.player.display_name,
                "status": r.status,
            }
            for table in selectors.drawn_tables(rows)
            for r in table["seats"]
        ],
        "places": [
            {
                "place": r.place,
                "player": r.player_id,
                "name": r.player.display_name,
                "eliminated_by": r.eliminated_by_id,
                "prize": r.prize,
            }
            for r in sorted((r for r in rows if r.place), key=lambda r: r.place)
        ],
        "waiting": [r.player_id for r in rows if r.status == RegistrationStatus.WAITING],
        "online_tables": [
            {"table": number, **online} for number, online in sorted(selectors.online_tables(tournament).items())
        ],
        "real_cards_tables": [
            {"table": number, **real} for number, real in sorted(selectors.realcards_tables(tournament).items())
        ],
        "online_moves": selectors.online_moves(tournament, rows),
        "halcyon_rounds": selectors.halcyon_rounds(tournament, rows),
        "rounding_rule": selectors.rounding_rule(),
    }


class TournamentClockView(APIView):
    """The clock as the projector page shows it, worked out on the server when asked: the level in play and the
    next, the seconds left and until the next break, whether it is paused, players left and entries, the average
    stack and the chip leader where stacks are known, the prize pool and the payouts (projected, then as booked).
    Anyone who may see the league may read it; compare `server_time` with your own clock to count down."""

    permission_classes = [AllowAny]  # visibility follows the league: members-only leagues stay 404 to outsiders

    @extend_schema(responses=ClockOutput, summary="A tournament's clock", operation_id="tournaments_clock_retrieve")
    def get(self, request: Request, pk: int) -> Response:
        tournament = _visible(request, pk)
        return Response(ClockOutput(selectors.clock_summary(tournament, now=timezone.now())).data)


class TournamentDetailView(APIView):
    """The tournament as its public page shows it: format, status and stacks, the clock, where the players still in
    sit and where the draw seated everyone, the places of those out, its online and real-cards tables, balancing
    moves, and the draw seed's hash (the seed itself once the draw is made). Anyone who may see the league may read
    it; a members-only league's tournament is a 404 to others."""

    permission_classes = [AllowAny]

    @extend_schema(responses=TournamentOutput, summary="A tournament", operation_id="tournaments_retrieve")
    def get(self, request: Request, pk: int) -> Response:
        return Response(TournamentOutput(_detail(_visible(request, pk))).data)


class TournamentEntryView(APIView):
    """Register yourself for the tournament, unregister, or re-buy at your online table when out of chips (or at or
    below `rebuy_at_or_below`) in the re-buy period; answers the tournament as it then stands. For signed-in members
    of the league with a player (else 403, saying to join the league); registration closed or already registered
    is a 409."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=TournamentEntryInput,
        responses={200: TournamentOutput},
        summary="Register, unregister or re-buy yourself",
        operation_id="tournaments_entry_create",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = _visible(request, pk)
        data = validated(TournamentEntryInput, request.data)
        player = league_services.player_for_user(user=request.user)
        if data["action"] == "rebuy":
            services.tournament_rebuy(actor=request.user, tournament=tournament, player=player, kind="rebuy")
        elif data["action"] == "register":
            services.tournament_register(actor=request.user, tournament=tournament, player=player)
        else:
            services.tournament_unregister(actor=request.user, tournament=tournament, player=player)
        tournament.refresh_from_db()
        return Response(TournamentOutput(_detail(tournament)).data)


class TournamentActionView(APIView):
    """Runs one of the control room's actions (the league's organisers and site admins only, asked before the input
    is read: anyone else gets 403): register or eliminate a player, re-buys and add-ons, publish the seed and draw,
    start, pause and move the clock, balance the tables, payouts and a deal, complete or call off, and the rest
    `action` lists. Answers a sentence saying what was done; a refusal says what is wrong (400) or clashes with
    the tournament as it stands (409)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=TournamentActionInput,
        responses={200: TournamentMessageOutput},
        summary="Run a control-room action",
        operation_id="tournaments_actions_create",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = _visible(request, pk)
        if not can_manage_event(request.user, tournament.event):  # who may, before the input is read
            raise PermissionDenied(f"Only the organisers of {tournament.event.season.league} may run this tournament.")
        # The API's one error shape (`detail`, `code`, `extra.fields`), as every `validated` input answers.
        values = validated(TournamentActionInput, request.data)
        action = values.pop("action")
        if action in ("register", "unregister", "rebuy", "addon", "reentry", "eliminate") and "player" not in values:
            raise ApplicationError(f"The action {action} needs a player (an id).", extra={"field": "player"})
        detail = actions.run_action(actor=request.user, tournament=tournament, action=action, data=values)
        return Response(TournamentMessageOutput({"detail": detail}).data)
