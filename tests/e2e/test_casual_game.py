"""Play now, alone (issue 23): a brand-new account signs up and, with no organiser and no league, plays a whole casual
game against bots at a phone's width on the embedded default (SQLite, the Celery worker in its own process; the bots
quick, `tests/config/fast_bots_settings.py`), then finds it in My games with its hand history and fair-deck page; no
league's standings, ledger or chip history changed. Screenshots of the new pages at 390 and 1280 px go to
tests/e2e/screenshots/casual/ (git-ignored)."""

import json
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.test_embedded_game import ROOT, WAIT, embedded_stack, phase_of
from tests.e2e.test_tables import act_passively

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]
SHOTS = ROOT / "tests" / "e2e" / "screenshots" / "casual"

LEAGUE_ROWS = """
import django, json; django.setup()
from games.models import Game, Seat
from league.models import EventResult, LedgerEntry, Player, Standing
print(json.dumps([m.objects.count() for m in (Game, Seat, LedgerEntry, EventResult, Standing, Player)]))
"""

OUTCOME = """
import django, json; django.setup()
from games.online.models import OnlineTable
t = OnlineTable.objects.get(pk={pk})
print(json.dumps({{"status": t.status, "event": t.event_id, "game": t.game_id, "outcome": t.outcome}}))
"""


@pytest.fixture(scope="module")
def shared_embedded_site(tmp_path_factory, migrated_sqlite):
    """One embedded stack for the module's tests (each signs up its own accounts), its bots quick
    (`tests/config/fast_bots_settings.py`: a twentieth to a tenth of a second where the default pauses 0.8 to 2 s
    to look human): the games are the same games, in a fraction of the waiting."""
    folder = tmp_path_factory.mktemp("embedded")
    with embedded_stack(folder, migrated_sqlite, "tests.config.fast_bots_settings") as site:
        yield site


def act_on_the_table(page, act, version: str | None) -> bool:
    """`act(page)` on the decision on screen; whether it acted. A quick bot's move can re-render the table while
    the helper reads or clicks the form: when the table's version moved on meanwhile, the caller's loop looks at the
    new rendering instead. An action that fails on a table that did not move on still fails the test."""
    try:
        act(page)
    except (AssertionError, PlaywrightError):
        if page.locator("#table").get_attribute("data-version") == version:
            raise
        return False
    return True


def _rows(python) -> list[int]:
    return json.loads(python(LEAGUE_ROWS).strip().splitlines()[-1])


