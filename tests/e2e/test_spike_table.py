"""A hand of Corellian Spike (Galaxy Series) at an online table against bots, in a real browser: the market
and the Sabacc pot drawn, a market card bought from the page, card turns and betting to the reveal, live."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from games.engine import Game
from games.online import services
from tests.e2e.test_tables import WAIT, awaited_users, contexts, signed_in, worker  # noqa: F401 (fixtures)
from tests.league.conftest import build_world, league_plays

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def spike_world(db):
    world = build_world()
    world.event.status = "planned"
    world.event.save()
    return league_plays(world, "corellian_spike", "galaxy_series")


def act_passively(page) -> str:
    """Stand in card turns, spike the card offered first, check, call or fold in betting."""
    for verb in ("stand", "spike", "check", "call", "fold"):
        button = page.locator(f'[data-act-form] button[value="{verb}"]')
        if button.count():
            button.click()
            return verb
    raise AssertionError(f"no passive action among: {page.locator('#table').inner_text()}")


def test_a_galaxy_series_hand_against_bots(browser, live_server, spike_world, contexts):  # noqa: F811
    organiser = spike_world.users["organiser"]
    table = services.table_open(actor=organiser, event=spike_world.event, name="Spike", seats=3, turn_seconds=120)
    assert table.variant == "corellian_spike"
    page = signed_in(browser, live_server.url, organiser, contexts, width=390, height=844)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    page.get_by_role("button", name="Take a seat").click()
    page.wait_for_selector(".seat .badge:has-text('you')")
    page.get_by_role("button", name="Fill empty seats").click()
    page.wait_for_selector("text=Sensible bot 2")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector(".cards.hand .card")
    assert page.locator(".cards.hand .card").count() == 2
    market = page.locator(".spike-market")
    assert "Pilot" in market.inner_text() and "Sabacc pot" in market.inner_text()
    done = []
    bought = False
    for _ in range(60):
        awaited = awaited_users(table)
        if awaited is None:
            break
        if organiser.pk in awaited:
            page.wait_for_function(f"document.getElementById('table').dataset.version >= {table.version}")
            page.wait_for_selector("[data-act-form]")
            version = page.locator("#table").get_attribute("data-version")
            buy = page.locator('[data-act-form] button[value="buy"]')
            if not bought and buy.count():
                buy.click()  # the Pilot, first in the list, for 1 credit
                bought = True
                done.append("buy")
            else:
                done.append(act_passively(page))
            page.wait_for_function(f"document.getElementById('table').dataset.version !== '{version}'")
            if bought and len(done) == 1:
                page.wait_for_selector(".cards.hand .card >> nth=2")
                assert page.locator(".cards.hand .card").count() == 3
        else:
            page.wait_for_function(f"Number(document.getElementById('table').dataset.version) > {table.version}")
    else:
        raise AssertionError(f"the hand did not end after {done}")
    page.wait_for_selector(".reveal", timeout=WAIT)
    assert bought and "buy" in done
    table.refresh_from_db()
    game = Game.from_json(table.state, history=table.history)
    assert game.hands_played == 1 and game.variant.name == "corellian_spike"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path="/tmp/table-spike-390.png", full_page=True)
    violations = Axe().run(page).response["violations"]
    serious = [
        (v["id"], [n["target"] for n in v["nodes"]]) for v in violations if v["impact"] in ("serious", "critical")
    ]
    assert serious == []
    assert errors == []
