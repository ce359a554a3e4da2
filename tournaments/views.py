"""Tournament pages: the public tournament page (with the player's own seat), the projector clock, printable
seat cards, and the organiser's control room and creation form.

Every action calls the same `tournaments.services` function as the API; a refusal is shown on the page beside
the form that sent it (400/409 with nothing written); who may do what is asked of `league.permissions`.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.errors import ApplicationError
from games.online import stream
from league import services as league_services
from league.models import Event, EventKind, Membership, Player
from league.permissions import can_manage_event
from league.views.manage import visible_or_404
from tournaments import actions, selectors, services, structures
from tournaments.models import ClockEvent, Format, Registration, RegistrationStatus, Tournament, TournamentStatus
from tournaments.services.results import TEMPLATE_LABELS

STRUCTURE_CHOICES = {
    "turbo": "Turbo: 10-minute levels",
    "regular": "Regular: 20-minute levels",
    "suggested": "Suggested from a target duration",
    "custom": "Custom (JSON list of levels)",
}


CLOCK_STREAM_SECONDS = 60.0

CREATE_DEFAULTS = {
    "format": Format.FREEZEOUT,
    "structure": "regular",
    "payout_template": "top_3",
    "starting_stack": "450",
    "seats_per_table": "6",
    "late_registration_level": "0",
    "rebuy_at_or_below": "0",
    "advance_per_table": "1",
    "duration": "180",
    "expected_players": "12",
}


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    return get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)


def _managed(request: HttpRequest, pk: int) -> Tournament:
    tournament = _tournament(request, pk)
    if not can_manage_event(request.user, tournament.event):
        raise PermissionDenied(f"Only the organisers of {tournament.event.season.league} may run this tournament.")
    return tournament


def _my_registration(request: HttpRequest, registrations: list[Registration]) -> Registration | None:
    if not request.user.is_authenticated:
        return None
    return next((r for r in registrations if r.player.user_id == request.user.pk), None)


def _page_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    registrations = selectors.field_rows(tournament)
    mine = _my_registration(request, registrations)
    tables = selectors.tables(registrations)
    stacks = selectors.player_stacks(tournament)
    for registration in registrations:
        registration.stack = stacks.get(registration.player_id)
    my_table = next((t for t in tables if mine and t["number"] == mine.table_number), None)
    shown = selectors.field_statuses(tournament, registrations)
    for registration in registrations:
        registration.shown_status = shown[registration.pk]
    return {
        # Registration (and with it re-buys, add-ons, re-entries) open now: the forms are shown only then.
        "registration_open": selectors.registration_open(tournament, timezone.now()),
        "my_rebuy": selectors.my_rebuy(tournament, mine),
        "tournament": tournament,
        "event": tournament.event,
        "league": tournament.event.season.league,
        "clock": selectors.clock_summary(tournament, stacks=stacks),
        "registrations": registrations,
        "waiting": [r for r in registrations if r.status == RegistrationStatus.WAITING],
        "out": sorted((r for r in registrations if r.place), key=lambda r: r.place),
        "tables": tables,
        "drawn_tables": selectors.drawn_tables(registrations),
        "mine": mine,
        "my_table": my_table,
        # A seated player's table played on real cards: they act at their own seat on their phone.
        "my_real": selectors.realcards_tables(tournament).get(mine.table_number)
        if mine and mine.table_number
        else None,
        "table_mates": [seat for seat in my_table["seats"] if seat.pk != mine.pk] if my_table and mine else [],
        "seed": selectors.public_seed(tournament),
        "halcyon_rounds": selectors.halcyon_rounds(tournament, registrations),
        "rounding_rule": selectors.rounding_rule(),
        "can_manage": can_manage_event(request.user, tournament.event),
        "is_member": request.user.is_authenticated
        and Membership.objects.filter(league=tournament.event.season.league, player__user=request.user).exists(),
    }


@require_GET
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The public tournament page: clock, tables, places, payouts; a signed-in player's own seat and table."""
    tournament = _tournament(request, pk)
    return render(request, "tournaments/detail.html", _page_context(request, tournament))


