"""Online tables in a real browser against the live server, with a real Celery worker for the bots,
the clock and the next hand: a player plays a hand against bots, and two players play one together,
every change arriving live, with no reload; one table served by two server processes; the keyboard
shortcuts and the bet slider's presets."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.db import connection
from django.test import Client

from config.celery import app
from games.engine import Game
from games.online import services, stream
from games.online.models import OnlineAction, OnlineSeat
from tests.e2e.conftest import STREAM_KEEPALIVE_SECONDS
from tests.league.conftest import build_world
from tests.processes import uvicorn_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
WAIT = 30_000


@pytest.fixture
def worker(settings):
    settings.ONLINE_HAND_PAUSE_SECONDS = 60  # one hand per test: the reveal stays on screen
    settings.ONLINE_STREAM_SECONDS = 20  # streams end soon after the test (the browser would reconnect)
    settings.ONLINE_STREAM_KEEPALIVE_SECONDS = STREAM_KEEPALIVE_SECONDS  # and notice a closed browser soon
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    app.control.purge()  # tasks left on this test broker by an earlier run
    try:
        with start_worker(app, perform_ping_check=False, pool="solo", loglevel="WARNING", shutdown_timeout=5):
            yield
        # The browsers are closed: their streams end (and free their database connections) within seconds.
        assert stream.wait_until_closed(timeout=15)
    finally:
        app.conf.task_always_eager = previous


@pytest.fixture
def table_world(db):
    world = build_world()
    world.event.status = "planned"
    world.event.save()
    return world


@pytest.fixture
def contexts(worker):
    """Browser contexts, closed before the worker fixture waits for their streams to end."""
    opened = []
    yield opened
    for context in opened:
        context.close()


def signed_in(browser, base_url: str, user, contexts, *, width=1280, height=800):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": height})
    contexts.append(context)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base_url}])
    page = context.new_page()
    page.set_default_timeout(WAIT)
    return page


def act_passively(page) -> str:
    """Take the cheapest way through the decision on screen; returns what was done."""
    form = page.locator("[data-act-form]")
    if form.locator('button[value="select"]').count():
        boxes = form.locator('input[name="cards"]')
        if "Choose your selection" in form.inner_text() and boxes.count():
            boxes.first.check()
        form.locator('button[value="select"]').click()
        return "select"
    for verb in ("check", "call", "fold"):
        button = form.locator(f'button[value="{verb}"]')
        if button.count():
            button.click()
            return verb
    raise AssertionError(f"no passive action among: {form.inner_text()}")


def awaited_users(table) -> set[int] | None:
    """The users whose decision the table awaits (from the server), or None once the hand is over."""
    table.refresh_from_db()
    game = Game.from_json(table.state)
    if not game.in_hand:
        return None
    seats = {s.engine_seat: s for s in OnlineSeat.objects.filter(table=table).select_related("player")}
    return {seats[s].player.user_id for s in game.waiting_for() if seats[s].player and seats[s].player.user_id}


def play_until_reveal(table, pages: dict, limit: int = 40) -> list[str]:
    """Each awaited player (by user id in `pages`) acts in their own browser until the hand is over."""
    done = []
    for _ in range(limit):
        awaited = awaited_users(table)
        if awaited is None:
            for page in pages.values():
                page.wait_for_selector(".reveal")
            return done
        for user_id in awaited & pages.keys():
            page = pages[user_id]
            page.wait_for_function(f"document.getElementById('table').dataset.version >= {table.version}")
            page.wait_for_selector("[data-act-form]")
            version = page.locator("#table").get_attribute("data-version")
            done.append(act_passively(page))
            page.wait_for_function(f"document.getElementById('table').dataset.version !== '{version}'")
            break
        else:  # only bots are awaited: wait for the worker to act
            page = next(iter(pages.values()))
            page.wait_for_function(f"Number(document.getElementById('table').dataset.version) > {table.version}")
    raise AssertionError(f"no reveal after {done}")


def test_a_player_plays_a_hand_against_bots_with_live_updates(browser, live_server, table_world, contexts):
    organiser = table_world.users["organiser"]
    table = services.table_open(actor=organiser, event=table_world.event, name="Bots", seats=3, turn_seconds=120)
    page = signed_in(browser, live_server.url, organiser, contexts, width=390, height=844)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    page.evaluate("window.__sameDocument = true")
    page.get_by_role("button", name="Take a seat").click()
    page.wait_for_selector(".seat .badge:has-text('you')")
    assert page.locator("#table-error").is_hidden(), page.locator("#table-error").inner_text()
    page.get_by_role("button", name="Fill empty seats").click()
    page.wait_for_selector("text=Sensible bot 2")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector(".cards.hand .card")
    assert page.locator(".cards.hand .card").count() == 5
    page.wait_for_selector("#live-status:has-text('Live')")
    with page.expect_response(lambda r: r.url.endswith("/entropy/") and r.request.method == "POST") as posted:
        done = play_until_reveal(table, {organiser.pk: page})
    assert posted.value.status == 200  # the browser added its randomness to the next deck (RULES 1.7)
    table.refresh_from_db()
    entropy = Game.from_json(table.state, history=table.history).entropy
    mine = next(s.engine_seat for s in table.seats.all() if s.player and s.player.user_id == organiser.pk)
    # The player sees what the server took from their browser, at once (the table's version is unchanged).
    page.wait_for_selector(f"[data-own-next-entropy]:has-text('{entropy[mine]}')", timeout=WAIT)
    assert page.locator("[data-commitment]").inner_text() == Game.from_json(table.state).hand.commitment
    assert done and done[0] == "select"
    reveal = page.locator(".reveal").inner_text()
    assert "won by" in reveal
    log = page.locator(".log").inner_text()
    assert "bot" in log  # the bots' decisions arrived without a reload
    assert page.evaluate("window.__sameDocument") is True
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path="/tmp/table-bots-390.png", full_page=True)
    violations = Axe().run(page).response["violations"]
    serious = [
        (v["id"], [n["target"] for n in v["nodes"]]) for v in violations if v["impact"] in ("serious", "critical")
    ]
    assert serious == []
    assert errors == []


def duel(browser, contexts, table_world, url_a: str, url_b: str, shot: str) -> None:
    """The organiser (on `url_a`) and a member (on `url_b`) sit down and play a hand, live, no reload."""
    organiser, member = table_world.users["organiser"], table_world.users["member"]
    table = services.table_open(actor=organiser, event=table_world.event, name="Duel", seats=2, turn_seconds=120)
    page_a = signed_in(browser, url_a, organiser, contexts)
    page_b = signed_in(browser, url_b, member, contexts)
    page_a.goto(f"{url_a}/tables/{table.pk}/")
    page_b.goto(f"{url_b}/tables/{table.pk}/")
    for page in (page_a, page_b):
        page.evaluate("window.__sameDocument = true")
        page.wait_for_selector("#live-status:has-text('Live')")
    page_b.get_by_role("button", name="Take a seat").click()
    page_a.wait_for_selector("text=Mem")  # live: A sees B sit down
    page_a.get_by_role("button", name="Take a seat").click()
    page_a.get_by_role("button", name="Start the game").click()
    page_b.wait_for_selector(".cards.hand .card")  # live: B's cards arrive without a reload
    page_a.wait_for_selector(".cards.hand .card")
    cards_a = set(page_a.locator(".cards.hand .card").evaluate_all("els => els.map(e => e.dataset.code)"))
    cards_b = set(page_b.locator(".cards.hand .card").evaluate_all("els => els.map(e => e.dataset.code)"))
    assert len(cards_a) >= 4 and len(cards_b) >= 4 and not (cards_a & cards_b) - {"0"}
    play_until_reveal(table, {organiser.pk: page_a, member.pk: page_b})
    won_a, won_b = page_a.locator(".reveal .won").all_inner_texts(), page_b.locator(".reveal .won").all_inner_texts()
    assert won_a == won_b and won_a
    stacks_a = page_a.locator(".seat .stack strong").all_inner_texts()
    assert stacks_a == page_b.locator(".seat .stack strong").all_inner_texts()
    table.refresh_from_db()
    assert [int(s) for s in stacks_a] == Game.from_json(table.state).stacks  # the stacks after the pot was paid
    for page in (page_a, page_b):
        assert page.evaluate("window.__sameDocument") is True
    page_a.screenshot(path=f"/tmp/table-{shot}.png", full_page=True)


def test_two_players_in_two_browsers_play_a_hand(browser, live_server, table_world, contexts):
    if connection.vendor != "postgresql":  # outside CI only: under CI a skip fails the run (tests/conftest.py)
        pytest.skip("two browsers writing at once need PostgreSQL: SQLite's test database locks whole tables")
    duel(browser, contexts, table_world, live_server.url, live_server.url, "duel")


@pytest.fixture
def second_server(live_server):
    """Another server process (uvicorn, ASGI: the async streams) on the same database and Redis."""
    with uvicorn_server(ONLINE_STREAM_SECONDS="20") as address:
        yield address


def test_two_server_processes_one_table(browser, live_server, second_server, table_world, contexts):
    # Two server processes share PostgreSQL and Redis: without them this test fails (it never skips).
    if not settings.REDIS_URL:  # outside CI only: under CI a skip fails the run (tests/conftest.py)
        pytest.skip("the two-process test needs REDIS_URL (Redis pub/sub between the processes)")
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql", "it needs PostgreSQL"
    duel(browser, contexts, table_world, live_server.url, second_server, "two-processes")


def test_keyboard_shortcuts_and_the_bet_slider_presets(browser, live_server, table_world, contexts):
    organiser, member = table_world.users["organiser"], table_world.users["member"]
    table = services.table_open(
        actor=organiser, event=table_world.event, name="Keys", seats=2, turn_seconds=120, preset="better"
    )
    services.seat_take(actor=organiser, table=table)
    services.seat_take(actor=member, table=table)
    services.table_start(actor=organiser, table=table)
    pages = {}
    for user in (organiser, member):
        page = signed_in(browser, live_server.url, user, contexts, width=390, height=844)
        page.goto(f"{live_server.url}/tables/{table.pk}/")
        page.wait_for_selector("#live-status:has-text('Live')")
        pages[user.pk] = page
    # Select phase: both choose with the keyboard (S), nothing ticked.
    for page in pages.values():
        page.wait_for_selector("[data-act-form] button[value=select]")
        version = page.locator("#table").get_attribute("data-version")
        page.keyboard.press("s")
        page.wait_for_function(f"document.getElementById('table').dataset.version !== '{version}'")
    # The first betting decision: a bet or raise slider bounded by the rules, with its presets.
    for _ in range(20):
        awaited = awaited_users(table)
        assert awaited, "the hand ended before a betting decision"
        user_id = next(iter(awaited))
        page = pages[user_id]
        page.wait_for_function(f"Number(document.getElementById('table').dataset.version) >= {table.version}")
        # The awaited seat's buttons, once its page shows them (a swap may still be on its way).
        page.wait_for_selector("[data-act-form] button[data-key]")
        if page.locator("[data-amount]").count():
            break
        keys = page.locator("[data-act-form] button[data-key]").evaluate_all("els => els.map(e => e.dataset.key)")
        key = next(k for k in ("s", "c", "k") if k in keys)  # select, call, check: whichever is offered
        version = page.locator("#table").get_attribute("data-version")
        page.keyboard.press(key)
        page.wait_for_function(f"document.getElementById('table').dataset.version !== '{version}'")
    else:
        raise AssertionError("no bet or raise was offered")
    table.refresh_from_db()
    game = Game.from_json(table.state)
    seat = next(s for s in table.seats.all() if s.player and s.player.user_id == user_id)
    legal = game.legal_actions(seat.engine_seat)
    verb = "bet" if legal.can_bet else "raise"
    low, high = (legal.min_bet, legal.max_bet) if verb == "bet" else (legal.min_raise_to, legal.max_raise_to)
    slider = page.locator("[data-amount]")
    assert (int(slider.get_attribute("min")), int(slider.get_attribute("max"))) == (low, high)
    presets = [int(v) for v in page.locator("[data-preset]").evaluate_all("els => els.map(e => e.dataset.preset)")]
    assert presets[0] == low and presets[-1] == high and all(low <= p <= high for p in presets)
    page.locator(".preset", has_text="max").click()
    assert int(slider.input_value()) == high and page.locator("[data-amount-out]").inner_text() == str(high)
    page.locator(".preset", has_text="min").click()
    assert int(slider.input_value()) == low
    version = page.locator("#table").get_attribute("data-version")
    page.keyboard.press("b")  # B: bet or raise the amount on the slider
    page.wait_for_function(f"document.getElementById('table').dataset.version !== '{version}'")
    action = OnlineAction.objects.filter(table=table).order_by("-id").first()
    assert (action.verb, action.amount, action.seat.player.user_id) == (verb, low, user_id)
    text = f"bet {low}" if verb == "bet" else f"raised to {low}"
    for other in pages.values():  # everyone sees it live
        other.wait_for_selector(f".log li:has-text('{text}')")


def test_the_lobby_offers_only_the_chosen_events_variant_and_opens_a_classic_table(browser, live_server, contexts):
    """The demo's three leagues: choosing an event keeps only its variant's rules choosable (a table plays its
    league's variant), and a Classic table opened with a Classic preset shows the Classic parts of the page."""
    import io

    from django.contrib.auth import get_user_model

    from league.demo import DEMO_ORGANISER
    from tournaments.demo import load_demo_data

    load_demo_data(io.StringIO())
    organiser = get_user_model().objects.get(username=DEMO_ORGANISER)
    page = signed_in(browser, live_server.url, organiser, contexts, width=390, height=844)
    page.goto(f"{live_server.url}/tables/")
    # On a phone the lobby lists each table as a card of labelled lines, not seven columns to scroll sideways.
    assert page.locator("table.lobby thead").is_hidden()
    assert page.locator("table.lobby").evaluate("t => t.scrollWidth <= t.clientWidth")
    choosable = (
        "[...document.querySelectorAll('select[name=preset] option')]"
        ".filter(o => !o.disabled && !o.parentElement.disabled).map(o => o.value)"
    )
    events = page.locator("select[name=event] option")
    variants = dict(
        zip(events.all_inner_texts(), events.evaluate_all("os => os.map(o => o.dataset.variant)"), strict=True)
    )
    spike_event = next(name for name, variant in variants.items() if variant == "corellian_spike")
    page.select_option("select[name=event]", label=spike_event)
    assert page.evaluate(choosable) == ["", "galaxy_series", "cantina_spike"]
    page.select_option("select[name=preset]", "cantina_spike")
    classic_event = next(name for name, variant in variants.items() if variant == "classic")
    page.select_option("select[name=event]", label=classic_event)
    assert page.evaluate(choosable) == ["", "classic", "universe"]
    assert page.locator("select[name=preset]").input_value() == ""  # the Spike preset chosen before is dropped
    page.select_option("select[name=preset]", label="Classic (Universe)")
    page.fill("input[name=name]", "Universe table")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_selector("h1:has-text('Universe table')")
    assert page.locator("text=Classic (Universe)").count() >= 1
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def test_without_javascript_the_table_says_it_is_not_live_and_with_it_says_live(
    browser, live_server, table_world, contexts
):
    organiser = table_world.users["organiser"]
    table = services.table_open(actor=organiser, event=table_world.event, name="Quiet", seats=3, turn_seconds=120)
    client = Client()
    client.force_login(organiser)
    context = browser.new_context(java_script_enabled=False)
    contexts.append(context)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    still = context.new_page()
    still.goto(f"{live_server.url}/tables/{table.pk}/")
    text = still.locator(".live-status").inner_text()
    assert "Not live without JavaScript: reload the page" in text and "Connecting" not in text
    page = signed_in(browser, live_server.url, organiser, contexts)
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    page.wait_for_selector("#live-status:has-text('Live')")
    assert "Not live without JavaScript" not in page.locator(".live-status").inner_text()
