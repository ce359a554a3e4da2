"""Every page, for every role, at phone and laptop size: no sideways scroll, no console error, and no serious
or critical axe-core violation. A screenshot of each page that failed is saved in tests/e2e/screenshots/ (git-ignored);
with `SWEEP_SCREENSHOTS=1`, of every page (to look at them: full-page screenshots are a good part of the sweep's time).

The page list comes from Django's URL resolver (every route but the API's and the admin's), so pages added
later, the organisers' under /manage/ included, are swept without touching this file. A route whose
arguments cannot be filled fails the test with its name rather than being left out.
"""

import io
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.e2e.conftest import CHROMIUM, CHROMIUM_FLAGS, session_cookie

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
EVERY_SCREENSHOT = os.environ.get("SWEEP_SCREENSHOTS") == "1"
SIZES = ((390, 844), (1280, 800))
ROLES = ("anonymous", "player", "organiser", "admin")
SKIPPED_PREFIXES = ("api/", "admin/", "static/")
# Routes that are not pages, each with the reason.
NOT_PAGES = {
    "healthz": "JSON health check",
    "favicon": "a redirect to the icon",
    "online-lobby-events": "the lobby's server-sent event stream (the lobby page reads it)",
    "online-events": "a table's server-sent event stream (the table page reads it)",
    "online-history-download": "a JSON download (the public hand history) linked from the hands page",
    "online-replay-download": "a JSON download (the game's replay, once it is over) linked from the hands page",
    "online-hand-download": "a JSON download (the replay up to one hand) linked from the hands page",
    "tournament-clock-events": "a tournament clock's server-sent event stream (the clock panels read it)",
    "tabletop-events": "a real-cards table's server-sent event stream (the table page reads it)",
    "tabletop-history-download": "a JSON download (a real-cards table's sabacc-realcards/1) linked from its history",
    "tabletop-screen-events": "a real-cards table's big-screen event stream (the big screen reads it)",
    "tournament-structure-preset": "JSON: the levels the structure editor fills its rows with",
}
# Routes whose arguments are names from the engine's registry, not objects: the widest page of each (the variant page
# compares Coruscant Shift's four presets side by side; Corellian Spike's preset page has the named-hands table).
NAMED_ARGUMENTS = {
    "rules-variant": {"variant": "coruscant_shift"},
    "rules-preset": {"variant": "corellian_spike", "preset": "galaxy_series"},
}


@dataclass
class Route:
    route: str
    name: str | None
    params: list[str]


