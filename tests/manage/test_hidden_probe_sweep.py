"""Issue 21, finding 6: hidden and missing look alike. Every route that names a league, season, event, game,
table, tournament, player or membership in its address (the `/manage/` pages, the API and the public pages) is
probed, for a members-only league, by a signed-in outsider (who organises a public league of their own) and by
an anonymous visitor, with each method the route answers: the answer for the hidden object's id must equal the
answer for a missing id (status and body, the id itself masked out), after as many database queries.

The routes come from Django's URL resolver, so a route added later is probed without touching this file; a
route whose argument this file cannot fill fails `test_every_route_with_an_object_is_probed` by its name.
"""

import difflib
import re
from dataclasses import dataclass

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, get_resolver
from django.utils import timezone

from games.models import Game, GameStatus, Table
from games.online import services as online
from games.online.models import OnlineTable
from league.models import EmailInvite, EventKind, EventStatus, Role, Visibility
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory, UserFactory
from tests.routes import walk_routes
from tournaments import services as tournament_services
from tournaments.models import Tournament
from tournaments.structures import Level, structure_to_json

MISSING_ID = 987_654_321
MISSING_SLUG = "no-such-league-here"
HIDDEN_SLUG = "hush-hush-league"
# The hidden objects' ids: far from any other number a page shows, so masking them out masks nothing else.
HIDDEN_IDS = {
    "season": 710_001,
    "event": 720_001,
    "tournament_event": 720_002,
    "game": 730_001,
    "table": 740_001,
    "online_table": 750_001,
    "tournament": 760_001,
    "player": 770_001,
    "membership": 780_001,
    "email_invite": 790_001,
}
CSRF_TOKEN = re.compile(r"(?<![0-9A-Za-z])[0-9A-Za-z]{64}(?![0-9A-Za-z])")
METHODS = ("get", "post", "patch", "delete")
SKIPPED = {"api/(?P<rest>.*)"}  # the API's catch-all 404
# Addresses that name no league object: the admin, accounts' keys, a claim code (a secret, not an id), the rules, a
# real-cards table's join code (a secret too: the invitation itself, which lets whoever holds it look and join;
# tests/tabletop probe a wrong code).
NOT_OBJECTS = ("admin/", "accounts/", "claim/", "static/", "rules/", "tabletop/", "api/tabletop/")
# Server-sent event streams: probed by the pages that read them (a hidden one would answer 404 at once, but a
# stream that did not would hold the test for its whole length).
STREAMS = {"online-events", "tournament-clock-events"}
FILLERS = {
    "what": "join",
    "hand": "1",
    "pk": "1",
    "code": "wrong-code",
    "token": "wrong-token",
}  # the other arguments of a few addresses


@dataclass(frozen=True)
class Route:
    route: str
    name: str | None
    param: str
    methods: tuple[str, ...]
    kind: str | None  # which hidden object fills the address; None when this file does not know


def _kind(route: str, param: str) -> str | None:
    if param == "slug":
        return "league" if "leagues/" in route or route.startswith("join/") else None
    if route.startswith("join/invite/"):
        return "email_invite"
    if route.startswith("manage/events/") and route.endswith("tournament/"):
        return "tournament_event"
    prefixes = {
        "seasons/": "season",
        "events/": "event",
        "games/": "game",
        "players/": "player",
        "memberships/": "membership",
        "members/": "membership",
        "tables/": "online_table",  # tables/<pk> are online tables; a league event's tables are under its event
        "tournaments/": "tournament",
    }
    path = route.removeprefix("api/").removeprefix("manage/")
    return next((kind for prefix, kind in prefixes.items() if path.startswith(prefix)), None)


def _methods(pattern: URLPattern) -> tuple[str, ...]:
    callback = pattern.callback
    actions = getattr(callback, "actions", None)
    if actions:
        return tuple(m for m in METHODS if m in actions)
    cls = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if cls is not None:
        return tuple(m for m in METHODS if hasattr(cls, m))
    return ("get", "post")  # a function view: its decorators answer the methods it refuses


