"""Pages of online play: the lobby, the table, its live stream and the forms behind its buttons.

The table is rendered on the server for its viewer (`templates/tables/_table.html`) from the same
`table_state` the API serves; `static/js/table.js` swaps in each new rendering the event stream (or,
failing that, polling) brings, counts the clock down, and posts decisions. Without JavaScript the
buttons are plain forms.
"""

import uuid
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.handlers.asgi import ASGIRequest
from django.db.models import Count, Max
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.defaultfilters import floatformat
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from config.errors import ApplicationError
from config.inputs import parse_whole_number, whole_number_or
from games.engine.bots import BOTS
from games.engine.options import variant_presets
from games.engine.variant import get_variant
from games.forms import rules_choice
from games.history import reveal_notes, shown_title
from games.online import hands, my_games, renders, selectors, services, stream, table_rows
from games.online.models import MAX_SEATS, MAX_TURN_SECONDS, MIN_SEATS, MIN_TURN_SECONDS, OnlineTable
from games.online.permissions import can_open_table, can_watch_table, invite_matches
from games.online.services import casual
from games.tabletop.selectors import my_real_tables
from games.views.pages import history_step
from games.words import card
from league.chips import stack_as_chips
from league.models import Denomination, Event, EventStatus
from league.pages import rules_name
from league.selectors import league_list, user_league_roles, user_player_id


def _table_or_404(request: HttpRequest, pk: int) -> OnlineTable:
    """The table by its key, with its event, season and league (not its state: `selectors.table_version` reads it
    once per version), when the user may watch it. `can_watch_table` is the same rule as `table_list`'s filter
    (public leagues, the user's own, all for site admins), asked of the user's roles already read, so the row is
    read by its key alone: PostgreSQL plans that in a fraction of the time of the filtered list. A casual game
    is seen before it starts with its invite token (`_invite`)."""
    table = table_rows.table_row(pk, lambda: _row_without_state(pk))
    if table is None or not can_watch_table(request.user, table, _invite(request, pk)):
        raise Http404("No such table.")
    return table


# The session's invite tokens, by table: a share link opened once (`?invite=`) keeps working on the table's own
# addresses (its stream, its buttons) and through signing in or up, and leaves the address bar at once.
INVITES = "casual_invites"


def _invite(request: HttpRequest, pk: int) -> str | None:
    """The invite token this request gives for table `pk`: `?invite=` or the `invite` field, else the one the
    session keeps from the share link."""
    given = request.GET.get("invite") or (request.POST.get("invite") if request.method == "POST" else None)
    return given or request.session.get(INVITES, {}).get(str(pk))


def _remember_invite(request: HttpRequest, table: OnlineTable) -> None:
    kept = request.session.get(INVITES, {})
    if kept.get(str(table.pk)) != table.invite:
        request.session[INVITES] = {**kept, str(table.pk): table.invite}


def _invited_page(request: HttpRequest, table: OnlineTable) -> HttpResponse:
    """A visitor with a casual game's right invite token who cannot see the table: signed out, whose game it is and
    how to get in (signing in or up comes back to the table, the token kept in the session); signed in after it
    started, that it takes no more seats and how to play anyway."""
    here = reverse("online-table", args=[table.pk])
    host = table.created_by.get_username() if table.created_by_id else None
    seated = table.seats.filter(left=False).count()
    return render(
        request,
        "tables/invited.html",
        {
            "table": table,
            "host": host,
            "seated": seated,
            "rules": rules_name(table.variant, table.preset),
            "sign_in": f"{reverse('account_login')}?{urlencode({'next': here})}",
            "sign_up": f"{reverse('account_signup')}?{urlencode({'next': here})}",
        },
    )


def _row_without_state(pk: int) -> OnlineTable | None:
    return (
        OnlineTable.objects.select_related("event__season__league")
        .defer("state", "history", "results")
        .filter(pk=pk)
        .first()
    )


def _fresh(pk: int) -> OnlineTable:
    return OnlineTable.objects.select_related("event__season__league").get(pk=pk)