def _routes(patterns=None, prefix: str = "") -> list[Route]:
    routes = []
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        text = prefix + str(pattern.pattern).lstrip("^").rstrip("$")
        if isinstance(pattern, URLResolver):
            routes.extend(_routes(pattern.url_patterns, text))
        elif isinstance(pattern, URLPattern):
            params = re.findall(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>", text)
            routes.append(Route(text, pattern.name, [a or b for a, b in params]))
    return routes


def page_routes() -> list[Route]:
    seen, routes = set(), []
    for route in _routes():
        if route.route.startswith(SKIPPED_PREFIXES) or route.name in NOT_PAGES or route.route in seen:
            continue
        seen.add(route.route)
        routes.append(route)
    return routes


@dataclass
class Objects:
    """Demo-like objects the routes' arguments are filled from."""

    league: object
    season: object
    event: object
    game: object
    table: object
    online_table: object
    player: object
    guest: object
    membership: object
    user: object
    tournament: object
    invite: object
    real_table: object


def _demo_objects() -> Objects:
    from django.core.cache import cache

    from games.models import Game
    from games.online.models import OnlineTable
    from league.demo import DEMO_LEAGUE, DEMO_PLAYER
    from league.models import EventKind, EventStatus, League, Membership, Player, Role
    from tournaments.demo import DEMO_TOURNAMENT, load_demo_data
    from tournaments.models import Tournament

    cache.clear()  # wrong join codes counted by earlier tests from this address would answer the join pages 429
    load_demo_data(io.StringIO())
    league = League.objects.get(slug=DEMO_LEAGUE)
    season = league.seasons.get(name="Season 2")
    event = season.events.get(status=EventStatus.RUNNING, kind=EventKind.TOURNAMENT, name="Beskar Cup")
    game = Game.objects.filter(event=event).exclude(replay_document=None).get()
    player = Player.objects.get(user__username=DEMO_PLAYER)
    from league.models import EmailInvite, join_key_of

    League.objects.filter(pk=league.pk).update(
        join_mode="code", join_code="sweep-invite-code", join_key=join_key_of("sweep-invite-code")
    )
    league.refresh_from_db()
    invite = EmailInvite.objects.create(league=league, email="invited@example.com", token="sweep-invite-token")
    from games.tabletop.services import realseat_add, realtable_open

    real_table = realtable_open(actor=player.user, variant="corellian_spike")
    realseat_add(actor=player.user, table=real_table, name="Chewie")  # a seat nobody holds: its hand-over link
    return Objects(
        league=league,
        season=event.season,
        event=event,
        game=game,
        table=game.table,
        online_table=OnlineTable.objects.get(event__season__league=league),
        player=player,
        guest=Player.objects.filter(user=None, memberships__league=league).first(),
        membership=Membership.objects.filter(league=league, role=Role.PLAYER).first(),
        user=player.user,
        tournament=Tournament.objects.get(event__season__league=league, event__name=DEMO_TOURNAMENT),
        invite=invite,
        real_table=real_table,
    )


def _allauth_keys(user) -> dict[str, dict[str, str]]:
    """A real e-mail confirmation key and password-reset key of `user` (someone else's would sign them out)."""
    from allauth.account.forms import default_token_generator
    from allauth.account.models import EmailAddress, EmailConfirmationHMAC
    from allauth.account.utils import user_pk_to_url_str

    address, _ = EmailAddress.objects.get_or_create(
        user=user, email=user.email, defaults={"primary": True, "verified": False}
    )
    return {
        "account_confirm_email": {"key": EmailConfirmationHMAC(address).key},
        "account_reset_password_from_key": {
            "uidb36": user_pk_to_url_str(user),
            "key": default_token_generator.make_token(user),
        },
    }


# The object a route's argument names, by the path word before it ("events/<int:pk>/" is an event).
SEGMENT_OBJECTS = {
    "league": "league",
    "season": "season",
    "event": "event",
    "game": "game",
    "table": "online_table",  # tables/<pk>/ are online tables; a league event's tables have no page of their own
    "player": "player",
    "guest": "guest",
    "member": "membership",
    "membership": "membership",
    "tournament": "tournament",
}


def fill(route: Route, objects: Objects, keys: dict[str, dict[str, str]]) -> str:
    """The route's URL with its arguments filled; AssertionError naming the route when they cannot be."""
    if route.name in keys:
        return reverse(route.name, kwargs=keys[route.name])
    if route.name in NAMED_ARGUMENTS:
        return reverse(route.name, kwargs=NAMED_ARGUMENTS[route.name])
    if route.name == "online-do":  # a table's POST-only actions (join, leave, start...): the browser gets 405
        return reverse(route.name, kwargs={"pk": objects.online_table.pk, "what": "join"})
    if route.name == "join-code":  # the demo league's invite link (`_demo_objects` turns it on)
        return reverse(route.name, kwargs={"slug": objects.league.slug, "code": objects.league.join_code})
    if route.name == "join-invite":
        return reverse(route.name, kwargs={"pk": objects.invite.pk, "token": objects.invite.token})
    if route.name == "tabletop-do":  # a real-cards table's POST-only actions: the browser gets 405
        return reverse(route.name, kwargs={"code": objects.real_table.code, "what": "join"})
    if route.name == "tabletop-claim":  # a seat's hand-over link (opening it takes nothing; its button does)
        seat = objects.real_table.seats.exclude(handover="").get()
        return reverse(route.name, kwargs={"code": objects.real_table.code, "secret": seat.handover})
    if route.name.startswith("tabletop-") and "code" in route.params:  # a real-cards table: found by its join code
        return reverse(route.name, kwargs={"code": objects.real_table.code})
    if route.name == "player-claim":
        return reverse(route.name, kwargs={"code": objects.guest.claim_code})
    kwargs = {}
    for param in route.params:
        before = re.search(rf"([\w-]+)/(?:<(?:\w+:)?{param}>|\(\?P<{param}>)", route.route)
        word = before.group(1).removesuffix("s") if before else ""
        if param.endswith(("_pk", "_id", "_slug")):
            word = param.rsplit("_", 1)[0]
        elif param not in ("pk", "id", "slug"):
            word = param
        attribute = SEGMENT_OBJECTS.get(word)
        assert attribute, (
            f"The page sweep cannot fill argument {param!r} of route {route.name!r} ({route.route}): "
            "add it to SEGMENT_OBJECTS or the named fillers in tests/e2e/test_page_sweep.py."
        )
        target = getattr(objects, attribute)
        kwargs[param] = target.slug if param.endswith("slug") else target.pk
    assert route.name, f"The route {route.route!r} has no name, so the page sweep cannot build its URL."
    return reverse(route.name, kwargs=kwargs)


def _axe_script() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


def _check(page, url: str, axe_script: str, seen: set[str]) -> list[str]:
    """Load one page and list what is wrong with it; a page already checked in this context (a redirect to
    the sign-in page, say) is not checked twice."""
    errors: list[str] = []

    def on_console(message) -> None:
        if message.type != "error":
            return
        # A page answering 403/404 on purpose (a role without access) logs its own status: not a fault.
        if message.text.startswith("Failed to load resource") and message.location.get("url") == page.url:
            return
        errors.append(f"console: {message.text}")

    def on_page_error(exc) -> None:
        errors.append(f"page error: {exc}")

    page.on("console", on_console)
    page.on("pageerror", on_page_error)
    try:
        # The browser's own answer says what the route is (no second request, no second rendering by the server).
        response = page.goto(url, wait_until="load")
        if response is not None and response.status == 405:
            return []  # a form's POST-only action (add a guest, start an event): not a page to look at
        if response is not None and response.status == 200 and "<html" not in response.text()[:500].lower():
            return []  # an htmx fragment (a preview swapped into a form), looked at inside its page
        if page.url in seen:
            return errors
        seen.add(page.url)
        problems = []
        if response is None or response.status >= 500:
            problems.append(f"status {response.status if response else 'none'}")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if overflow > 0:
            problems.append(f"{overflow}px of sideways scroll")
        page.evaluate(axe_script)
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        for violation in result["violations"]:
            if violation["impact"] in ("serious", "critical"):
                targets = [node["target"] for node in violation["nodes"][:3]]
                problems.append(f"axe {violation['impact']} {violation['id']}: {violation['help']} at {targets}")
        return problems + errors
    finally:
        page.remove_listener("console", on_console)
        page.remove_listener("pageerror", on_page_error)


@pytest.fixture
def demo_objects(db):
    return _demo_objects()


def test_every_page_route_can_be_filled(demo_objects):
    keys = _allauth_keys(demo_objects.user)
    urls = [fill(route, demo_objects, keys) for route in page_routes()]
    assert "/" in urls and f"/games/{demo_objects.game.pk}/" in urls and len(urls) == len(set(urls))


def test_an_argument_the_sweep_cannot_fill_fails_with_the_routes_name(demo_objects):
    with pytest.raises(AssertionError, match="'mystery-page'"):
        fill(Route("manage/widgets/<int:widget_id>/", "mystery-page", ["widget_id"]), demo_objects, {})


@pytest.mark.timeout(900)  # about two minutes here; the limit leaves room for a loaded machine
def test_every_page_for_every_role_and_size(live_server, demo_objects):
    """One test for all roles, so the demo loads once: the failures list names role, size and page. Two roles
    are swept at a time, each in its own browser (a thread each: Playwright's sync API is one per thread); the
    pages are read-only for these users, so the order they are visited in changes nothing."""
    axe_script = _axe_script()
    (SCREENSHOTS / ".gitignore").parent.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / ".gitignore").write_text("*\n")
    # Everything that reads the database is done here, in the test's thread.
    plans = [_plan(role, live_server.url, demo_objects) for role in ROLES]
    with ThreadPoolExecutor(max_workers=2) as pool:
        swept = list(pool.map(lambda plan: _sweep_role(plan, axe_script), plans))
    failures = [failure for role_failures in swept for failure in role_failures]
    assert not failures, "\n".join(failures)