def test_a_new_account_plays_a_casual_game_against_bots_to_the_end_at_390px(browser, shared_embedded_site):
    url, _, python = shared_embedded_site
    SHOTS.mkdir(parents=True, exist_ok=True)
    before = _rows(python)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT)
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{url}/")
        page.screenshot(path=str(SHOTS / "home-signed-out-390.png"), full_page=True)
        page.goto(f"{url}/accounts/signup/")
        page.fill("input[name=username]", "rookie")
        page.fill("input[name=email]", "rookie@example.org")
        page.fill("input[name=password1]", "kessel-run-in-12")
        page.fill("input[name=password2]", "kessel-run-in-12")
        page.get_by_role("button", name="Sign Up").click()
        page.wait_for_url(f"{url}/")
        page.screenshot(path=str(SHOTS / "home-play-now-390.png"), full_page=True)
        # Play now from the home page: Halcyon (short), heads-up against one bot, a short turn time.
        page.select_option("#play-now select[name=game]", "coruscant_shift:halcyon")
        page.locator("#play-now summary").click()
        page.select_option("#play-now select[name=seats]", "2")
        page.fill("#play-now input[name=turn_seconds]", "20")
        page.locator("#play-now-button").click()
        page.wait_for_url("**/tables/*/")
        table_id = int(page.url.rstrip("/").rsplit("/", 1)[-1])
        page.wait_for_selector("#casual-invite")
        page.screenshot(path=str(SHOTS / "casual-open-390.png"), full_page=True)
        page.get_by_role("button", name="Start the game").click()
        page.wait_for_selector(".cards.hand .card")
        page.wait_for_selector("text=Sensible bot 2")
        deadline = time.monotonic() + 420
        while time.monotonic() < deadline:
            if phase_of(page) == "game-over":
                break
            version = page.locator("#table").get_attribute("data-version")
            if page.locator("[data-act-form]").count():
                act_on_the_table(page, act_passively, version)
            page.wait_for_function(f"document.getElementById('table').dataset.version !== '{version}'", timeout=WAIT)
        assert phase_of(page) == "game-over", "the casual game did not end in time"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(SHOTS / "casual-game-over-390.png"), full_page=True)
        result = json.loads(python(OUTCOME.format(pk=table_id)).strip().splitlines()[-1])
        assert result["status"] == "finished" and result["event"] is None and result["game"] is None
        assert sum(result["outcome"]["stacks"].values()) == 2 * 10  # halcyon: ten credits each
        # My games: the game, its result, its hand history and its fair decks.
        page.get_by_role("link", name="My games").first.click()
        page.wait_for_url("**/tables/mine/")
        games = page.locator("#casual-games")
        assert games.locator(f'a[href="/tables/{table_id}/"]').count() == 1 and "Result:" in games.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(SHOTS / "my-games-390.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=str(SHOTS / "my-games-1280.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        games.get_by_role("link", name="Fair decks").click()
        page.wait_for_selector("#seeds-verdict")
        assert "match the commitments" in page.locator("#seeds-verdict").inner_text()
        page.go_back()
        page.locator("#casual-games").get_by_role("link", name="Hand history").click()
        page.wait_for_selector("#history")
        assert "Hand 1 of" in page.locator("#history").inner_text()
        page.goto(f"{url}/")
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=str(SHOTS / "home-play-now-1280.png"), full_page=True)
        page.goto(f"{url}/tables/")
        page.screenshot(path=str(SHOTS / "lobby-1280.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(SHOTS / "lobby-390.png"), full_page=True)
        assert not errors, errors
    finally:
        context.close()
    assert _rows(python) == before  # no league game, seat, ledger line, result, standings row or player


def act_cheaply(page) -> str:
    """The quickest way through the decision on screen, in any variant: call the hand when the rules allow it
    (Classic), keep the cards (select what was dealt, stand), spike the card offered, check, call, or fold."""
    form = page.locator("[data-act-form]")
    call_hand = form.locator("[data-call-hand]")
    if call_hand.count():
        call_hand.check()
    if form.locator('button[value="select"]').count():
        return act_passively(page)
    for verb in ("stand", "spike", "check", "call", "fold"):
        button = form.locator(f'button[value="{verb}"]')
        if button.count():
            button.first.click()
            return verb
    raise AssertionError(f"no cheap action among: {form.inner_text()}")


def test_new_accounts_play_short_corellian_spike_and_classic_games_against_bots_to_the_end_at_390px(
    browser,
    shared_embedded_site,
):
    """The other two variants, each by a brand-new account, chosen on the play-now form with "Length: a short
    game: 3 hands", heads-up against a bot: each ends by itself, stays out of every league, and is in My games."""
    url, _, python = shared_embedded_site
    SHOTS.mkdir(parents=True, exist_ok=True)
    before = _rows(python)
    for n, (game, label) in enumerate((("corellian_spike:galaxy_series", "spike"), ("classic:classic", "classic"))):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        try:
            page = context.new_page()
            page.set_default_timeout(WAIT)
            errors = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))  # noqa: B023 (read before the loop moves on)
            page.goto(f"{url}/accounts/signup/")
            page.fill("input[name=username]", f"newcomer{n}")
            page.fill("input[name=email]", f"newcomer{n}@example.org")
            page.fill("input[name=password1]", "kessel-run-in-12")
            page.fill("input[name=password2]", "kessel-run-in-12")
            page.get_by_role("button", name="Sign Up").click()
            page.wait_for_url(f"{url}/")
            page.select_option("#play-now select[name=game]", game)
            page.select_option("#play-now select[name=hands]", "3")
            page.locator("#play-now summary").click()
            page.select_option("#play-now select[name=seats]", "2")
            page.locator("#play-now-button").click()
            page.wait_for_url("**/tables/*/")
            table_id = int(page.url.rstrip("/").rsplit("/", 1)[-1])
            assert "ends after 3 hands" in page.locator(".table-head").inner_text()
            page.get_by_role("button", name="Start the game").click()
            page.wait_for_selector(".cards.hand .card")
            assert "Hand 1 of 3" in page.locator(".hand-info").inner_text()
            acted, shot = 0, False
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline and phase_of(page) != "game-over":
                version = page.locator("#table").get_attribute("data-version")
                if page.locator("[data-act-form]").count():
                    if not shot:
                        page.screenshot(path=str(SHOTS / f"{label}-acting-390.png"), full_page=True)
                        shot = True
                    acted += act_on_the_table(page, act_cheaply, version)
                page.wait_for_function(
                    f"document.getElementById('table').dataset.version !== '{version}'", timeout=WAIT
                )
            assert phase_of(page) == "game-over", f"the {label} game did not end in time"
            assert acted >= 1 and page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            page.screenshot(path=str(SHOTS / f"{label}-game-over-390.png"), full_page=True)
            result = json.loads(python(OUTCOME.format(pk=table_id)).strip().splitlines()[-1])
            assert result["status"] == "finished" and result["event"] is None and result["game"] is None
            assert sum(result["outcome"]["stacks"].values()) == 2 * 100  # a hundred credits each
            page.locator(".user-nav").get_by_role("link", name="My games").click()
            page.wait_for_url("**/tables/mine/")
            games = page.locator("#casual-games")
            assert games.locator(f'a[href="/tables/{table_id}/"]').count() == 1 and "Result:" in games.inner_text()
            games.get_by_role("link", name="Fair decks").click()
            assert "match the commitments" in page.locator("#seeds-verdict").inner_text()
            page.go_back()
            page.locator("#casual-games").get_by_role("link", name="Hand history").click()
            assert "Hand 1 of" in page.locator("#history").inner_text()  # 3, or fewer if one player lost all
            assert not errors, errors
        finally:
            context.close()
    assert _rows(python) == before  # no league game, seat, ledger line, result, standings row or player
