"""The table page's first-visit guide in a real browser: shown on a first visit, pointing at the rules page; gone
after "Got it", also after a reload (localStorage); back in a fresh browser. The rules page's phase anchors land."""

import pytest

from games.online import services
from tests.e2e.conftest import session_cookie
from tests.league.conftest import build_world

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_guide_shows_once_until_dismissed_and_links_the_rules(browser, live_server, settings):
    settings.ONLINE_STREAM_SECONDS = 5
    world = build_world()
    world.event.status = "planned"
    world.event.save()
    table = services.table_open(actor=world.users["organiser"], event=world.event, name="Guide table", seats=2)
    url = f"{live_server.url}/tables/{table.pk}/"
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_cookies([session_cookie(world.users["member"], live_server.url)])
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(url)
        guide = page.locator("#first-visit")
        guide.wait_for(state="visible")
        rules = guide.get_by_role("link", name="How to play")
        assert rules.get_attribute("href") == f"/rules/{table.variant}/{table.preset}/"
        page.get_by_role("button", name="Got it").click()
        guide.wait_for(state="hidden")
        page.reload()
        page.locator("#table").wait_for()
        assert not guide.is_visible()
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    finally:
        context.close()
    fresh = browser.new_context()
    try:
        other = fresh.new_page()
        other.goto(url)
        other.locator("#first-visit").wait_for(state="visible")
        other.goto(f"{live_server.url}/rules/{table.variant}/#phase-select")
        assert other.evaluate("location.hash") == "#phase-select"
        assert other.locator("#phase-select h3").is_visible()
    finally:
        fresh.close()
