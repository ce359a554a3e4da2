"""Handing a seat to a phone (issue 25): the host (390 px) adds a friend without a phone, shows the seat's hand-over
link; a second browser (390 px) opens it, takes the seat, and acts for it when its turn comes. Screenshots of the
host's page with the link at 390 and 1280 px go to tests/e2e/screenshots/tabletop/ (git-ignored)."""

import pytest

from games.tabletop.models import RealSeat, RealTable
from tests.e2e.test_tabletop import SHOTS, _take_turn, _version, host_and_phone

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_host_hands_a_seat_to_a_phone_which_then_acts_for_it(browser, live_server):
    with host_and_phone(browser, live_server) as tabletop:
        table, host_page, phone, errors = tabletop.table, tabletop.host_page, tabletop.phone, tabletop.errors
        # The host adds Cy, a friend whose phone is not out yet, and opens the seat's hand-over link.
        host_page.fill("#tt-add", "Cy")
        host_page.get_by_role("button", name="Add", exact=True).click()
        host_page.get_by_text("Hand Cy's seat to a phone").click()
        link = host_page.locator("[data-handover-link]")
        link.wait_for()
        assert host_page.locator(".tt-handover-seat .tt-qr svg").is_visible()
        secret = RealSeat.objects.get(table=table, name="Cy").handover
        assert link.get_attribute("href").endswith(f"/tabletop/{table.code}/seat/{secret}/")
        host_page.screenshot(path=str(SHOTS / "handover-390.png"), full_page=True)
        host_page.set_viewport_size({"width": 1280, "height": 900})
        host_page.screenshot(path=str(SHOTS / "handover-1280.png"), full_page=True)
        host_page.set_viewport_size({"width": 390, "height": 844})
        # A new link replaces the old; the QR code stays open through the page's re-render.
        old = link.get_attribute("href")
        host_page.get_by_role("button", name="A new link (the old one stops working)").click()
        host_page.wait_for_function(
            "old => { const a = document.querySelector('[data-handover-link]'); return a && a.href !== old; }",
            arg=old,
        )
        assert host_page.locator(".tt-handover-seat .tt-qr svg").is_visible()
        secret = RealSeat.objects.get(table=table, name="Cy").handover
        assert link.get_attribute("href").endswith(f"/tabletop/{table.code}/seat/{secret}/")
        # Cy's phone opens the link (as if scanned), takes the seat, and lands on the table as Cy.
        phone.goto(link.get_attribute("href"))
        phone.screenshot(path=str(SHOTS / "handover-claim-390.png"), full_page=True)
        phone.get_by_role("button", name="Take this seat").click()
        phone.wait_for_url(f"**/tabletop/{table.code}/")
        phone.wait_for_selector(".tt-seats li:has-text('Cy') strong:has-text('(you)')")
        # The host's page hears of it live: the seat is held, its link gone.
        host_page.wait_for_selector("text=Hand Cy's seat to a phone", state="detached")
        assert RealSeat.objects.get(table=table, name="Cy").handover == ""
        # The used link no longer works.
        again = browser.new_context(viewport={"width": 390, "height": 844})
        tabletop.contexts.append(again)
        late = again.new_page()
        late.goto(f"{live_server.url}/tabletop/{table.code}/seat/{secret}/")
        assert late.get_by_text("This hand-over link does not work").is_visible()
        host_page.get_by_role("button", name="Start the game").click()
        host_page.get_by_role("button", name="Dealt: done").click()
        host_page.get_by_role("button", name="Roll for us").click()
        # Each phone takes its own turns until Cy's phone has acted for Cy.
        cy_acted = False
        for _ in range(30):
            before = (_version(host_page), _version(phone))
            if _take_turn(phone):
                cy_acted = True
                # The phone's own answer came back (its step is saved), and the host's page heard of it live.
                phone.wait_for_function(
                    "v => document.querySelector('#tabletop .tt').dataset.version !== v", arg=before[1]
                )
                host_page.wait_for_function(
                    "v => document.querySelector('#tabletop .tt').dataset.version === v", arg=_version(phone)
                )
                break
            _take_turn(host_page)  # or nobody's turn here yet: the phone waits for the next change either way
            phone.wait_for_function("v => document.querySelector('#tabletop .tt').dataset.version !== v", arg=before[1])
        assert cy_acted
        # A newcomer who scans the table's QR code now is told the game is on and what to do.
        late.goto(f"{live_server.url}/tabletop/{table.code}/")
        assert late.get_by_text("seats were fixed at the start").is_visible()  # cantina takes nobody mid-way
        late.screenshot(path=str(SHOTS / "newcomer-390.png"), full_page=True)
        changes = RealTable.objects.get(pk=table.pk).changes
        assert changes[0]["claimed"] == {"seat": 1, "name": "Cy"}
        assert changes[-1]["by"] == "Cy" and changes[-1]["did"]["seat"] == 1
        assert not errors, errors
