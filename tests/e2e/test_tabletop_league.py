"""A league real-cards table in a browser, every device 390 px wide: the organiser opens it from the event's
manage page, two members join on their phones by the table's code, the organiser's device plays a short game to
its end (a buy-in of 4 and the pots named to Ann: two hands), and the result shows in the league's standings and
on the table's hand history. No page scrolls sideways or logs an error."""

from pathlib import Path

import pytest

from games.tabletop.models import RealTable
from league.models import Standing
from tests.e2e.conftest import session_cookie
from tests.league.conftest import eager_tasks  # noqa: F401 (autouse: the live server's standings task runs at once)
from tests.tabletop.league_helpers import league_world

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WAIT = 20_000


def _fits(page) -> None:
    """No sideways scroll, and no serious or critical accessibility fault (axe, as the page sweep checks)."""
    import axe_playwright_python

    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0, page.url
    page.evaluate((Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text())
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    faults = [v["id"] for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert faults == [], (page.url, faults)


def _version(page) -> str:
    return page.locator("#tabletop .tt").get_attribute("data-version")


def _tap(page, button) -> None:
    """Tap a table button and wait for the table to move on (its version changes)."""
    before = _version(page)
    button.click()
    page.wait_for_function(
        "v => document.querySelector('#tabletop .tt').dataset.version !== v", arg=before, timeout=WAIT
    )


def _step(page) -> bool:
    """The organiser's next tap for the table (deal, roll, each seat's turn, naming Ann the winner); False when
    the game is over."""
    prompt = page.locator(".tt-prompt")
    if page.locator("#tt-league:has-text('booked in the league')").count():
        return False
    for name in ("Dealt: done", "Roll for us"):
        button = prompt.get_by_role("button", name=name)
        if button.count():
            _tap(page, button.first)
            return True
    box = prompt.locator(".tt-turn-box").first
    if box.count():
        count = box.locator("input[name=count]")
        if count.count():
            phase = page.locator(".tt-hand").inner_text()
            count.first.fill("0" if "mprove" in phase else "2")
            _tap(page, box.locator("button[data-verb=select]").first)
            return True
        for verb in ("check", "call"):
            button = box.locator(f"button[data-verb={verb}]")
            if button.count():
                _tap(page, button.first)
                return True
    naming = prompt.locator("details.tt-name")
    if naming.count():
        naming.locator("summary").click()
        form = naming.locator("form").first
        form.get_by_label("Ann").check()
        _tap(page, form.get_by_role("button", name="Name the winners"))
        return True
    raise AssertionError(f"no step to take: {prompt.inner_text()}")


def test_an_organiser_opens_a_league_table_two_phones_join_and_the_result_reaches_the_standings(browser, live_server):
    world = league_world()
    contexts, errors = [], []
    try:
        pages = {}
        for who, user in (("organiser", world.organiser), ("ann", world.ann), ("bob", world.bob)):
            context = browser.new_context(viewport=PHONE)
            contexts.append(context)
            context.add_cookies([session_cookie(user, live_server.url)])
            page = context.new_page()
            page.set_default_timeout(WAIT)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            pages[who] = page
        organiser = pages["organiser"]
        organiser.goto(f"{live_server.url}/manage/events/{world.event.pk}/")
        _fits(organiser)
        form = organiser.locator("form[data-action=open-real-table]")
        form.get_by_label("No dice: the site rolls for us").check()
        form.get_by_role("button", name="Open a real-cards table").click()
        organiser.wait_for_url("**/tabletop/*/")
        table = RealTable.objects.get(event=world.event)
        assert table.starting_credits == 4
        organiser.wait_for_selector("#tt-live:has-text('Live')")
        _fits(organiser)
        # Two members join on their phones: one types the code, the other opens the table's address (its QR).
        ann, bob = pages["ann"], pages["bob"]
        ann.goto(f"{live_server.url}/tabletop/")
        ann.fill("#tt-code", table.code.lower())
        ann.get_by_role("button", name="Join").click()
        ann.wait_for_url(f"**/tabletop/{table.code}/")
        ann.get_by_role("button", name="Take a seat").click()
        ann.wait_for_selector(".tt-seats li:has-text('Ann') strong:has-text('(you)')")
        bob.goto(f"{live_server.url}/tabletop/{table.code}/")
        bob.get_by_role("button", name="Take a seat").click()
        bob.wait_for_selector(".tt-seats li:has-text('Bob') strong:has-text('(you)')")
        organiser.wait_for_selector(".tt-seats li:has-text('Bob')")  # heard live
        _fits(ann)
        organiser.get_by_role("button", name="Start the game").click()
        organiser.wait_for_selector(".tt-prompt")
        # One device plays the game to its end.
        for _ in range(60):
            if not _step(organiser):
                break
        else:
            raise AssertionError("the game did not end")
        table.refresh_from_db()
        assert table.status == "finished" and table.game_id is not None
        bob.wait_for_selector("#tt-league:has-text('booked in the league')")  # the phones hear it too
        _fits(bob)
        ann.goto(f"{live_server.url}/tables/mine/")  # My games lists the table with its status
        ann.wait_for_selector(f"#real-cards-tables li[data-code='{table.code}']:has-text('Finished')")
        _fits(ann)
        # The league's standings show the result: Ann first, Bob second.
        organiser.goto(f"{live_server.url}/leagues/{world.league.slug}/")
        rows = organiser.locator("#standings tbody tr")
        assert rows.count() == 2
        assert [rows.nth(i).locator("td").nth(1).inner_text() for i in range(2)] == ["Ann", "Bob"]
        assert Standing.objects.filter(league=world.league, scope="all").count() == 2
        _fits(organiser)
        # The table's hand history, from the league game's page.
        organiser.goto(f"{live_server.url}/games/{table.game_id}/")
        organiser.locator("a[data-action=real-cards-history]").click()
        organiser.wait_for_selector("h1:has-text('Hand history')")
        assert "the table named Ann" in organiser.locator("main").inner_text()
        organiser.locator("a[data-action=previous-hand]").click()
        organiser.wait_for_selector("strong[aria-current=page]:has-text('1')")
        _fits(organiser)
        assert errors == []
    finally:
        for context in contexts:
            context.close()