@dataclass
class Plan:
    role: str
    base_url: str
    cookie: dict | None
    urls: list[tuple[str, str]]


def _plan(role: str, base_url: str, objects: Objects) -> Plan:
    from django.contrib.auth import get_user_model

    user = None if role == "anonymous" else get_user_model().objects.get(username=role)
    keys = _allauth_keys(user or objects.user)
    urls = [(route.name or route.route, fill(route, objects, keys)) for route in page_routes()]
    return Plan(role, base_url, session_cookie(user, base_url) if user else None, urls)


def _sweep_role(plan: Plan, axe_script: str) -> list[str]:
    from playwright.sync_api import sync_playwright

    folder = SCREENSHOTS / plan.role
    folder.mkdir(parents=True, exist_ok=True)
    failures = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            for width, height in SIZES:
                context = browser.new_context(viewport={"width": width, "height": height})
                if plan.cookie is not None:
                    context.add_cookies([plan.cookie])
                page = context.new_page()
                page.set_default_timeout(15_000)
                seen: set[str] = set()
                for name, url in plan.urls:
                    problems = _check(page, plan.base_url + url, axe_script, seen)
                    if problems or EVERY_SCREENSHOT:
                        slug = re.sub(r"[^\w-]+", "_", name)
                        page.screenshot(path=str(folder / f"{slug}-{width}.png"), full_page=True)
                    failures.extend(f"{plan.role} {width}px {url}: {problem}" for problem in problems)
                context.close()
        finally:
            browser.close()
    return failures
