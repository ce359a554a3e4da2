"""Issue 23, "words, not codes": every page the demo reaches names cards, phases, hands, variants and presets in
words. The pages come from Django's URL resolver (so a page added later is swept without touching this file),
filled with every object of the demo data and of online tables of all three variants, mid-hand and finished,
each read by an anonymous visitor, the demo player (seated at the tables) and the organiser; the links those
pages hold (a hand history's steps, a season, a player's game) are read too. Their words (the text outside
`<code>`, `<kbd>`, `<samp>`, `<pre>`, `<script>`, `<style>` and attributes) must hold no card code, engine slug or
version label; the patterns come from the engine's own codes (`games.words.code_patterns`), so they can't drift.
"""

import io
import random
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import get_resolver
from django.utils import timezone

from games.engine.bots import SensibleBot
from games.models import Game
from games.online import schedule, services
from games.online.models import OnlineTable, TableStatus
from games.online.selectors import table_state
from games.words import bare_card_codes, code_patterns, codes_in
from league import services as league_services
from league.demo import DEMO_ORGANISER, DEMO_PLAYER
from league.models import Event, EventStatus, League, Player, Season
from tests.online.helpers import act
from tests.routes import walk_routes
from tournaments.demo import load_demo_data
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

SKIPPED_PREFIXES = ("api/", "admin/", "static/", "healthz", "favicon", "accounts/confirm-email/", "accounts/password/")
STREAMS = {"online-events", "tournament-clock-events", "online-lobby-events"}
DOWNLOADS = {"online-history-download", "online-replay-download", "online-hand-download"}  # replays: codes belong
SKIPPED_TAGS = {"code", "kbd", "samp", "pre", "script", "style", "template", "textarea"}
MAX_LINKS_PER_PATH = 12
TASKS = ("bot_act", "next_hand", "turn_timeout")


