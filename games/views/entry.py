"""Organiser pages of events and games: tables, start and finish, manual result entry (with a dry run of
an uploaded replay), corrections and a game's audit trail.

Every write is the API's service (`games.services`, `league.services`); who may do it is asked of
`league.permissions` through the league's organiser pages' helpers.
"""

from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.db import transaction
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.errors import ApplicationError
from games import forms, hooks, pages, selectors, services
from games.models import Game, ResultCorrection, Seat
from league import services as league_services
from league.forms import show_error
from league.models import AuditEntry, Event, EventKind, EventStatus, LedgerEntry, LedgerKind, Player
from league.views.manage import form_saved, managed_event, managed_league, manager_required, visible_or_404

SUBMISSION_SECONDS = 6 * 3600


def _first_submission(request: HttpRequest, what: str) -> tuple[bool, str]:
    """Whether this POST is the first of its form (a hidden value per form shown); a repeat (a double click,
    a resent page) must not record the same result twice. The cache's atomic add decides between racing POSTs."""
    token = (request.POST.get("submission") or "")[:64]
    if not token:  # a form from before this guard, or a script: nothing to compare with
        return True, ""
    key = f"manage:{what}:{request.user.pk}:{token}"
    return cache.add(key, "pending", SUBMISSION_SECONDS), key


def _repeat(request: HttpRequest, form, key: str) -> HttpResponse | None:
    """The answer to a repeated POST: the game the first one saved, or a note that it is still being saved."""
    done = cache.get(key)
    if isinstance(done, int):
        messages.info(request, "This result was saved already; here it is.")
        return redirect("manage-game", pk=done)
    form.add_error(None, "This form is being saved already; look at the event's games before sending it again.")
    return None


class DryRun(Exception):
    """Raised inside the dry run's transaction so that everything the service wrote is rolled back."""


# Events: status, tables, games


def _event_page(
    request: HttpRequest,
    event: Event,
    *,
    table_form=None,
    adjustment_form=None,
    status_error: str = "",
    status: int = 200,
) -> HttpResponse:
    games = (
        Game.objects.filter(event=event)
        .select_related("table")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("place", "number")))
        .defer("replay_document", "replay_result", "hands", "options")
        .order_by("round", "played_at", "id")
    )
    # Every table of the event, as its public page lists them (results tables, online and real-cards tables, a
    # tournament's seated tables): one source, `games.pages.event_tables`.
    tables = pages.event_tables(event=event)["tables"]
    results_tables = [row for row in tables if row["kind"] == "table"]
    context = {
        "event": event,
        "league": event.season.league,
        # A tournament not complete finishes its event when it completes: no Finish button meanwhile.
        "finish_refusal": hooks.tournament_finish_refusal(event_id=event.pk)
        if event.kind == EventKind.TOURNAMENT and event.status != EventStatus.FINISHED
        else None,
        # Tables whose game is not over: the Finish button waits for them and says so.
        "tables_in_play": selectors.unfinished_tables(event.pk) if event.status != EventStatus.FINISHED else [],
        # Run as a tournament: no Start or Reopen by hand (the tournament starts and finishes it).
        "start_refusal": hooks.tournament_status_refusal(event_id=event.pk, status=EventStatus.RUNNING)
        if event.kind == EventKind.TOURNAMENT
        else None,
        "games": games,
        "tables": tables,
        "table_form": table_form or forms.TableForm(initial={"number": len(results_tables) + 1}),
        "results": event.results.select_related("player").order_by("place", "player__display_name"),
        "statuses": EventStatus,
        "status_error": status_error,
        "adjustments": LedgerEntry.objects.filter(event=event, kind=LedgerKind.ADJUSTMENT)
        .select_related("player", "author")
        .order_by("id"),
        "adjustment_form": adjustment_form or forms.AdjustmentForm(players=forms.member_choices(event)),
    }
    return render(request, "manage/event.html", context, status=status)


@require_GET
@manager_required
def event_manage(request: HttpRequest, pk: int) -> HttpResponse:
    """An event's organiser page: status with start and finish, tables, games and results."""
    return _event_page(request, managed_event(request, pk))


