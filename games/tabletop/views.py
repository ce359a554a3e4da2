"""Pages of real-cards tables (phone first, htmx): open, join by code, the table with its live stream, and the
forms behind its buttons. Each form calls the same service as the API (`services.py`)."""

import functools

import segno
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST

from config.errors import ApplicationError
from config.inputs import parse_whole_number, whole_number_or
from games.engine.options import variant_presets
from games.forms import rules_choice
from games.online import stream
from games.tabletop import handover, services
from games.tabletop.cache import per_version, shown_game
from games.tabletop.models import GROWING, RealTable
from games.tabletop.permissions import is_host, seat_of
from games.tabletop.present import screen_view, table_view
from games.tabletop.selectors import table_version
from games.words import rules_title

SESSION_KEY = "tabletop_guests"  # code -> this browser's guest secret at that table


def guest_token(request: HttpRequest, code: str) -> str:
    return (request.session.get(SESSION_KEY) or {}).get(code, "")


def _remember_guest(request: HttpRequest, code: str, token: str) -> None:
    kept = dict(request.session.get(SESSION_KEY) or {})
    kept[code] = token
    request.session[SESSION_KEY] = kept


def _table_or_404(code: str) -> RealTable:
    table = RealTable.objects.select_related("host").filter(code=services.normal_code(code)).first()
    if table is None:
        raise Http404("No real-cards table has this code.")
    return table


def viewer_data(request: HttpRequest, table: RealTable) -> dict:
    host = is_host(request.user, table)
    mine = seat_of(table, request.user, guest_token(request, table.code))
    return table_view(table, host=host, mine=mine)


@functools.lru_cache(maxsize=256)
def _qr(url: str) -> str:
    """A link's QR code as inline SVG: about 8 ms of CPU to make, so each is made once per process. The host's page
    shows one per seat nobody holds and is rendered again at every step; a table's join code shows on every load."""
    return segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff", omitsize=True)


def _handover_links(request: HttpRequest, data: dict) -> None:
    """The host's hand-over link and QR code of each seat nobody holds (only the host's view has their secrets)."""
    for seat in data.get("seats", []):
        if seat.get("handover"):
            path = reverse("tabletop-claim", kwargs={"code": data["code"], "secret": seat["handover"]})
            seat["handover_url"] = request.build_absolute_uri(path)
            seat["handover_qr"] = _qr(seat["handover_url"])
    data["handovers"] = [seat for seat in data.get("seats", []) if seat.get("handover_url")]
    data["unheld"] = [seat for seat in data.get("seats", []) if not seat.get("held")]


def fragment_html(request: HttpRequest, table: RealTable, error: str = "") -> str:
    data = viewer_data(request, table)
    if data.get("host"):
        _handover_links(request, data)
    # The log is the same for every viewer of a version (and grows all evening): rendered once per version.
    log = data.get("log") or []
    log_html = per_version(table, "log_html", lambda: render_to_string("tabletop/_log.html", {"log": log}))
    context = {"t": data, "error": error, "log_html": log_html}
    return render_to_string("tabletop/_table.html", context, request=request)


def _presets() -> list[dict]:
    return [
        {"variant": variant, "presets": [(preset, rules_title(variant, preset)) for preset in presets]}
        for variant, presets in variant_presets().items()
    ]


def tabletop_home(request: HttpRequest) -> HttpResponse:
    """Join a table by its code, or open one (signed in)."""
    code = request.GET.get("code")
    if code:
        return redirect("tabletop-table", code=services.normal_code(code) or "-")
    mine = []
    if request.user.is_authenticated:
        mine = list(RealTable.objects.filter(host=request.user)[:10])
    return render(request, "tabletop/home.html", {"presets": _presets(), "mine": mine})


