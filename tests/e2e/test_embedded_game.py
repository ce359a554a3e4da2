"""A whole game against bots on the embedded default, as `make run` starts it: a SQLite file, no Redis, a
Celery worker process (`celery -A config worker --pool solo`) on kombu's filesystem transport, and
`manage.py runserver` with DEBUG on; the browser signs in through the sign-in form and plays on a phone-sized
screen. What differs from `make run`: a fresh SQLite file (a copy of one migrated once per run) with a small
league instead of the demo data, a free port, `--noreload`, and a 2 s pause between hands instead of 5 s
(`ONLINE_HAND_PAUSE_SECONDS`).

A screenshot of each phase is saved in `tests/e2e/screenshots/tables/` (git-ignored) for review.
"""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.e2e.test_tables import act_passively

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]
ROOT = Path(__file__).resolve().parent.parent.parent
SHOTS = ROOT / "tests" / "e2e" / "screenshots" / "tables"
WAIT = 60_000

SETUP = """
import django; django.setup()
from datetime import date
from django.contrib.auth import get_user_model
from django.utils import timezone
from games.online import services
from league.models import Event, League, Membership, Player, Role, Season
user = get_user_model().objects.create_user("ann", "ann@example.org", "a-long-test-password")
# Ann plays alone against bots, and bots are never league players: a one-player event counts where min_players is 1.
league = League.objects.create(name="Embedded league", slug="embedded", preset="halcyon", min_players=1)
ann = Player.objects.create(display_name="Ann", user=user)
Membership.objects.create(league=league, player=ann, role=Role.ORGANISER)
season = Season.objects.create(league=league, name="One", starts_on=date.today())
event = Event.objects.create(season=season, name="Bot night", starts_at=timezone.now())
table = services.table_open(actor=user, event=event, name="Against bots", seats=3, turn_seconds=60, preset="halcyon")
print(table.pk)
"""

RESULT = """
import django, json; django.setup()
from games.online.models import OnlineTable
t = OnlineTable.objects.select_related("game").get(pk={pk})
seats = list(t.game.seats.order_by("place").values_list("player__display_name", "place", "final_credits"))
ann = t.game.seats.get(player__display_name="Ann").player_id
# Whether Ann was asked to improve in some hand (a second selection): not when the others folded in the first betting
# round of every hand, which depends on the game's random seed.
hands = t.game.replay_document["hands"] if t.game.replay_document else []
ann_selects = [sum(a.get("player") == "Ann" and a.get("do") == "select" for a in h.get("actions", [])) for h in hands]
improved = any(count > 1 for count in ann_selects)
print(json.dumps({{"status": t.status, "game": t.game.status, "replay": bool(t.game.replay_document), "seats": seats,
                  "event": t.event_id, "game_id": t.game_id, "ann": ann, "improved": improved,
                  "bots": t.game.replay_result.get("bots", {{}})}}))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def embedded_site(tmp_path, migrated_sqlite):
    """The embedded stack in its own processes; yields (base url, table id, environment)."""
    with embedded_stack(tmp_path, migrated_sqlite) as site:
        yield site


@contextmanager
def embedded_stack(tmp_path: Path, migrated_sqlite, settings_module: str = "config.settings.base"):
    """The stack on a copy of the run's migrated SQLite database (`migrated_sqlite` in tests/conftest.py, made by
    `manage.py migrate` with these settings), as `make run` leaves it after its `migrate`. `settings_module` may
    change what the tests need changed (the casual games' quicker bots), never the database's schema."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL", "CI")}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        EMBEDDED_BROKER_DIR=str(tmp_path / "broker"),
        DJANGO_SETTINGS_MODULE=settings_module,
        DEBUG="true",
        ONLINE_HAND_PAUSE_SECONDS="2",
    )

    def python(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=180, check=False
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    migrated_sqlite(tmp_path / "db.sqlite3")
    table_id = int(python("-c", SETUP).strip().splitlines()[-1])
    port = free_port()
    logs = tmp_path / "logs.txt"
    with open(logs, "w") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "--loglevel", "WARNING"],
            env=env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            env=env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:  # bounded wait for the server to answer
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline and server.poll() is None, logs.read_text()[-3000:]
            time.sleep(0.2)
        yield url, table_id, (lambda code: python("-c", code))
    finally:
        for process in (server, worker):
            process.terminate()
        for process in (server, worker):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def phase_of(page) -> str | None:
    """The phase on screen: select, bets, improve, the reveal (shown through the pause between hands), game over."""
    if page.locator(".standings").count():
        return "game-over"
    phase = page.locator(".hand-info .phase")
    if page.locator(".reveal").count():
        quiet = page.locator(".turn").count() == 0 and not page.locator("[data-act-form]").count()
        return "reveal-between-hands" if quiet else None
    if not phase.count():
        return None
    text = phase.inner_text().lower()
    return "bets" if "betting" in text else text.strip()