# ----- presenting a state ----------------------------------------------------------------------------


SHARED_VERBS = frozenset(("select", "check", "call", "bet", "raise", "fold", "allin"))


def pot_reason(pot: dict, showdown: dict, variant: str = "coruscant_shift") -> str:
    """Why the pot went where it did (RULES 1.3): a selection beats none, then the smaller distance to the
    target, then more cards in the target suit; what is still tied is shared or drawn for."""
    contenders = {name: showdown[name] for name in pot.get("eligible", []) if name in showdown}
    winners = [name for name in pot.get("winners", []) if name in contenders]
    if len(contenders) <= 1 or not winners:
        return "everyone else folded"
    if variant != "coruscant_shift":  # ranked by the variant's hand hierarchy, not by a target
        return "best hand, shared" if len(winners) > 1 else "best hand"

    def key(row: dict) -> tuple:
        return (bool(row.get("cards")), -row.get("distance", 0), row.get("suit_count", 0))

    best = key(contenders[winners[0]])
    others = [key(row) for name, row in contenders.items() if name not in winners]
    if pot.get("draws"):
        return "tied on distance and suit; a draw from the deck broke the tie"
    if len(winners) > 1 and not others:
        return "tied on distance and suit: shared"
    runner_up = max(others) if others else best
    if len(winners) > 1:
        return "tied on distance and suit: shared"
    if not runner_up[0]:
        return "the only selection shown (an empty selection cannot win)"
    if runner_up[1] == best[1]:
        return f"closest to the target, and {best[2]} in the target suit breaks the tie on distance"
    return "closest to the target"