class Words(HTMLParser):
    """The text a reader sees: outside code-like elements and attributes (which keep codes on purpose)."""

    VOID = {"br", "img", "input", "meta", "link", "hr", "source", "col", "area", "base", "wbr", "path", "circle"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.parts: list[str] = []
        self.links: list[tuple[str, bool]] = []
        self.options: list[str] = []  # the labels of menu choices
        self.option: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "option":
            self.option = []
        attrs = dict(attrs)
        if attrs.get("href"):
            self.links.append((attrs["href"], False))
        if attrs.get("hx-get"):
            self.links.append((attrs["hx-get"], True))
        if tag in SKIPPED_TAGS and tag not in self.VOID:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag == "option" and self.option is not None:
            self.options.append("".join(self.option).strip())
            self.option = None
        if tag in SKIPPED_TAGS and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth:
            self.parts.append(data)
            if self.option is not None:
                self.option.append(data)


def words_of(html: str) -> tuple[str, list[tuple[str, bool]]]:
    """The page's words and links; a menu choice whose label is a bare card code (Classic's `-14`, which in
    running text reads like any amount) is added as a code."""
    parser = Words()
    parser.feed(html)
    bare = [label for label in parser.options if label.split(" ")[0] in bare_card_codes()]
    return " ".join(parser.parts + [f"[menu choice {label}]" for label in bare]), parser.links


def test_the_patterns_come_from_the_engine_and_catch_the_issues_examples():
    text = "phase Cards_1, cards -3t and -8c-2t+10s, select pots, lock -14, coruscant_shift · better, v17, +12f"
    found = {code for _, code in codes_in(text)}
    assert {"Cards_1", "-3t", "-8c", "-2t", "+10s", "coruscant_shift", "v17", "+12f"} <= found
    assert not codes_in("\u22123 triangle, Sylop, The Idiot, Round 1: card turns, Better Coruscant Shift, 30 seconds")
    patterns = code_patterns()
    assert patterns["engine code"].search("galaxy_series") and patterns["engine code"].search("YEE_HAA")


def test_a_menu_of_classic_face_cards_by_their_codes_is_caught():
    text, _ = words_of('<select><option value="-14">-14</option><option value="2">2 players</option></select>')
    assert "[menu choice -14]" in text and "[menu choice 2" not in text
    text, _ = words_of('<select><option value="-14">Moderation (\u221214)</option></select>')
    assert "[menu choice" not in text


def test_the_word_parser_skips_code_and_attributes():
    html = '<p title="-3t">a <code>-3t</code> <span aria-label="+7c">Sylop</span></p><a href="/x/">x</a>'
    text, links = words_of(html)
    assert not codes_in(text) and "Sylop" in text and links == [("/x/", False)]


# ----- the world: the demo, and online tables of every variant mid-hand and finished --------------------------


@pytest.fixture
def recorded(monkeypatch):
    calls: list[tuple[str, list, float]] = []
    monkeypatch.setattr(schedule, "later", lambda name, args, countdown: calls.append((name, args, countdown)))
    return calls


def _play(table: OnlineTable, users: list, recorded: list, *, steps: int, first: int = 0) -> None:
    """The seated users play with a bot's decisions (bots at the table act through their scheduled tasks);
    `steps` decisions at most (numbered from `first`, each its own idempotency key), stopping when the table
    finishes."""
    from games.online import tasks

    brains = {user.pk: SensibleBot(random.Random(user.pk)) for user in users}
    for step in range(first, first + steps):
        table.refresh_from_db()
        if table.status == TableStatus.FINISHED:
            return
        for user in users:
            view = table_state(table, user=user)["view"]
            if view and view["legal"]["verbs"]:
                act(table, user, brains[user.pk].decide(view), key=f"{table.pk}-{step}-{user.pk}")
                break
        else:
            pending = [call for call in recorded if call[0] in TASKS and call[1][0] == table.pk]
            if not pending:
                return
            call = pending[0]
            recorded.remove(call)
            getattr(tasks, call[0]).run(*call[1])


@pytest.fixture
def demo(db, recorded, django_capture_on_commit_callbacks):
    """The demo data, and per variant one table finished (two hands, with its hand history and league game) and
    one mid-hand with the demo player seated."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    with django_capture_on_commit_callbacks(execute=True):
        load_demo_data(io.StringIO())
    organiser, player = users.get(username=DEMO_ORGANISER), users.get(username=DEMO_PLAYER)
    for league in League.objects.all():
        season = Season.objects.filter(league=league).order_by("-starts_on").first()
        for mid_hand in (True, False):
            with django_capture_on_commit_callbacks(execute=True):
                # Each table at an event of its own: a finished table may finish its event, and tables at it.
                event = league_services.event_create(
                    actor=organiser,
                    season=season,
                    name=f"{league.name} {'live' if mid_hand else 'done'} night",
                    starts_at=timezone.now(),
                    status=EventStatus.RUNNING,
                )
                table = services.table_open(
                    actor=organiser,
                    event=event,
                    name=f"{league.name} {'live' if mid_hand else 'done'}",
                    seats=3,
                    # A turn outlasts the sweep (a slow machine reads its 300 pages in over a minute): no turn
                    # times out meanwhile, and the live hand is still being played when the sweep reads it.
                    turn_seconds=600,
                    option_overrides={**league.option_overrides, "hands": 2},
                )
                services.seat_take(actor=organiser, table=table)
                services.seat_take(actor=player, table=table)
                services.table_fill_bots(actor=organiser, table=table)
                services.table_start(actor=organiser, table=table)
                _play(table, [organiser, player], recorded, steps=6 if mid_hand else 3000)
                # Mid-hand means a hand being played (the player's cards on their page), not a hand just over:
                # the bots' decisions vary with the users' ids, so a hand may end within the six steps.
                for extra in range(60 if mid_hand else 0):
                    view = table_state(table, user=player)["view"]
                    if view and view["hand"] and view["hand"]["phase"] != "complete":
                        break
                    _play(table, [organiser, player], recorded, steps=1, first=6 + extra)
                else:
                    if mid_hand:  # say so here, not later as a page without the player's cards
                        hand = (view or {}).get("hand") or {}
                        pending = [call[0] for call in recorded if call[1][0] == table.pk]
                        pytest.fail(f"{table.name}: no hand in play after 66 steps ({hand.get('phase')}; {pending})")
            table.refresh_from_db()
            assert (table.status == TableStatus.FINISHED) != mid_hand, (league.variant, table.status)
    return {"organiser": organiser, "player": player}


# ----- the routes -----------------------------------------------------------------------------------------


def _values(param: str, route: str) -> list:
    if param == "slug":
        return list(League.objects.values_list("slug", flat=True))
    path = route.removeprefix("manage/")
    models = {
        "events/": Event,
        "games/": Game,
        "players/": Player,
        "tables/": OnlineTable,
        "tournaments/": Tournament,
        "seasons/": Season,
    }
    for prefix, model in models.items():
        if path.startswith(prefix):
            return list(model.objects.order_by("pk").values_list("pk", flat=True))
    return []


def page_addresses() -> list[str]:
    addresses = []
    for route, pattern in walk_routes(get_resolver().url_patterns):
        if route.startswith(SKIPPED_PREFIXES) or pattern.name in STREAMS | DOWNLOADS:
            continue
        params = [a or b for a, b in re.findall(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>", route)]
        if not params:
            addresses.append("/" + route)
            continue
        if len(params) > 1 and params[1:] != ["what"]:
            continue  # a claim or invite code, a hand number: reached through the links of the pages
        for value in _values(params[0], route):
            filled = re.sub(rf"<(?:\w+:)?{params[0]}>", str(value), route, count=1)
            if "<" not in filled:
                addresses.append("/" + filled)
    return addresses


def _extra_addresses() -> list[str]:
    """Pages reached with a query the resolver cannot know: the organiser's rules preview of every preset."""
    from games.engine.options import variant_presets

    return [
        f"/manage/preview/rules/?variant={variant}&preset={preset}"
        for variant, presets in variant_presets().items()
        for preset in presets
    ]


def _sweep(client: Client) -> tuple[dict[str, list[tuple[str, str]]], dict[str, str]]:
    """({address: codes found}, {address: the words read}) over every page and the links they hold; links
    htmx follows (`hx-get`) are read as htmx reads them, and the live table's JSON fragment by its HTML."""
    found: dict[str, list[tuple[str, str]]] = {}
    read: dict[str, str] = {}
    queue = [(address, False) for address in page_addresses() + _extra_addresses()]
    seen, per_path = set(), {}
    while queue:
        address, htmx = queue.pop(0)
        if (address, htmx) in seen:
            continue
        seen.add((address, htmx))
        response = client.get(address, **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
        kind = response.get("Content-Type", "")
        if response.status_code != 200:
            continue
        if "json" in kind and address.endswith("/fragment/"):
            html = response.json()["html"]
        elif "html" in kind:
            html = response.content.decode()
        else:
            continue
        text, links = words_of(html)
        read[f"{address}{' (htmx)' if htmx else ''}"] = text
        codes = codes_in(text) + [("card code in a menu", m) for m in re.findall(r"\[menu choice ([^\]]+)\]", text)]
        if codes:
            found[address] = codes
        for link, by_htmx in links:
            parts = urlsplit(link)
            if parts.netloc or not parts.path.startswith("/") or not (parts.query or by_htmx):
                continue
            if parts.path.startswith(tuple("/" + p for p in SKIPPED_PREFIXES)) or "download" in parts.path:
                continue
            count = per_path.get(parts.path, 0)
            target = f"{parts.path}?{parts.query}" if parts.query else parts.path
            if (target, by_htmx) not in seen and count < MAX_LINKS_PER_PATH:
                per_path[parts.path] = count + 1
                queue.append((target, by_htmx))
    return found, read


def test_no_page_shows_a_code(demo):
    """One world, three readers (building the world is most of the time). The sweep must have read what it is
    for: the live tables as the seated player sees them (their cards), a reveal of every variant in the hand
    histories, and the organiser's pages."""
    found, read = {}, {}
    for who in ("anonymous", "player", "organiser"):
        client = Client()
        if who != "anonymous":
            client.force_login(demo[who])
        codes, pages = _sweep(client)
        found.update({f"{who} {address}": each for address, each in codes.items()})
        read.update({f"{who} {address}": text for address, text in pages.items()})
    assert not found, "\n".join(f"{address}: {sorted(set(codes))[:8]}" for address, codes in found.items())

    live = OnlineTable.objects.filter(status=TableStatus.RUNNING, name__endswith=" live")
    everything = list(OnlineTable.objects.values_list("name", "variant", "status"))
    assert {table.variant for table in live} == {"coruscant_shift", "corellian_spike", "classic"}, everything
    for table in live:
        assert "Your hand" in read[f"player /tables/{table.pk}/"], table.variant
        assert "Your hand" in read[f"player /tables/{table.pk}/fragment/"], table.variant
    for game in Game.objects.exclude(replay_document=None):
        assert any(
            address.startswith(f"anonymous /games/{game.pk}/?") and "The reveal" in text
            for address, text in read.items()
        ), game.pk
    assert any(a.startswith("organiser /manage/preview/rules/") and "Starting credits" in t for a, t in read.items())
    assert len(read) > 300, len(read)