def object_routes() -> list[Route]:
    """Routes whose first argument names an object (the API's `.json` format twins left out)."""
    routes, seen = [], set()
    for text, pattern in walk_routes(get_resolver().url_patterns):
        if text.startswith(NOT_OBJECTS) or text in SKIPPED or pattern.name in STREAMS or "(?P<format>" in text:
            continue
        params = [a or b for a, b in re.findall(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>", text)]
        if not params or text in seen or text.startswith(("api/chip-sets/", "api/buy-in-policies/")):
            continue
        seen.add(text)
        routes.append(Route(text, pattern.name, params[0], _methods(pattern), _kind(text, params[0])))
    return routes


def _url(route: Route, value) -> str:
    def fill(match: re.Match) -> str:
        name = match.group(1) or match.group(2)
        return str(value) if name == route.param else FILLERS[name]

    text = re.sub(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>(?:[^()]|\([^)]*\))*\)", fill, route.route)
    return "/" + text.replace("\\", "")


STRUCTURE = structure_to_json([Level(small_blind=5, big_blind=10, length=10)])


@pytest.fixture(autouse=True)
def no_guess_limit(monkeypatch):
    """Every probe of an invite link is a wrong guess: the limit on those (a 429 for both) is tested elsewhere."""
    monkeypatch.setattr("league.services.joining.GUESS_LIMIT", 10**9)


@pytest.fixture
def hidden(db):
    """A members-only league with one of everything, and an outsider who organises a public league."""
    league = LeagueFactory(visibility=Visibility.MEMBERS, slug=HIDDEN_SLUG, name="Hush league")
    season = SeasonFactory(pk=HIDDEN_IDS["season"], league=league)
    event = EventFactory(pk=HIDDEN_IDS["event"], season=season, status=EventStatus.PLANNED)
    tournament_event = EventFactory(
        pk=HIDDEN_IDS["tournament_event"], season=season, kind=EventKind.TOURNAMENT, status=EventStatus.PLANNED
    )
    organiser = UserFactory(username="hush-organiser")
    MembershipFactory(league=league, player=PlayerFactory(user=organiser), role=Role.ORGANISER)
    guest = PlayerFactory(pk=HIDDEN_IDS["player"], display_name="Secret guest")
    MembershipFactory(pk=HIDDEN_IDS["membership"], league=league, player=guest)
    Game.objects.create(
        pk=HIDDEN_IDS["game"],
        event=event,
        status=GameStatus.FINISHED,
        variant="coruscant_shift",
        preset="better",
        played_at=timezone.now(),
    )
    Table.objects.create(pk=HIDDEN_IDS["table"], event=event, name="Secret table", number=1)
    table = online.table_open(actor=organiser, event=event, name="Secret online", seats=2)
    OnlineTable.objects.filter(pk=table.pk).update(id=HIDDEN_IDS["online_table"])
    made = tournament_services.tournament_create(
        actor=organiser, event=tournament_event, structure=STRUCTURE, seats_per_table=4
    )
    Tournament.objects.filter(pk=made.pk).update(id=HIDDEN_IDS["tournament"])
    EmailInvite.objects.create(
        pk=HIDDEN_IDS["email_invite"], league=league, email="hush@example.com", token="hush-token", created_by=organiser
    )
    outsider = UserFactory(username="outsider")
    own = LeagueFactory(name="Own league")
    MembershipFactory(league=own, player=PlayerFactory(user=outsider, display_name="Outsider"), role=Role.ORGANISER)
    return {"outsider": outsider}


def _answer(client: Client, method: str, url: str, value) -> tuple[int, str, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        if method == "get":
            response = client.get(url)
        else:
            response = getattr(client, method)(url, data="{}", content_type="application/json")
    body = b"".join(response) if response.streaming else response.content
    text = re.sub(rf"(?<![0-9A-Za-z-]){re.escape(str(value))}(?![0-9A-Za-z-])", "<id>", body.decode())
    text = CSRF_TOKEN.sub("<csrf>", text)  # masked anew on each page
    return response.status_code, text, [query["sql"] for query in queries.captured_queries]


CASES = [
    pytest.param(route, method, who, id=f"{method}-{route.name}-{who}")
    for route in object_routes()
    if route.kind is not None
    for method in route.methods
    for who in ("outsider", "anonymous")
]


def test_every_route_with_an_object_is_probed():
    unknown = [route.route for route in object_routes() if route.kind is None]
    assert unknown == [], "teach _kind() which object fills these addresses"
    assert len(CASES) > 60


@pytest.mark.parametrize(("route", "method", "who"), CASES)
def test_a_hidden_object_answers_as_a_missing_one(hidden, settings, route, method, who):
    # Every request reads who may see the page: what a process may keep for 0.1 s would make the second of two
    # probes of an address cheaper than the first, whichever object it names.
    settings.PAGE_STAMP_MAX_AGE = 0
    client = Client()
    if who == "outsider":
        client.force_login(hidden["outsider"])
    hidden_value = HIDDEN_SLUG if route.kind == "league" else HIDDEN_IDS[route.kind]
    missing_value = MISSING_SLUG if route.kind == "league" else MISSING_ID
    # Once first, unmeasured: the session and the viewer's caches (Redis, when set) are warm for both probes.
    _answer(client, method, _url(route, missing_value), missing_value)
    seen_missing = _answer(client, method, _url(route, missing_value), missing_value)
    seen_hidden = _answer(client, method, _url(route, hidden_value), hidden_value)
    diff = "\n".join(difflib.unified_diff(seen_missing[1].splitlines(), seen_hidden[1].splitlines(), lineterm=""))
    assert seen_hidden[0] == seen_missing[0], diff
    assert seen_hidden[1] == seen_missing[1], diff
    assert seen_hidden[0] < 500
    assert "Secret" not in seen_hidden[1] and "Hush" not in seen_hidden[1]
    # The same reads for both: no extra work that would make the hidden one answer noticeably slower.
    assert len(seen_hidden[2]) == len(seen_missing[2]), "\n".join(
        ["missing:", *seen_missing[2], "hidden:", *seen_hidden[2]]
    )