@require_POST
@manager_required
def event_status(request: HttpRequest, pk: int) -> HttpResponse:
    """Start, finish or reopen an event; finishing it puts its results into the standings."""
    event = managed_event(request, pk)
    try:
        event = league_services.event_update(actor=request.user, event=event, status=request.POST.get("status", ""))
    except ApplicationError as exc:
        return _event_page(request, event, status_error=exc.message, status=exc.status_code)
    done = {EventStatus.RUNNING: "is under way", EventStatus.FINISHED: "is finished: the standings are updated"}
    messages.success(request, f"{event.name} {done.get(event.status, 'is planned')}.")
    return redirect("manage-event", pk=event.pk)


@require_POST
@manager_required
def table_add(request: HttpRequest, pk: int) -> HttpResponse:
    event = managed_event(request, pk)
    form = forms.TableForm(request.POST)
    table = form_saved(
        request,
        form,
        lambda: services.table_create(actor=request.user, event=event, **form.cleaned_data),
        field="number",
    )
    if table is not None:
        messages.success(request, f"{table.name} is added.")
        return redirect(reverse("manage-event", kwargs={"pk": event.pk}) + "#tables")
    return _event_page(request, event, table_form=form, status=400)


@require_POST
@manager_required
def adjustment_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Add or take credits from a player at this event, with a reason (the ledger keeps who and why)."""
    event = managed_event(request, pk)
    form = forms.AdjustmentForm(request.POST, players=forms.member_choices(event))

    def adjust() -> LedgerEntry:
        player = Player.objects.get(pk=form.cleaned_data["player"])
        amount, reason = form.cleaned_data["amount"], form.cleaned_data["reason"]
        return league_services.ledger_adjust(
            actor=request.user, event=event, player=player, amount=amount, reason=reason
        )

    entry = form_saved(request, form, adjust)
    if entry is not None:
        messages.success(request, f"{entry.player.display_name}'s credits are adjusted by {entry.amount:+,}.")
        return redirect(reverse("manage-event", kwargs={"pk": event.pk}) + "#adjustments")
    return _event_page(request, event, adjustment_form=form, status=400)


# Manual result entry


def _entry_forms(request: HttpRequest, event: Event) -> tuple[forms.ResultForm, forms.BaseSeatFormSet]:
    players = forms.member_choices(event)
    if request.method == "POST":
        form = forms.ResultForm(request.POST, request.FILES, event=event)
        seats = forms.SeatFormSet(request.POST, players=players, prefix="seat")
    else:
        initial = [forms.new_seat_initial(event)] * forms.MAX_SEATS
        form = forms.ResultForm(event=event)
        seats = forms.SeatFormSet(players=players, prefix="seat", initial=initial)
    return form, seats


def _record(request: HttpRequest, event: Event, form, seats) -> Game | None:
    """Record the result through the service; its refusal goes beside the seats (or the replay)."""
    if not (form.is_valid() and seats.is_valid()):
        return None
    try:
        return services.result_record(
            actor=request.user, event=event, **form.service_fields(seats.service_seats(form.cleaned_data["mode"]))
        )
    except ApplicationError as exc:
        show_error(form, exc)
        return None


def _entry_context(event: Event, form, seats) -> dict[str, Any]:
    policy = league_services.effective_buy_in_policy(event)
    return {"event": event, "league": event.season.league, "form": form, "seats": seats, "policy": policy}


@require_http_methods(["GET", "POST"])
@manager_required
def result_entry(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a game played at a table: players, buy-ins and re-buys, then final credits, a finishing
    order or a replay file; the page keeps the credits balance as you type."""
    event = managed_event(request, pk)
    form, seats = _entry_forms(request, event)
    if request.method == "POST":
        first, key = _first_submission(request, "result-entry")
        if not first:
            repeat = _repeat(request, form, key)
            if repeat is not None:
                return repeat
        else:
            game = _record(request, event, form, seats)
            if game is not None:
                if key:
                    cache.set(key, game.pk, SUBMISSION_SECONDS)
                messages.success(request, "The result is recorded.")
                return redirect("manage-game", pk=game.pk)
            if key:
                cache.delete(key)  # refused: the same form may be sent again once put right
    status = 400 if form.is_bound else 200
    return render(request, "manage/result_entry.html", _entry_context(event, form, seats), status=status)