def test_a_whole_game_against_bots_on_the_embedded_default(browser, embedded_site):
    url, table_id, python = embedded_site
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT)
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{url}/accounts/login/")
        page.fill('input[name="login"]', "ann")
        page.fill('input[name="password"]', "a-long-test-password")
        page.locator('form button[type="submit"]').last.click()
        page.wait_for_load_state()
        page.goto(f"{url}/tables/{table_id}/")
        page.get_by_role("button", name="Take a seat").click()
        page.wait_for_selector(".seat .badge:has-text('you')")
        page.get_by_role("button", name="Fill empty seats").click()
        page.wait_for_selector("text=Sensible bot 2")
        page.get_by_role("button", name="Start the game").click()
        page.wait_for_selector(".cards.hand .card")
        page.wait_for_selector("#live-status:has-text('Live')")
        page.evaluate("window.__sameDocument = true")
        shots: dict[str, str] = {}
        acted = 0
        deadline = time.monotonic() + 420
        while time.monotonic() < deadline:
            phase = phase_of(page)
            if phase and phase not in shots:
                path = SHOTS / f"{len(shots) + 1}-{phase}-390.png"
                page.screenshot(path=str(path), full_page=True)
                shots[phase] = path.name
            if phase == "game-over":
                break
            if page.locator("[data-act-form]").count():
                version = page.locator("#table").get_attribute("data-version")
                act_passively(page)
                acted += 1
                page.wait_for_function(f"document.getElementById('table').dataset.version !== '{version}'")
            else:
                version = page.locator("#table").get_attribute("data-version")
                page.wait_for_function(
                    f"document.getElementById('table').dataset.version !== '{version}'", timeout=WAIT
                )
        assert "game-over" in shots, f"the game did not end in time; phases seen: {list(shots)}"
        # The reveal stays on screen through the pause between hands; the next hand arrives by itself.
        assert {"select", "bets", "reveal-between-hands", "game-over"} <= shots.keys(), shots
        assert acted >= 3 and page.evaluate("window.__sameDocument") is True  # live all along, no reload
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=str(SHOTS / "game-over-1280.png"), full_page=True)
        result = json.loads(python(RESULT.format(pk=table_id)).strip().splitlines()[-1])
        # Whenever the game asked Ann to improve, the improve phase was on screen (whether it did depends on the
        # deals: the bots may fold every hand out in its first betting round).
        assert "improve" in shots or not result["improved"], (shots, result)
        assert result["status"] == "finished" and result["game"] == "finished" and result["replay"]
        assert result["seats"][0][1] == 1 and len(result["seats"]) == 1  # Ann, first among people; bots are no seats
        bots = sum(bot["final_credits"] for bot in result["bots"].values())  # the house's, on the game's record
        assert sum(credits for _, _, credits in result["seats"]) + bots == 3 * 10  # halcyon: ten credits each
        standings = page.locator(".standings").inner_text()
        assert result["seats"][0][0] in standings
        # Every hand can be opened afterwards, and every deck checked against its commitment in this browser.
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{url}/tables/{table_id}/seeds/")
        page.wait_for_selector("#seeds-verdict")
        hands = page.locator("#seeds tbody tr").count()
        assert hands >= 3 and "match the commitments" in page.locator("#seeds-verdict").inner_text()
        page.wait_for_function(f"document.querySelectorAll('[data-browser-checked=ok]').length === {hands}")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(SHOTS / "seeds-390.png"), full_page=True)
        page.goto(f"{url}/tables/{table_id}/hands/")
        page.wait_for_selector("#history")
        assert f"Hand 1 of {hands}" in page.locator("#history").inner_text()
        page.locator("#history-forward").click()
        page.wait_for_selector("#history:has-text('Step 2 of')")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(SHOTS / "hands-390.png"), full_page=True)
        # The league's pages on SQLite (their PostgreSQL-only fast paths fall back), signed in and anonymous.
        pages = ["/leagues/embedded/", f"/players/{result['ann']}/", f"/events/{result['event']}/"]
        pages.append(f"/games/{result['game_id']}/")
        for signed_in in (True, False):
            if not signed_in:
                context.clear_cookies()
            for path in pages:
                answer = page.goto(f"{url}{path}")
                assert answer is not None and answer.status == 200, (path, signed_in, answer and answer.status)
                assert "Ann" in page.locator("main").inner_text(), path
        assert errors == []
    finally:
        context.close()
