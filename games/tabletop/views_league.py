"""Pages of league real-cards tables and of every table's hand history: an organiser opens a table at an event,
the host seats a league player who has no phone or books a refused result again, and anyone with the table's code
steps through its hands, downloads them as a `sabacc-realcards/1` document or checks the site's rolls (its seeds).
The same services as the API."""

import json

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from config.errors import ApplicationError
from config.inputs import parse_whole_number
from games.forms import rules_choice
from games.tabletop import history, seeds, services
from games.tabletop.selectors import landing_of
from games.tabletop.state import load_game
from games.tabletop.views import _answer, _table_or_404
from league.selectors import event_list


def _refused(request: HttpRequest, exc: ApplicationError, back: str) -> HttpResponse:
    """A refusal as a page: what is wrong and what is allowed, with its status (400, 403 or 409)."""
    return render(request, "tabletop/refused.html", {"message": exc.message, "back": back}, status=exc.status_code)


@require_POST
def tabletop_league_open(request: HttpRequest, pk: int) -> HttpResponse:
    """The event manage page's "Real-cards table" form (organisers of the event's league only)."""
    event = event_list(user=request.user).filter(pk=pk).first()
    if event is None:  # a members-only league's event is not named to someone who cannot see it
        raise Http404("No event has this number (or it belongs to a league you cannot see).")
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("event-detail", args=[pk]), reverse("account_login"))
    variant, preset = rules_choice(request.POST)
    try:
        table = services.realtable_open_league(
            actor=request.user,
            event=event,
            variant=variant or None,
            preset=preset or None,
            has_dice=request.POST.get("dice", "yes") != "no",
            host_plays=request.POST.get("host_plays") == "yes",
        )
    except ApplicationError as exc:
        return _refused(request, exc, reverse("event-detail", args=[pk]))
    return redirect("tabletop-table", code=table.code)


@require_POST
def tabletop_seat_player(request: HttpRequest, code: str) -> HttpResponse:
    """The host seats one of the league's players who has no phone."""
    table = _table_or_404(code)
    try:
        raw = request.POST.get("player") or ""
        player = parse_whole_number(raw, "The player", field="player") if raw else None
        services.realseat_add(actor=request.user, table=table, player=player)
    except ApplicationError as exc:
        return _answer(request, table, exc)
    return _answer(request, table, None)


@require_POST
def tabletop_land(request: HttpRequest, code: str) -> HttpResponse:
    """The host books a finished league table's result again, once what the league refused is put right."""
    table = _table_or_404(code)
    try:
        services.realtable_land(actor=request.user, table=table)
    except ApplicationError as exc:
        return _answer(request, table, exc)
    return _answer(request, table, None)


def tabletop_history(request: HttpRequest, code: str) -> HttpResponse:
    """The table's hands, one at a time (`?hand=N`): its steps, the dice, the hands shown, the pots and why."""
    table = _table_or_404(code)
    data = history.table_history(table)
    hand, previous, following = history.pick_hand(data, request.GET.get("hand"))
    context = {
        "table": table,
        "history": data,
        "hand": hand,
        "previous": previous,
        "following": following,
        "landing": landing_of(table),
    }
    return render(request, "tabletop/history.html", context)


def tabletop_history_download(request: HttpRequest, code: str) -> HttpResponse:
    """The table as a `sabacc-realcards/1` document (`manage.py replay --verify` re-runs it)."""
    table = _table_or_404(code)
    why = history.nothing_to_download(table)
    if why:  # the pages offer no link then; a link kept from before, or typed, gets a page saying why
        return render(
            request,
            "tabletop/refused.html",
            {"message": why, "back": reverse("tabletop-table", args=[code])},
            status=409,
        )
    document = history.table_document(table)
    response = HttpResponse(json.dumps(document, indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="realcards-{table.code}.json"'
    return response


def tabletop_seeds(request: HttpRequest, code: str) -> HttpResponse:
    """The site's fair rolls: each hand's commitment, and once the table is finished each hand's seed with the
    engine's check (the page's script hashes each seed in the browser too, as the online tables' seeds page)."""
    table = _table_or_404(code)
    game = load_game(table) if table.setup is not None else None
    return render(request, "tabletop/seeds.html", {"table": table, "report": seeds.seed_report(table, game)})
