"""The home page in a real browser: layout, local htmx, an htmx request."""

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_home_page_loads_htmx_and_swaps_the_status_in(live_server, page):
    failed = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Sabacc leagues and tournaments"
    assert page.evaluate("typeof window.htmx") == "object"
    page.get_by_role("button", name="Check status").click()
    page.wait_for_function("document.querySelector('#status').textContent.includes('database')")
    assert '"status": "up"' in page.locator("#status").inner_text()
    assert failed == []
