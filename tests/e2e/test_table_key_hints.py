"""The table's keyboard shortcuts are shown where a keyboard is likely (a mouse that hovers), not on a phone's
touch screen, where the live status stays in view."""

import pytest

from games.online import services
from tests.e2e.conftest import session_cookie
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("device", "hints_shown"),
    [
        ({"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}, False),
        ({"viewport": {"width": 1280, "height": 800}}, True),
    ],
    ids=["phone", "laptop"],
)
def test_key_hints_only_where_a_keyboard_is_likely_and_the_live_status_always(
    browser, live_server, device, hints_shown
):
    user = UserFactory(username="keys")
    table = services.casual_open(actor=user, seats=2)
    context = browser.new_context(**device)
    context.add_cookies([session_cookie(user, live_server.url)])
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}/tables/{table.pk}/")
        page.wait_for_selector("#live-status:not([hidden])")
        assert page.locator(".live-status").is_visible() and page.locator("#live-status").is_visible()
        assert page.locator("[data-key-hints]").count() == 1
        assert page.locator("[data-key-hints]").is_visible() is hints_shown
    finally:
        context.close()