@require_POST
def tournament_entry(request: HttpRequest, pk: int) -> HttpResponse:
    """A player registers or unregisters themselves, or re-buys at their online table when out of chips (the
    same services and checks as the API)."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tournament-detail", args=[pk]))
    tournament = _tournament(request, pk)
    action = request.POST.get("action")
    try:
        if action not in ("register", "unregister", "rebuy"):
            raise ApplicationError("Choose register, unregister or rebuy.", extra={"field": "action"})
        player = league_services.player_for_user(user=request.user)
        if action == "rebuy":
            services.tournament_rebuy(actor=request.user, tournament=tournament, player=player, kind="rebuy")
            messages.success(request, "Re-buy booked: the chips join your stack at your table's next hand break.")
        elif action == "register":
            registration = services.tournament_register(actor=request.user, tournament=tournament, player=player)
            waiting = registration.status == RegistrationStatus.WAITING
            messages.success(request, "You are on the waiting list." if waiting else "You are registered.")
        else:
            services.tournament_unregister(actor=request.user, tournament=tournament, player=player)
            messages.success(request, "You are unregistered; your buy-in is refunded.")
    except ApplicationError as exc:
        context = _page_context(request, tournament)
        context["entry_error"] = exc.message
        return render(request, "tournaments/detail.html", context, status=exc.status_code)
    return redirect("tournament-detail", pk=pk)


@require_GET
def tournament_clock_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The projector clock: large, live (polls the clock API each second; a flash and a tone on a new level)."""
    tournament = _tournament(request, pk)
    return render(
        request,
        "tournaments/clock.html",
        {"tournament": tournament, "clock": selectors.clock_summary(tournament), "event": tournament.event},
    )


