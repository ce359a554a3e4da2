"""The table page's controls in a real browser: keyboard shortcuts act, and the bet slider's presets set an
amount the rules bound (min, half pot, pot, max), which the server then applies."""

import pytest

from games.engine import Game
from games.online import services
from games.online.models import OnlineAction
from tests.e2e.test_tables import awaited_users, contexts, signed_in, table_world, worker  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_keyboard_shortcuts_and_the_bet_slider_presets(browser, live_server, table_world, contexts):
    organiser, member = table_world.users["organiser"], table_world.users["member"]
    table = services.table_open(
        actor=organiser, event=table_world.event, name="Keys", seats=2, turn_seconds=120, preset="better"
    )
    services.seat_take(actor=organiser, table=table)
    services.seat_take(actor=member, table=table)
    services.table_start(actor=organiser, table=table)
    pages = {}
    for user in (organiser, member):
        page = signed_in(browser, live_server.url, user, contexts, width=390, height=844)
        page.goto(f"{live_server.url}/tables/{table.pk}/")
        page.wait_for_selector("#live-status:has-text('Live')")
        pages[user.pk] = page
    # Select phase: both choose with the keyboard (S), nothing ticked.
    for page in pages.values():
        page.wait_for_selector("[data-act-form] button[value=select]")
        version = page.locator("#table").get_attribute("data-version")
        page.keyboard.press("s")
        page.wait_for_function(f"document.getElementById('table').dataset.version !== '{version}'")
    # The first betting decision: a bet or raise slider bounded by the rules, with its presets.
    for _ in range(20):
        awaited = awaited_users(table)
        assert awaited, "the hand ended before a betting decision"
        user_id = next(iter(awaited))
        page = pages[user_id]
        page.wait_for_function(f"Number(document.getElementById('table').dataset.version) >= {table.version}")
        if page.locator("[data-amount]").count():
            break
        version = page.locator("#table").get_attribute("data-version")
        page.keyboard.press("s" if page.locator("[data-act-form] button[value=select]").count() else "c")
        page.wait_for_function(f"document.getElementById('table').dataset.version !== '{version}'")
    else:
        raise AssertionError("no bet or raise was offered")
    table.refresh_from_db()
    game = Game.from_json(table.state)
    seat = next(s for s in table.seats.all() if s.player.user_id == user_id)
    legal = game.legal_actions(seat.engine_seat)
    verb = "bet" if legal.can_bet else "raise"
    low, high = (legal.min_bet, legal.max_bet) if verb == "bet" else (legal.min_raise_to, legal.max_raise_to)
    slider = page.locator("[data-amount]")
    assert (int(slider.get_attribute("min")), int(slider.get_attribute("max"))) == (low, high)
    presets = [int(v) for v in page.locator("[data-preset]").evaluate_all("els => els.map(e => e.dataset.preset)")]
    assert presets[0] == low and presets[-1] == high and all(low <= p <= high for p in presets)
    page.locator(".preset", has_text="max").click()
    assert int(slider.input_value()) == high and page.locator("[data-amount-out]").inner_text() == str(high)
    page.locator(".preset", has_text="min").click()
    assert int(slider.input_value()) == low
    version = page.locator("#table").get_attribute("data-version")
    page.keyboard.press("b")  # B: bet or raise the amount on the slider
    page.wait_for_function(f"document.getElementById('table').dataset.version !== '{version}'")
    action = OnlineAction.objects.filter(table=table).order_by("-id").first()
    assert (action.verb, action.amount, action.seat.player.user_id) == (verb, low, user_id)
    text = f"bet {low}" if verb == "bet" else f"raised to {low}"
    for other in pages.values():  # everyone sees it live
        other.wait_for_selector(f".log li:has-text('{text}')")