def present(state: dict, denominations: list | None = None) -> dict:
    """The template's context: the state plus what is easier computed here than in a template. Stacks are
    shown in the chips of the league's (or event's) chip set, `denominations`, when it has one: the chips the
    admin and the league pages name, not the engine's default set."""
    view = state["view"] or {}
    hand = view.get("hand") or {}
    legal = view.get("legal") or {"verbs": []}
    names = {p["seat"]: p["name"] for p in view.get("players", [])}
    waiting = set(view.get("waiting_for", []))
    seats_by_engine = {s["engine_seat"]: s for s in state["seats"] if s["engine_seat"] is not None}
    players = []
    for row in view.get("players", []):
        seat = seats_by_engine.get(row["seat"], {})
        chips = row.get("chips") or {}
        players.append(
            {
                **row,
                "chips_text": _stack_text(chips, row.get("stack"), denominations),
                "waiting": row["seat"] in waiting,
                "dealer": hand.get("dealer") == row["seat"],
                "you": seat.get("you", False),
                "bot": seat.get("bot"),
                "away": seat.get("away", False),
            }
        )
    result = hand.get("result")
    pot = sum(p["amount"] for p in (result or hand).get("pots", []))
    reveal = None
    if result:
        # The view is shared between viewers (`selectors.TableVersion`): the reasons go on copies of its pots.
        variant = view.get("variant", "coruscant_shift")
        awarded = [{**p, "why": pot_reason(p, result.get("showdown", {}), variant)} for p in result.get("pots", [])]
        reveal = {
            "showdown": [
                {
                    **row,
                    "name": name,
                    "cards": [card(c, view.get("variant")) for c in row.get("cards", [])],
                    "title": shown_title(row),
                }
                for name, row in result.get("showdown", {}).items()
            ],
            "notes": reveal_notes(result),
            "pots": awarded,
            "folded": result.get("folded", []),
        }
    bet = None
    if "bet" in legal["verbs"]:
        bet = {"verb": "bet", "low": legal["min_bet"], "high": legal["max_bet"]}
    elif "raise" in legal["verbs"]:
        bet = {"verb": "raise", "low": legal["min_raise_to"], "high": legal["max_raise_to"]}
    if bet:
        bet["half_pot"] = min(bet["high"], max(bet["low"], pot // 2))
        bet["pot"] = min(bet["high"], max(bet["low"], pot))
    return {
        **state,
        "hand": hand,
        "legal": legal,
        "players": players,
        "pot": pot,
        "pots": hand.get("pots", []),
        "cards": [card(c, view.get("variant")) for c in view.get("cards", [])],
        "selection": [card(c, view.get("variant")) for c in view.get("selection", [])],
        "waiting_names": [names[s] for s in view.get("waiting_for", []) if s in names],
        "reveal": reveal,
        "bet": bet,
        # The shared form's verbs (selections and betting); the variants' turn forms have their own.
        "shared_verbs": bool(SHARED_VERBS.intersection(legal["verbs"])),
        "target_suit": hand.get("suit"),
        "standings": _standings(state, view.get("standings")),
        "key": uuid.uuid4().hex,  # a fresh idempotency key per rendering: a double-click acts once
        "clock": _clock(state.get("table", {}).get("seconds_left")),
    }


def _standings(state: dict, rows: list[dict] | None) -> list[dict] | None:
    """The game-over list: at a league table bots are listed without a place and the people are numbered among
    themselves, as their booked result is (`finish._places_among_people`: the engine's order with the bots left
    out, ties kept); a casual game keeps the engine's places among every seat."""
    if not rows or not (state.get("table") or {}).get("league"):
        return rows
    bots = {seat["name"] for seat in state.get("seats", []) if seat.get("bot")}
    people = sorted(row["place"] for row in rows if row["player"] not in bots)
    return [
        {**row, "bot": True, "place": None}
        if row["player"] in bots
        else {**row, "bot": False, "place": people.index(row["place"]) + 1}
        for row in rows
    ]


def _clock(seconds_left: float | None) -> str:
    return "" if seconds_left is None else floatformat(seconds_left, 0)


def fragment(request: HttpRequest, table: OnlineTable, *, csrf: str | None = None) -> dict:
    """One rendering of the table for this viewer, as the page, the stream and the polling fallback send it.

    Made once per process for every viewer whose state is the same (`renders`): each spectator of a version, or
    each browser of one player, costs the state's few dictionary lookups and the placeholders filled in, not a
    rendering. The table row given decides the version shown: read it just before. A stream passes the CSRF
    token it took once (`csrf`): a fresh one per message costs more than the rest of the viewer's share."""
    shared = selectors.table_version(table)
    state = selectors.with_share_link(selectors.state_for(shared, user=request.user), request.build_absolute_uri)
    key = renders.state_key(shared.key, state, variant=table.variant)
    kept = renders.shared(key, lambda: _render(state, table))
    seconds_left = state["table"]["seconds_left"]
    return {
        **kept,
        "seconds_left": seconds_left,
        # Our own template's output with our own values put in: as safe as the rendering itself.
        "html": mark_safe(renders.fill(kept["html"], csrf=csrf or get_token(request), clock=_clock(seconds_left))),  # noqa: S308
    }


def _render(state: dict, table: OnlineTable) -> dict:
    """The rendering kept for every viewer of `state`: placeholders where each viewer's own values go."""
    context = {**present(state, table_denominations(table)), "key": renders.KEY, "clock": renders.CLOCK}
    html = render_to_string("tables/_table.html", {"s": context, "variant": table.variant, "csrf_token": renders.CSRF})
    legal = (state["view"] or {}).get("legal") or {"verbs": []}
    return {
        "version": state["table"]["version"],
        "status": state["table"]["status"],
        "verbs": legal["verbs"],
        "html": html,
    }


# ----- pages ---------------------------------------------------------------------------------------------


def _openable_events(user) -> list[Event]:
    events = (
        Event.objects.filter(season__league__in=league_list(user=user))
        .exclude(status=EventStatus.FINISHED)
        .select_related("season__league")
        .order_by("-starts_at")[:100]
    )
    return [e for e in events if can_open_table(user, e.season.league)]


def table_denominations(table: OnlineTable) -> list:
    """The chips of the table's event's chip set, else its league's (one query; none without a set, nor for a
    casual game, which belongs to no league)."""
    event = table.event
    if event is None:
        return []
    chip_set_id = event.chip_set_id or event.season.league.chip_set_id
    return list(Denomination.objects.filter(chip_set_id=chip_set_id)) if chip_set_id else []


def _stack_text(chips: dict, stack: int | None, denominations: list | None) -> str:
    """A seat's stack in chips: nothing when the game plays one-credit chips (the count would repeat the
    stack), else in the league's chip set when it has one, else in the engine's."""
    text = _chips_text(chips.get("chips") or {}, stack)
    return _league_chips_text(denominations, stack or 0) if text and denominations else text


def _league_chips_text(denominations: list, stack: int) -> str:
    """ "2 Gold, 4 Silver, 10 Bronze" in the league's chips; nothing when every chip is worth one credit."""
    shown = stack_as_chips(denominations, max(stack, 0))
    rows = shown["chips"]
    if sum(row["count"] for row in rows) == stack:
        return ""
    text = ", ".join(f"{row['count']} {row['name']}" for row in rows)
    loose = shown["remainder"]
    if not loose:
        return text
    credits = f"{loose:,} credit{'' if loose == 1 else 's'}"
    return f"{text} + {credits}" if text else credits


def _chips_text(counts: dict[str, int], stack: int | None) -> str:
    """ "2 gold, 4 silver, 10 bronze"; nothing when every chip is worth a credit (simple chips), where the
    count would only repeat the stack."""
    if sum(counts.values()) == stack:
        return ""
    return ", ".join(f"{n} {name}" for name, n in counts.items())


def _preset_groups() -> list[dict]:
    """The rules a table may be opened with, by variant: each preset named as the pages name rules
    ("Better Coruscant Shift", "Classic (Universe)"); a table plays its league's variant, so the
    lobby offers only the chosen event's group (the service refuses any other, naming what is allowed)."""
    return [
        {
            "variant": variant,
            "label": variant.replace("_", " ").title(),
            "presets": [(preset, rules_name(variant, preset)) for preset in presets],
        }
        for variant, presets in variant_presets().items()
    ]


def play_now_context() -> dict:
    """The "Play now" form's choices and defaults (home page and lobby)."""
    return {
        "play_presets": _preset_groups(),
        "play_default": f"{casual.DEFAULT_VARIANT}:{variant_presets()[casual.DEFAULT_VARIANT][0]}",
        "play_seats": range(MIN_SEATS, MAX_SEATS + 1),
        "play_default_seats": casual.DEFAULT_SEATS,
        "play_bots": sorted(BOTS),
        "play_default_bot": casual.DEFAULT_BOT,
        "play_turn_seconds": casual.DEFAULT_TURN_SECONDS,
        "play_short_games": casual.SHORT_GAMES,
    }


_REQUIRED = object()


def _setting(post: Any, name: str, what: str, low: int, high: int, default: Any = _REQUIRED) -> Any:
    """A whole-number setting of the Play-now or open-table form, within its range; else a user error that says the
    range ("The turn time in seconds must be a whole number from 5 to 600; got '-5'."). Left empty: `default`, when
    the form has one."""
    text = (post.get(name) or "").strip()
    if not text and default is not _REQUIRED:
        return default
    value = whole_number_or(text, None, signed=True)
    if value is None or not low <= value <= high:
        raise ApplicationError(
            f"{what} must be a whole number from {low} to {high:,}; got {text!r}.", extra={"field": name}
        )
    return value


@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    """Open a casual game ("play now") with the host seated, and go to its table: "Start" deals, bots in the
    empty seats; friends given the link join before that."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("online-lobby"), reverse("account_signup"))
    variant, preset = rules_choice(request.POST)
    try:
        table = services.casual_open(
            actor=request.user,
            variant=variant or casual.DEFAULT_VARIANT,
            preset=preset or None,
            seats=_setting(request.POST, "seats", "Seats", MIN_SEATS, MAX_SEATS, casual.DEFAULT_SEATS),
            bot_kind=request.POST.get("bot") or casual.DEFAULT_BOT,
            turn_seconds=_setting(
                request.POST,
                "turn_seconds",
                "The turn time in seconds",
                MIN_TURN_SECONDS,
                MAX_TURN_SECONDS,
                casual.DEFAULT_TURN_SECONDS,
            ),
            hands=_setting(request.POST, "hands", "The number of hands", 1, casual.MAX_HANDS, None),
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("online-lobby")
    return redirect("online-table", pk=table.pk)


def my_games_page(request: HttpRequest) -> HttpResponse:
    """The signed-in user's games: casual and league apart, each with its result, hands, replay and fair decks."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.path, reverse("account_login"))
    return render(
        request,
        "tables/my_games.html",
        {"games": my_games.my_games(request.user), "real_tables": my_real_tables(request.user)},
    )


def lobby(request: HttpRequest) -> HttpResponse:
    tables = list(selectors.lobby_tables(user=request.user))
    context = {"tables": [selectors.table_summary(t, user=request.user) for t in tables]}
    if getattr(request, "htmx", False):
        return render(request, "tables/_lobby.html", context)
    context.update(
        **play_now_context(),
        events=_openable_events(request.user),
        chosen_event=request.GET.get("event", ""),  # an event page's "Open an online table" link chooses its event
        preset_groups=_preset_groups(),
        seat_range=range(MIN_SEATS, MAX_SEATS + 1),
    )
    return render(request, "tables/lobby.html", context)


@require_POST
def table_open(request: HttpRequest) -> HttpResponse:
    event = next((e for e in _openable_events(request.user) if str(e.pk) == request.POST.get("event")), None)
    try:
        if event is None:
            raise ApplicationError("Choose an event of a league where you may open tables (see the list).")
        table = services.table_open(
            actor=request.user,
            event=event,
            name=request.POST.get("name", ""),
            seats=_setting(request.POST, "seats", "Seats", MIN_SEATS, MAX_SEATS),
            turn_seconds=_setting(
                request.POST, "turn_seconds", "The turn time in seconds", MIN_TURN_SECONDS, MAX_TURN_SECONDS
            ),
            preset=request.POST.get("preset") or None,
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("online-lobby")
    return redirect("online-table", pk=table.pk)


def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The table. A casual game's share link (`?invite=`) is kept in the session and left out of the address bar;
    signed out, the right link shows whose game it is and the way to sign in or up."""
    given = _invite(request, pk)
    if given is not None:
        row = _row_without_state(pk)
        if row is not None and row.is_casual and invite_matches(row, given):
            _remember_invite(request, row)
            # Signed out, or signed in too late (the game started without them): whose game it was and the way on,
            # never a bare "No such table" for a link that was right.
            if not request.user.is_authenticated or not can_watch_table(request.user, row, given):
                return _invited_page(request, row)
    table = _table_or_404(request, pk)
    if "invite" in request.GET:
        return redirect("online-table", pk=pk)
    data = fragment(request, table)
    return render(
        request,
        "tables/table.html",
        {"table": table, "fragment": data, "bots": sorted(BOTS)},
    )


def table_fragment(request: HttpRequest, pk: int) -> JsonResponse:
    """The polling fallback: the table as this viewer sees it now."""
    return JsonResponse(fragment(request, _table_or_404(request, pk)))


def table_events(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    """The live stream of this viewer's table (server-sent events)."""
    table = _table_or_404(request, pk)
    user = request.user
    # Resolve the lazy user, which seats are theirs and the leagues they run here, not inside the stream: a rendering
    # on the event loop may not query (`stream._rendered`), and the access check above may have been answered from
    # the page cache (`PAGE_STAMP_MAX_AGE`, on by default without Redis).
    user_player_id(user)
    user_league_roles(user)
    raw = request.headers.get("Last-Event-ID") or request.GET.get("since") or ""
    since = whole_number_or(raw, None, signed=False)

    def read() -> tuple[int | None, OnlineTable | None]:
        """The table's row now and its version's shared reads (one read, shared by every stream of this table that
        the same change woke), so that each stream's own rendering needs no database (`stream._rendered`)."""
        row = _fresh_or_none(pk)
        if row is not None:
            selectors.table_version(row).read_ahead()
        return (row.version if row is not None else None), row

    csrf = get_token(request)  # one masked token for the stream's life, as for a page's

    def render_now(row: OnlineTable | None) -> dict:
        if row is None:
            return {"version": None, "status": "gone", "html": ""}
        return fragment(request, row, csrf=csrf)

    topic = services.table_topic(table.pk)
    if isinstance(request, ASGIRequest):
        body = stream.async_stream(topic, since, read, render_now)
    else:
        body = stream.sync_stream(topic, since, read, render_now)
    return _event_response(body)


def _fresh_or_none(pk: int) -> OnlineTable | None:
    """The row as a rendering needs it, with its seats (`selectors.fresh_row`: compiled once per process)."""
    return selectors.fresh_row(pk)


def lobby_events(request: HttpRequest) -> StreamingHttpResponse:
    """A message whenever a listed table changes; the page then reloads the list."""
    user = request.user
    user.is_authenticated  # noqa: B018

    def read() -> tuple[str, None]:
        found = selectors.lobby_tables(user=user).aggregate(n=Count("pk"), at=Max("updated_at"))
        return f"{found['n']}-{found['at'].timestamp() if found['at'] else 0}", None

    def render_now(_: None) -> dict:
        return {"changed": True}

    since = request.headers.get("Last-Event-ID") or None
    topic = services.lobby_topic()
    if isinstance(request, ASGIRequest):
        # What the lobby lists depends on who asks (the leagues they see): reads are shared per user only.
        share = user.pk if user.is_authenticated else None
        body = stream.async_stream(topic, since, read, render_now, share=share)
    else:
        body = stream.sync_stream(topic, since, read, render_now)
    return _event_response(body)


def _event_response(body) -> StreamingHttpResponse:
    stream.give_back()
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy such as nginx must pass events on at once
    return response


# ----- the buttons -----------------------------------------------------------------------------------------


def _answer(request: HttpRequest, pk: int, error: ApplicationError | None) -> HttpResponse:
    """JSON for the page's script (the new rendering, or the error), a redirect for a plain form."""
    wants_json = request.headers.get("Accept", "").startswith("application/json")
    if wants_json:
        payload = fragment(request, _fresh(pk))
        if error is not None:
            payload.update(detail=error.message, code=error.code)
            return JsonResponse(payload, status=error.status_code)
        return JsonResponse(payload)
    if error is not None:
        messages.error(request, error.message)
    return redirect("online-table", pk=pk)


@require_POST
def table_do(request: HttpRequest, pk: int, what: str) -> HttpResponse:
    """join, leave, bots, start, pause, resume and return: one service each."""
    table = _table_or_404(request, pk)
    calls = {
        "join": lambda: services.seat_take(actor=request.user, table=table, invite=_invite(request, pk)),
        "leave": lambda: services.seat_leave(actor=request.user, table=table),
        "bots": lambda: services.table_fill_bots(
            actor=request.user, table=table, kind=request.POST.get("bot") or "sensible"
        ),
        "start": lambda: services.table_start(actor=request.user, table=table),
        "pause": lambda: services.table_pause(actor=request.user, table=table),
        "resume": lambda: services.table_resume(actor=request.user, table=table),
        "return": lambda: services.seat_return(actor=request.user, table=table),
        "close": lambda: services.table_close(actor=request.user, table=table),
        "end": lambda: services.table_end(actor=request.user, table=table),
        "rebuy": lambda: services.seat_rebuy(actor=request.user, table=table),
        "entropy": lambda: services.seat_entropy(actor=request.user, table=table, value=request.POST.get("value", "")),
    }
    if what not in calls:
        raise Http404("No such table operation.")
    if not request.user.is_authenticated:
        return _answer(request, pk, ApplicationError("Log in first."))
    try:
        calls[what]()
    except ApplicationError as exc:
        return _answer(request, pk, exc)
    return _answer(request, pk, None)


@require_POST
def table_act(request: HttpRequest, pk: int) -> HttpResponse:
    """A decision from the table page: verb, cards, amount, the version it was made against and a key."""
    table = _table_or_404(request, pk)
    post = request.POST
    error = None
    try:
        if not request.user.is_authenticated:
            raise ApplicationError("Log in first.")
        amount = post.get("amount")
        services.table_act(
            actor=request.user,
            table=table,
            verb=post.get("verb", ""),
            cards=post.getlist("cards"),
            amount=parse_whole_number(amount, "The amount") if amount else None,
            card=post.get("card") or None,
            source=post.get("source") or None,
            unlock=post.get("unlock") or None,
            lock=post.get("lock") or None,
            call_hand=post.get("call_hand") in ("1", "true", "on"),
            version=parse_whole_number(post.get("version"), "The version"),
            key=post.get("key") or uuid.uuid4().hex,
        )
    except ApplicationError as exc:
        error = exc
    return _answer(request, pk, error)


# ----- hand history and seeds -------------------------------------------------------------------------------


def table_hands(request: HttpRequest, pk: int) -> HttpResponse:
    """Every finished hand of the table, stepped through as the table saw it (`?hand=N&step=K`), while it runs
    and after; the game page's stepper (`games/_history.html`), swapped by htmx."""
    table = _table_or_404(request, pk)
    history = hands.public_table_history(table)
    context = {
        "table": table,
        "history": history,
        "here": request.path,
        "over": hands.is_over(table),
        "replay_later": hands.REPLAY_LATER,
        **history_step(history, request.GET.get("hand"), request.GET.get("step")),
    }
    if getattr(request, "htmx", False) and request.GET.get("hand") is not None and history["hands"]:
        return render(request, "games/_history.html", context)
    return render(request, "tables/hands.html", context)


def _download(payload: dict, filename: str) -> JsonResponse:
    response = JsonResponse(payload, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def table_history_download(request: HttpRequest, pk: int) -> JsonResponse:
    """The public hand history as JSON (`?hand=N` for one hand): what the table saw, any time."""
    table = _table_or_404(request, pk)
    history = hands.public_table_history(table)
    raw = request.GET.get("hand")
    if raw is not None:
        number = whole_number_or(raw, 0)
        if not 1 <= number <= len(history["hands"]):
            return JsonResponse(
                {"detail": f"This table has finished hands 1 to {len(history['hands'])}; there is no hand {raw!r}."},
                status=400,
            )
        history = {**history, "hands": [history["hands"][number - 1]]}
    name = f"table-{pk}-hand-{raw}-history.json" if raw else f"table-{pk}-history.json"
    return _download({"table": pk, "name": table.name, **history}, name)


def table_replay_download(request: HttpRequest, pk: int, hand: int | None = None) -> HttpResponse:
    """The game (or the game up to hand N) as sabacc-replay/2, once it is over and its seeds are revealed."""
    table = _table_or_404(request, pk)
    try:
        document = hands.replay_document(table, upto=hand)
    except ApplicationError as exc:
        return JsonResponse({"detail": exc.message, "code": exc.code}, status=exc.status_code)
    name = f"table-{pk}-to-hand-{hand}.sabacc-replay.json" if hand else f"table-{pk}.sabacc-replay.json"
    return _download(document, name)


def table_seeds(request: HttpRequest, pk: int) -> HttpResponse:
    """Every hand's commitment, and once the game is over its revealed seeds checked by the engine; the page's
    script also hashes each revealed server seed in the browser, so nobody need trust the server's verdict."""
    table = _table_or_404(request, pk)
    variant = get_variant(table.variant)
    recipe = variant.fair_recipe(variant.coerce_options(table.options))  # the by-hand check, from the engine
    return render(request, "tables/seeds.html", {"table": table, "report": hands.seed_report(table), "recipe": recipe})