@require_GET
def clock_events(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    """The clock's live stream (server-sent events, the project's one live-update mechanism: `games.online.stream`):
    the clock as every screen shows it, sent again whenever the clock is announced, paused, moved or the field
    changes. Pages count the seconds down between messages and fall back to polling the clock API."""
    tournament = _tournament(request, pk)

    def token() -> tuple[str, None]:
        """What the stream compares (a digest of what the clock shows), and nothing for `render_now` to reuse."""
        row = (
            Tournament.objects.filter(pk=pk)
            .values_list("status", "clock_epoch", "level_announced", "clock_pauses", "clock_started_at")
            .first()
        )
        registrations = Registration.objects.filter(tournament_id=pk)
        field = registrations.exclude(status=RegistrationStatus.WAITING).count()
        still_in = registrations.filter(status=RegistrationStatus.REGISTERED).count()
        events = ClockEvent.objects.filter(tournament_id=pk).count()
        return hashlib.sha256(repr((row, field, still_in, events)).encode()).hexdigest()[:16], None

    def render_now(_found: None) -> dict:
        fresh = Tournament.objects.select_related("event").get(pk=pk)
        return json.loads(json.dumps(selectors.clock_summary(fresh), cls=DjangoJSONEncoder))

    since = request.headers.get("Last-Event-ID") or None
    topic = services.clock_topic(tournament.pk)
    # Short streams (the browser reconnects by itself): a closed projector frees its server thread soon.
    seconds = min(CLOCK_STREAM_SECONDS, stream.stream_seconds())
    if isinstance(request, ASGIRequest):
        body = stream.async_stream(topic, since, token, render_now, seconds=seconds)
    else:
        body = stream.sync_stream(topic, since, token, render_now, seconds=seconds)
    stream.give_back()
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


@require_GET
def seat_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """Printable seat cards: one per player still in, with table and seat (public facts)."""
    tournament = _tournament(request, pk)
    cards = [
        r
        for r in selectors.field_rows(tournament)
        if r.status == RegistrationStatus.REGISTERED and r.table_number is not None
    ]
    cards.sort(key=lambda r: (r.table_number, r.seat_number))
    return render(request, "tournaments/seat_cards.html", {"tournament": tournament, "cards": cards})


# ----- organiser ------------------------------------------------------------------------------------------


def _control_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    context = _page_context(request, tournament)
    registrations = context["registrations"]
    league = tournament.event.season.league
    online = selectors.online_tables(tournament)
    real = selectors.realcards_tables(tournament)
    recorded = set(tournament.rounds[-1]) if tournament.format == Format.HALCYON and tournament.rounds else set()
    for table in context["tables"]:
        table["online"] = online.get(table["number"])
        table["real"] = real.get(table["number"])  # played on real cards: the site keeps its chips
        table["recorded"] = str(table["number"]) in recorded  # Halcyon: this round's game is in
        # Halcyon: the form entering a physical table's result by hand (one row per seated player).
        table["entry"] = [
            {"player": seat.player_id, "name": seat.player.display_name, "credits": "", "out_hand": ""}
            for seat in table["seats"]
        ]
        table["total"] = tournament.starting_stack * len(table["seats"])
    registered = {r.player_id for r in registrations}
    names = {r.player_id: r.player.display_name for r in registrations}
    # The booking buttons a row gets: only what the event's buy-in policy and the format allow, while open.
    policy = league_services.effective_buy_in_policy(tournament.event)
    open_now = context["registration_open"]
    addons = open_now and policy is not None and policy.addon_allowed and bool(policy.addon_amount)
    rebuys = open_now and tournament.format == Format.REBUY
    for registration in registrations:
        registration.offer_rebuy = (
            rebuys
            and registration.status != RegistrationStatus.WAITING
            and (selectors.may_rebuy_again(registration, policy))
        )
        registration.offer_addon = (
            addons and registration.status == RegistrationStatus.REGISTERED and (not registration.addons)
        )
        registration.offer_reentry = (
            open_now and tournament.format == Format.REENTRY and registration.status == RegistrationStatus.ELIMINATED
        )
    context.update(
        {
            "members": Player.objects.filter(memberships__league=league)
            .exclude(pk__in=registered)
            .order_by("display_name"),
            "still_in": [r for r in registrations if r.status == RegistrationStatus.REGISTERED],
            "moves": [
                {"move": move, "name": names.get(move.player_id, "")}
                for move in selectors.moves_to_make(tournament, registrations)
            ],
            "online_moves": selectors.online_moves(tournament, registrations),
            "templates": TEMPLATE_LABELS,
            "formats": Format,
            "statuses": TournamentStatus,
            "shares_text": ", ".join(str(s) for s in tournament.payout_shares or []),
            # A Halcyon table keeps its preset's ante for the whole game: no chip is ever raced off.
            "colour_up": []
            if tournament.format == Format.HALCYON
            else services.check_structure(tournament.structure, event=tournament.event),
            "structure_rules": selectors.structure_rules(tournament.event),
            "halcyon_bets": selectors.halcyon_forced_bets() if tournament.format == Format.HALCYON else "",
            "structure_json": json.dumps(tournament.structure),
            "preset_url": reverse("tournament-structure-preset", args=[tournament.event_id]),
            "stack": tournament.starting_stack,
        }
    )
    return context


def _keep_entered(context: dict[str, Any], posted: Any) -> None:
    """A refused Halcyon entry: the table's form shows what the organiser typed, the error beside its field."""
    for table in context["tables"]:
        if str(table["number"]) == posted.get("table", ""):
            beside = False
            for row in table["entry"]:
                row["credits"] = posted.get(f"credits_{row['player']}", "")
                row["out_hand"] = posted.get(f"out_hand_{row['player']}", "")
                for name in ("credits", "out_hand"):
                    if context["error_field"] == f"{name}_{row['player']}":
                        row[f"{name}_error"], beside = context["error"], True
            table["error"] = not beside  # shown above the table's fields when it is about no one field


@require_http_methods(["GET", "POST"])
def control_room(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser's control room: registration, the draw, tables and moves, eliminations, the clock, payouts."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament = _managed(request, pk)
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            messages.success(
                request, actions.run_action(actor=request.user, tournament=tournament, action=action, data=request.POST)
            )
        except ApplicationError as exc:
            tournament.refresh_from_db()
            context = _control_context(request, tournament)
            context.update(
                {
                    "error": exc.message,
                    "error_action": action,
                    "error_field": exc.extra.get("field", ""),
                    "error_code": exc.code,
                }
            )
            if action == "halcyon_enter":
                _keep_entered(context, request.POST)
            return render(request, "tournaments/control_room.html", context, status=exc.status_code)
        return redirect(f"{reverse('tournament-manage', args=[pk])}#{request.POST.get('section', 'clock')}")
    return render(request, "tournaments/control_room.html", _control_context(request, tournament))


def _structure_from_post(request: HttpRequest, event: Event) -> list[dict[str, Any]]:
    choice = request.POST.get("structure", "")
    if choice in ("turbo", "regular"):
        return structures.structure_to_json(structures.PRESETS[choice]())
    if choice == "suggested":
        return services.structure_preset(
            event=event,
            duration_minutes=actions.int_field(request.POST, "duration", "The target duration in minutes"),
            starting_stack=actions.int_field(request.POST, "starting_stack", "The starting stack"),
            players=actions.int_field(request.POST, "expected_players", "The expected number of players"),
        )
    if choice == "custom":
        return actions.structure_field(request.POST)
    raise ApplicationError(f"Choose a structure: {', '.join(STRUCTURE_CHOICES)}.", extra={"field": "structure"})


@require_GET
def structure_preset(request: HttpRequest, pk: int) -> JsonResponse:
    """The structure editor's "fill from a preset": levels for a target duration and starting stack, computed
    by the server in the event's chips and variant (a refusal: 400 with the message)."""
    if not request.user.is_authenticated:
        raise PermissionDenied("Sign in as an organiser.")
    # An event of a league hidden from the user is as missing as one that does not exist (the same 404).
    event = visible_or_404(request, Event.objects.select_related("season__league"), "season__league", pk=pk)
    if not can_manage_event(request.user, event):
        raise PermissionDenied(f"Only the organisers of {event.season.league} may run its tournaments.")
    try:
        levels = services.structure_preset(
            event=event,
            duration_minutes=actions.int_field(request.GET, "duration", "The target duration in minutes"),
            starting_stack=actions.int_field(request.GET, "starting_stack", "The starting stack"),
            players=actions.int_field(request.GET, "players", "The expected number of players")
            if request.GET.get("players")
            else 10,
        )
    except ApplicationError as exc:
        return JsonResponse({"detail": exc.message, "field": exc.extra.get("field")}, status=exc.status_code)
    return JsonResponse({"levels": levels})


@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest, pk: int) -> HttpResponse:
    """Run a tournament event as a tournament: format, structure, stack, seats, cap, late registration, payouts."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    # An event of a league hidden from the user is as missing as one that does not exist (the same 404).
    event = visible_or_404(request, Event.objects.select_related("season__league"), "season__league", pk=pk)
    if not can_manage_event(request.user, event):
        raise PermissionDenied(f"Only the organisers of {event.season.league} may run its tournaments.")
    existing = Tournament.objects.filter(event=event).first()
    if existing is not None:
        return redirect("tournament-manage", pk=existing.pk)
    rules = selectors.structure_rules(event)
    defaults = CREATE_DEFAULTS
    policy = league_services.effective_buy_in_policy(event)
    if policy is not None:  # the stack is the buy-in: start from the one the league set for this event
        defaults = {**defaults, "starting_stack": str(policy.buy_in)}
    initial_levels = ""
    if not rules["has_blinds"]:  # the presets are blinds: start from an ante-only custom structure
        defaults = {**defaults, "structure": "custom", "structure_json": rules["example"]}
    else:
        initial_levels = structures.structure_to_json(structures.PRESETS["regular"]())
        try:
            services.check_structure(initial_levels, event=event)
        except ApplicationError:  # the event's chips cannot pay the regular blinds: suggest levels in its chips
            defaults = {**defaults, "structure": "suggested"}
            initial_levels = services.structure_preset(
                event=event,
                duration_minutes=int(defaults["duration"]),
                starting_stack=int(defaults["starting_stack"]),
                players=int(defaults["expected_players"]),
            )
    context: dict[str, Any] = {
        "event": event,
        "league": event.season.league,
        "formats": Format.choices,
        "structures": STRUCTURE_CHOICES,
        "structure_rules": rules,
        "halcyon_bets": selectors.halcyon_forced_bets(),
        "templates": TEMPLATE_LABELS,
        "values": request.POST if request.method == "POST" else defaults,
        "is_tournament_event": event.kind == EventKind.TOURNAMENT,
        "preset_url": reverse("tournament-structure-preset", args=[event.pk]),
        # The editor's first rows when the JSON field is empty: the regular structure's levels, or levels
        # suggested in the event's chips when those cannot pay the regular blinds.
        "initial_levels": json.dumps(initial_levels) if initial_levels else "",
    }
    if request.method == "POST":
        try:
            cap_text = (request.POST.get("cap") or "").strip()
            tournament = services.tournament_create(
                actor=request.user,
                event=event,
                structure=_structure_from_post(request, event),
                format=request.POST.get("format", ""),
                starting_stack=actions.int_field(request.POST, "starting_stack", "The starting stack"),
                seats_per_table=actions.int_field(request.POST, "seats_per_table", "Seats per table"),
                cap=actions.int_field(request.POST, "cap", "The cap") if cap_text else None,
                late_registration_level=actions.int_field(
                    request.POST, "late_registration_level", "The late registration level"
                ),
                advance_per_table=actions.int_field(request.POST, "advance_per_table", "Players advancing per table"),
                payout_template=request.POST.get("payout_template", ""),
                rebuy_at_or_below=actions.int_field(
                    {"rebuy_at_or_below": request.POST.get("rebuy_at_or_below") or "0"},
                    "rebuy_at_or_below",
                    "The re-buy threshold",
                ),
            )
        except ApplicationError as exc:
            context.update({"error": exc.message, "error_field": exc.extra.get("field")})
            return render(request, "tournaments/create.html", context, status=exc.status_code)
        messages.success(request, "Tournament created: register players, publish the seed hash, then draw.")
        return redirect("tournament-manage", pk=tournament.pk)
    return render(request, "tournaments/create.html", context)