@require_POST
def tabletop_open(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tabletop-home"), reverse("account_login"))
    variant, preset = rules_choice(request.POST)
    try:
        raw = (request.POST.get("starting_credits") or "").strip()
        starting = parse_whole_number(raw, "The starting credits", field="starting_credits") if raw else None
        table = services.realtable_open(
            actor=request.user,
            variant=variant or services.DEFAULT_VARIANT,
            preset=preset or None,
            starting_credits=starting,
            has_dice=request.POST.get("dice", "yes") != "no",
            host_plays=request.POST.get("host_plays", "yes") != "no",
        )
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect("tabletop-home")
    return redirect("tabletop-table", code=table.code)


def tabletop_table(request: HttpRequest, code: str) -> HttpResponse:
    table = _table_or_404(code)
    join_url = request.build_absolute_uri(reverse("tabletop-table", kwargs={"code": table.code}))
    qr = _qr(join_url)
    return render(
        request,
        "tabletop/table.html",
        {"table": table, "fragment": fragment_html(request, table), "join_url": join_url, "qr": qr},
    )


def tabletop_fragment(request: HttpRequest, code: str) -> HttpResponse:
    """The table as this viewer sees it now (htmx, and the fallback of a dropped stream)."""
    return HttpResponse(fragment_html(request, _table_or_404(code)))


def screen_html(table: RealTable) -> str:
    return render_to_string("tabletop/_screen.html", {"t": screen_view(table)})


def tabletop_screen(request: HttpRequest, code: str) -> HttpResponse:
    """The big screen (a TV or a projector): the table in large type, public information only, for anyone with
    the code; live on the table's own stream."""
    table = _table_or_404(code)
    return render(request, "tabletop/screen.html", {"table": table, "fragment": screen_html(table)})


def tabletop_screen_events(request: HttpRequest, code: str) -> StreamingHttpResponse:
    """The big screen's stream: the table's topic, each change rendered as the screen shows it."""
    return _event_stream(request, _table_or_404(code), lambda row: screen_html(row))


def tabletop_events(request: HttpRequest, code: str) -> StreamingHttpResponse:
    """The live stream of this viewer's table: each change renders the table again for them."""
    return _event_stream(request, _table_or_404(code), lambda row: fragment_html(request, row))


def _event_stream(request: HttpRequest, table: RealTable, html) -> StreamingHttpResponse:
    request.user.is_authenticated  # noqa: B018 (resolve the lazy user here, not inside the stream)
    raw = request.headers.get("Last-Event-ID") or request.GET.get("since") or ""
    since = whole_number_or(raw, None, signed=False)
    pk = table.pk
    last: list = [None, None]  # the version this stream last read, and its row

    def read() -> tuple[int | None, RealTable | None]:
        # Each poll reads the version alone; the row only when the version moved (every change of what a viewer sees
        # comes with a new version), and without the JSON that grows all evening: the game is the process's, per
        # version (`cache.py`), and its seats are read once for the viewer's seat and the page.
        version = table_version(pk)
        if version is None or version != last[0]:
            row = RealTable.objects.defer(*GROWING).prefetch_related("seats").filter(pk=pk).first()
            last[:] = (row.version if row is not None else None), row
        return last[0], last[1]

    def render_now(row: RealTable | None) -> dict:
        if row is None:
            return {"version": None, "html": ""}
        return {"version": row.version, "html": html(row)}

    topic = services.table_topic(table.code)
    if isinstance(request, ASGIRequest):
        body = stream.async_stream(topic, since, read, render_now)
    else:
        body = stream.sync_stream(topic, since, read, render_now)
    stream.give_back()
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def _whole(raw: str | None, what: str, field: str, *, signed: bool = False) -> int:
    return parse_whole_number(raw, what, field=field, signed=signed)


LEVEL_FIELDS = (
    ("ante", "The ante"),
    ("small_blind", "The small blind"),
    ("big_blind", "The big blind"),
    ("min_bet", "The min bet"),
)


def step_from_form(post) -> dict:
    """A step from the table page's forms (the same dict the API takes)."""
    kind = post.get("step", "")
    step: dict = {"step": kind}
    if post.get("seat") not in (None, ""):
        step["seat"] = _whole(post.get("seat"), "The seat", "seat")
    if kind == "act":
        step["verb"] = post.get("verb", "")
        for key, what in (("amount", "The amount"), ("count", "The number of cards")):
            if post.get(key) not in (None, ""):
                step[key] = _whole(post.get(key), what, key)
        if post.get("source"):
            step["source"] = post["source"]
        for key in ("unlock", "lock", "call_hand"):  # Classic's extras: boxes and buttons that send "yes"
            if post.get(key) == "yes":
                step[key] = True
    elif kind == "dice":
        if post.get("by") == "site":
            step["by"] = "site"
        elif post.get("suit"):
            step["dice"] = {"number": _whole(post.get("number"), "The gold die", "number", signed=True)}
            step["dice"]["suit"] = post["suit"]
        else:
            step["dice"] = [_whole(post.get(k), f"Die {i}", k) for i, k in ((1, "die1"), (2, "die2"))]
    elif kind == "reveal":
        step["cards"] = post.getlist("cards")
    elif kind == "card":
        step["card"] = post.get("card", "")
    elif kind == "levels":
        for key, what in LEVEL_FIELDS:
            if post.get(key) not in (None, ""):
                step[key] = _whole(post.get(key), what, key)
    elif kind in ("rebuy", "add_on"):
        step["amount"] = _whole(post.get("amount"), "The amount", "amount")
    elif kind == "join":
        step["name"] = " ".join((post.get("name") or "").split())
        step["stack"] = _whole(post.get("stack"), "The buy-in", "stack")
    elif kind == "winners":
        pot = post.get("pot", "")
        step["pot"] = "sabacc" if pot == "sabacc" else _whole(pot, "The pot", "pot")
        step["seats"] = [_whole(s, "A winner's seat", "seats") for s in post.getlist("seats")]
    return step


def tapping_words(table: RealTable, post, message: str) -> str:
    """A hand shown on the deck's picture with too few or too many cards tapped, in the words of the one tapping
    ("Tap all 5 of Rey's cards (3 tapped so far)."); any other refusal as it came (the API's words name card codes)."""
    seat = whole_number_or(post.get("seat"), None, signed=False)
    if table.setup is None or seat is None:
        return message
    game = shown_game(table)
    hand = game.game.hand
    names = game.game.names
    if hand is None or seat >= len(names) or seat not in hand.seats:
        return message
    slots = game.shown.get(hand.number, {}).get(seat) or [card.slot for card in game.unknown_of(seat)]
    need, tapped = len(slots), len(post.getlist("cards"))
    if not need or tapped == need:
        return message
    name = names[seat]
    if tapped < need:
        return f"Tap all {need} of {name}'s cards ({tapped} tapped so far), then show the hand."
    return f"Tap exactly {need} of {name}'s cards: {tapped} are tapped; untap {tapped - need}."


def _version(post) -> int | None:
    raw = post.get("version")
    return parse_whole_number(raw, "The version", field="version") if raw not in (None, "") else None


def _answer(request: HttpRequest, table: RealTable, error: ApplicationError | None) -> HttpResponse:
    """The table again for htmx (with the refusal shown in it), or a redirect for a plain form."""
    fresh = RealTable.objects.get(pk=table.pk)
    if getattr(request, "htmx", False):
        status = error.status_code if error is not None else 200
        # static/js/tabletop.js lets htmx swap a refusal in: the table with the reason at its top.
        return HttpResponse(fragment_html(request, fresh, error.message if error else ""), status=status)
    if error is not None:
        messages.error(request, error.message)
    return redirect("tabletop-table", code=table.code)


@require_POST
def tabletop_do(request: HttpRequest, code: str, what: str) -> HttpResponse:
    """join, add, remove, handover (a new link), start, step, undo and finish: one service each."""
    table = _table_or_404(code)
    post = request.POST
    guest = guest_token(request, table.code)
    calls = {
        "join": lambda: services.realseat_join(actor=request.user, guest=guest, table=table, name=post.get("name", "")),
        "add": lambda: services.realseat_add(actor=request.user, table=table, name=post.get("name", "")),
        "remove": lambda: services.realseat_remove(
            actor=request.user, guest=guest, table=table, number=_whole(post.get("seat"), "The seat", "seat")
        ),
        "start": lambda: services.realtable_start(
            actor=request.user, table=table, dealer=_whole(post.get("dealer") or "0", "The first dealer", "dealer")
        ),
        "step": lambda: services.realtable_step(
            actor=request.user, guest=guest, table=table, step=step_from_form(post), version=_version(post)
        ),
        "handover": lambda: handover.realseat_handover(
            actor=request.user, table=table, number=_whole(post.get("seat"), "The seat", "seat")
        ),
        "undo": lambda: services.realtable_undo(actor=request.user, table=table, version=_version(post)),
        "finish": lambda: services.realtable_finish(actor=request.user, table=table),
    }
    if what not in calls:
        raise Http404("No such table operation.")
    try:
        done = calls[what]()
    except ApplicationError as exc:
        if what == "step" and post.get("step") == "reveal":
            exc.message = tapping_words(table, post, exc.message)
        return _answer(request, table, exc)
    if what == "join" and done.guest_token:
        _remember_guest(request, table.code, done.guest_token)
    return _answer(request, table, None)


def tabletop_state(request: HttpRequest, code: str) -> JsonResponse:
    """The page's data as JSON (what the API's state gives)."""
    return JsonResponse(viewer_data(request, _table_or_404(code)))


def tabletop_claim(request: HttpRequest, code: str, secret: str) -> HttpResponse:
    """A seat's hand-over link: the page says whose seat it is (opening it takes nothing: a link preview must not
    use it up); its button takes the seat for this phone (`handover.realseat_claim`)."""
    table = _table_or_404(code)
    error, status = "", 200
    if request.method == "POST":
        try:
            seat = handover.realseat_claim(
                actor=request.user, guest=guest_token(request, table.code), table=table, secret=secret
            )
        except ApplicationError as exc:
            error, status = exc.message, exc.status_code
        else:
            if seat.guest_token:
                _remember_guest(request, table.code, seat.guest_token)
            messages.success(request, f"This phone now holds {seat.name}'s seat.")
            return redirect("tabletop-table", code=table.code)
    seat = handover.seat_by_secret(table, secret) if table.status != "finished" else None
    context = {"table": table, "seat": seat, "error": error, "used": handover.USED, "path": request.path}
    return render(request, "tabletop/claim.html", context, status=status)
