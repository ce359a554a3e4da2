"""Real-cards tables (games/tabletop): a host and one phone (a guest who joins by the table's code), both 390 px
wide, play a Coruscant Shift hand with real cards to the reveal: live updates on both, only legal buttons, cards
tapped on the deck's picture, and the explanation of the pot. Screenshots at 390 and 1280 px go to
tests/e2e/screenshots/tabletop/ (git-ignored)."""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from games.tabletop import services
from games.tabletop.models import RealTable
from tests.factories import UserFactory, client_as

SHOTS = Path(__file__).resolve().parents[2] / "tests" / "e2e" / "screenshots" / "tabletop"
WAIT = 20_000

pytestmark = pytest.mark.django_db(transaction=True)


def _take_turn(page) -> bool:
    """Take this phone's own turn if it has one (keep two cards, add none, check or call); True if it did."""
    box = page.locator(".tt-turn-box", has=page.locator("h3", has_text="Your turn"))
    if not box.count():
        return False
    count = box.locator("input[name=count]")
    if count.count():
        phase = page.locator(".tt-hand").inner_text()
        count.first.fill("0" if "mprove" in phase or "add" in box.inner_text() else "2")
        box.locator("button[data-verb=select]").first.click()
        return True
    for verb in ("check", "call"):
        button = box.locator(f"button[data-verb={verb}]")
        if button.count():
            button.first.click()
            return True
    return False


def _version(page) -> str:
    return page.locator("#tabletop .tt").get_attribute("data-version")


@dataclass
class HostAndPhone:
    table: RealTable
    host_page: Any
    phone: Any
    errors: list[str]  # the pages' script errors
    contexts: list  # closed at the end; a test may add its own


@contextmanager
def host_and_phone(browser, live_server) -> Iterator[HostAndPhone]:
    """A Cantina table without dice hosted by `hostess`, her page open at 390 px and live, and a second 390 px
    browser (the phone) not yet on it."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    host = UserFactory(username="hostess")
    table = services.realtable_open(
        actor=host, variant="coruscant_shift", preset="cantina", starting_credits=100, has_dice=False
    )
    contexts = []
    try:
        host_context = browser.new_context(viewport={"width": 390, "height": 844})
        contexts.append(host_context)
        host_context.add_cookies(
            [{"name": "sessionid", "value": client_as(host).cookies["sessionid"].value, "url": live_server.url}]
        )
        phone_context = browser.new_context(viewport={"width": 390, "height": 844})
        contexts.append(phone_context)
        errors: list[str] = []
        host_page, phone = host_context.new_page(), phone_context.new_page()
        for page in (host_page, phone):
            page.set_default_timeout(WAIT)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        host_page.goto(f"{live_server.url}/tabletop/{table.code}/")
        host_page.wait_for_selector("#tt-live:has-text('Live')")
        yield HostAndPhone(table, host_page, phone, errors, contexts)
    finally:
        for context in contexts:
            context.close()


def test_a_host_and_a_phone_play_a_coruscant_hand_to_the_reveal(browser, live_server):
    with host_and_phone(browser, live_server) as tabletop:
        table, host_page, phone, errors = tabletop.table, tabletop.host_page, tabletop.phone, tabletop.errors
        host_page.screenshot(path=str(SHOTS / "table-open-390.png"), full_page=True)
        # The phone types the code (lower case) and joins by name.
        phone.goto(f"{live_server.url}/tabletop/")
        phone.screenshot(path=str(SHOTS / "home-390.png"), full_page=True)
        phone.fill("#tt-code", table.code.lower())
        phone.get_by_role("button", name="Join").click()
        phone.wait_for_url(f"**/tabletop/{table.code}/")
        phone.fill("#tt-name", "Bob")
        phone.get_by_role("button", name="Take a seat").click()
        phone.wait_for_selector(".tt-seats li:has-text('Bob') strong:has-text('(you)')")
        # The host's page hears of Bob through its live stream, without a reload.
        host_page.wait_for_selector(".tt-seats li:has-text('Bob')")
        host_page.get_by_role("button", name="Start the game").click()
        phone.wait_for_selector(".tt-prompt")
        assert phone.get_by_role("button", name="Dealt: done").count() == 0  # the host deals, not Bob
        host_page.get_by_role("button", name="Dealt: done").click()
        host_page.get_by_role("button", name="Roll for us").click()
        phone.wait_for_selector(".tt-turn-box h3:has-text('Your turn')")
        phone.screenshot(path=str(SHOTS / "turn-390.png"), full_page=True)
        # Each phone takes its own turns until the reveal.
        for _ in range(30):
            if host_page.locator("text=tap them").count() or phone.locator("text=tap them").count():
                break
            before = (_version(host_page), _version(phone))
            acted = _take_turn(phone) or _take_turn(host_page)
            if acted:
                host_page.wait_for_function(
                    "v => document.querySelector('#tabletop .tt').dataset.version !== v", arg=before[0]
                )
            else:
                phone.wait_for_function(
                    "v => document.querySelector('#tabletop .tt').dataset.version !== v", arg=before[1]
                )
        phone.wait_for_selector("text=Bob shows 2 cards: tap them")
        assert phone.locator("text=hostess shows 2 cards").count() == 0  # Bob enters only his own hand
        phone.screenshot(path=str(SHOTS / "reveal-390.png"), full_page=True)
        phone.locator(".tt-pick:has(input[value='+5s'])").click()
        phone.locator(".tt-pick:has(input[value='-5s'])").click()
        phone.get_by_role("button", name="Show Bob's hand").click()
        host_page.wait_for_selector("text=Bob shows 2 cards: tap them", state="detached")  # heard live
        # A card Bob showed cannot be tapped again.
        assert host_page.locator(".tt-pick:has(input[value='+5s']) input").is_disabled()
        host_page.locator(".tt-pick:has(input[value='+9c'])").click()
        host_page.locator(".tt-pick:has(input[value='+8t'])").click()
        host_page.get_by_role("button", name="Show hostess's hand").click()
        for page in (host_page, phone):
            page.wait_for_selector("text=Why the pots went where they did")
        phone.screenshot(path=str(SHOTS / "explained-390.png"), full_page=True)
        host_page.set_viewport_size({"width": 1280, "height": 900})
        host_page.screenshot(path=str(SHOTS / "explained-1280.png"), full_page=True)
        table.refresh_from_db()
        game = services.load_game(RealTable.objects.get(pk=table.pk))
        assert game.game.total_credits() == 200 and game.results()
        assert errors == []