@require_POST
@manager_required
def replay_check(request: HttpRequest, pk: int) -> HttpResponse:
    """The engine's verdict on an uploaded replay with the chosen players, before saving: the same service
    runs inside a transaction that is then rolled back, so nothing is written."""
    event = managed_event(request, pk)
    form, seats = _entry_forms(request, event)
    context: dict[str, Any] = {}
    if not (form.is_valid() and seats.is_valid()):
        context["errors"] = [e for errors in form.errors.values() for e in errors] or ["Check the players' lines."]
    else:
        fields = form.service_fields(seats.service_seats("replay"))
        try:
            with transaction.atomic():
                game = services.result_record(actor=request.user, event=event, **fields)
                context["seats"] = list(game.seats.select_related("player").order_by("place", "number"))
                context["hands"] = len(game.hands or [])
                raise DryRun
        except DryRun:
            pass
        except ApplicationError as exc:
            context["errors"] = [exc.message]
    return render(request, "manage/_replay_verdict.html", context)


# Games: page, corrections, audit trail


def _game(request: HttpRequest, pk: int) -> Game:
    games = Game.objects.select_related("event__season__league", "table").defer("replay_document")
    game = visible_or_404(request, games, "event__season__league", pk=pk)  # hidden and missing alike
    managed_league(request, game.event.season.league)
    return game


def audit_trail(game: Game) -> dict[str, Any]:
    """Who recorded and corrected a game, when and why, with each correction's result before and after."""
    corrections = list(ResultCorrection.objects.filter(game=game).select_related("author").order_by("id"))
    entries = list(
        AuditEntry.objects.filter(object_type=Game._meta.label, object_id=str(game.pk))
        .select_related("actor")
        .order_by("id")
    )
    player_ids = {line["player"] for c in corrections for line in [*c.before, *c.after] if isinstance(line, dict)} | {
        line["player"] for e in entries for line in e.data.get("seats", []) if isinstance(line, dict)
    }
    names = dict(Player.objects.filter(pk__in=player_ids).values_list("pk", "display_name"))

    def lines(result: list[dict[str, Any]]) -> list[dict[str, Any]]:
        shown = [{**line, "name": names.get(line.get("player"), f"player {line.get('player')}")} for line in result]
        return sorted(shown, key=lambda line: (line.get("place") or 99, line["name"]))

    return {
        "entries": [
            {"entry": e, "seats": lines(e.data.get("seats", [])), "reason": e.data.get("reason", "")} for e in entries
        ],
        "corrections": [{"correction": c, "before": lines(c.before), "after": lines(c.after)} for c in corrections],
    }


@require_GET
@manager_required
def game_manage(request: HttpRequest, pk: int) -> HttpResponse:
    """A recorded game for its organisers: seats and result, how to correct it, and its audit trail."""
    game = _game(request, pk)
    seats = Seat.objects.filter(game=game).select_related("player").order_by("place", "number")
    context = {"game": game, "event": game.event, "league": game.event.season.league, "seats": seats}
    context.update(audit_trail(game))
    return render(request, "manage/game.html", context)


@require_http_methods(["GET", "POST"])
@manager_required
def result_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a recorded result with a reason: the ledger books reversals, never edits."""
    game = _game(request, pk)
    current = list(Seat.objects.filter(game=game).select_related("player").order_by("number"))
    # The entry form's lines and its "Add a player": a forgotten player is added as on a new result.
    players = forms.correction_choices(game.event, current)
    if request.method == "POST":
        form = forms.CorrectionForm(request.POST)
        seats = forms.SeatFormSet(request.POST, players=players, prefix="seat")
        first, key = _first_submission(request, "result-correct")
        if not first:
            repeat = _repeat(request, form, key)
            if repeat is not None:
                return repeat
        elif form.is_valid() and seats.is_valid():
            try:
                services.result_correct(
                    actor=request.user,
                    game=game,
                    reason=form.cleaned_data["reason"],
                    seats=seats.service_seats(form.cleaned_data["mode"]),
                )
            except ApplicationError as exc:
                show_error(form, exc)
            else:
                if key:
                    cache.set(key, game.pk, SUBMISSION_SECONDS)
                messages.success(request, "The correction is saved; the standings follow it.")
                return redirect("manage-game", pk=game.pk)
        if first and key:
            cache.delete(key)
    else:
        form = forms.CorrectionForm()
        seats = forms.SeatFormSet(players=players, prefix="seat", initial=forms.initial_seats(current, game.event))
    policy = league_services.effective_buy_in_policy(game.event)
    context = {"game": game, "event": game.event, "league": game.event.season.league, "form": form}
    context.update(seats=seats, policy=policy)
    return render(request, "manage/result_correct.html", context, status=400 if form.is_bound else 200)
