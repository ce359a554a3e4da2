"""A visitor signs up, claims the guest player an organiser entered for them, and sees their chart."""

import pytest

from tests.site.conftest import build_site_world

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_visitor_signs_up_claims_a_guest_player_and_sees_their_chart(live_server, page):
    site = build_site_world()
    han = site.base.players[0]
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Sign up").first.click()
    page.wait_for_url("**/accounts/signup/")
    page.fill("input[name=username]", "han-solo")
    page.fill("input[name=email]", "han@example.org")
    page.fill("input[name=password1]", "millennium-falcon-12")
    page.fill("input[name=password2]", "millennium-falcon-12")
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_url(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Welcome, han-solo"  # a first visit, not a welcome back

    page.get_by_role("link", name="han-solo").click()  # the header's account link: the profile page
    page.wait_for_url("**/accounts/profile/")
    page.fill("input[name=code]", han.claim_code)
    page.get_by_role("button", name="Claim").click()
    page.wait_for_url(f"**/players/{han.pk}/")
    assert "You are now Han" in page.locator(".messages").inner_text()
    assert page.locator("h1").inner_text().startswith("Han")

    page.wait_for_selector("#credits-chart.drawn canvas")  # uPlot drew the chart from the page's JSON
    assert page.locator("#credits-chart .u-legend").inner_text().count("Han") == 1
    assert page.locator("#hands-chart.drawn canvas").count() == 1
    assert page.locator("#credits-chart details.chart-fallback").get_attribute("open") is None
    page.get_by_role("link", name="My player").click()
    page.wait_for_url(f"**/players/{han.pk}/")
    assert errors == []
