"""The home page in a real browser: layout, local htmx, the way in for a first-time visitor, the status link."""

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_home_page_loads_htmx_and_leads_a_visitor_in(live_server, page):
    failed = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Sabacc leagues and tournaments"
    assert page.evaluate("typeof window.htmx") == "object"
    # A first-time visitor is led to the rules and to a game against bots; no maintenance button in the way.
    assert page.get_by_role("link", name="Learn the rules").count() == 1
    assert page.get_by_role("link", name="sign up and press Play now").count() == 1
    assert page.get_by_role("button", name="Check status").count() == 0
    page.get_by_role("link", name="status", exact=True).click()
    assert '"status": "up"' in page.locator("body").inner_text()
    assert failed == []
