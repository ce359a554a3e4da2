"""A hand of Classic Sabacc at an online table against bots, in a real browser: a card locked into the
interference field from the page, the rolls and the Sabacc pot drawn, play turns and betting to the reveal."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from games.engine import Game
from games.online import services
from tests.e2e.test_tables import WAIT, awaited_users, contexts, signed_in, worker  # noqa: F401 (fixtures)
from tests.league.conftest import build_world, league_plays

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def classic_world(db):
    world = build_world()
    world.event.status = "planned"
    world.event.save()
    # Round 1 may call the hand and round 2 ends it by itself, so the hand is short.
    return league_plays(world, "classic", "classic", {"call_round": 1, "max_rounds": 2})


def act_passively(page) -> str:
    """Stand on play turns; check, call or fold in betting."""
    for verb in ("stand", "check", "call", "fold"):
        button = page.locator(f'[data-act-form] button[value="{verb}"]')
        if button.count():
            button.first.click()
            return verb
    raise AssertionError(f"no passive action among: {page.locator('#table').inner_text()}")


def test_a_classic_hand_against_bots(browser, live_server, classic_world, contexts):  # noqa: F811
    organiser = classic_world.users["organiser"]
    table = services.table_open(actor=organiser, event=classic_world.event, name="Classic", seats=3, turn_seconds=120)
    assert table.variant == "classic"
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
    section = page.locator("section.classic")
    assert "Sabacc pot" in section.inner_text() and "Hand pot" in section.inner_text()
    done: list[str] = []
    locked = None
    for _ in range(80):
        awaited = awaited_users(table)
        if awaited is None:
            break
        if organiser.pk in awaited:
            page.wait_for_function(f"document.getElementById('table').dataset.version >= {table.version}")
            page.wait_for_selector("[data-act-form]")
            version = page.locator("#table").get_attribute("data-version")
            stand = page.locator('.classic-turn button[value="stand"]')
            if locked is None and stand.count():
                locked = page.locator(".cards.hand .card").first.get_attribute("data-code")
                page.locator('.classic-turn select[name="lock"]').select_option(locked)
                page.evaluate("document.activeElement.blur()")
                page.keyboard.press("s")  # the Stand button's shortcut (the lock choice goes with it)
                done.append("stand+lock")
            else:
                done.append(act_passively(page))
            page.wait_for_function(f"document.getElementById('table').dataset.version !== '{version}'")
            if done == ["stand+lock"]:  # the field is public and drawn at once
                page.wait_for_selector(f"[data-field-card='{locked}']", timeout=WAIT)
        else:
            page.wait_for_function(f"Number(document.getElementById('table').dataset.version) > {table.version}")
    else:
        raise AssertionError(f"the hand did not end after {done}")
    page.wait_for_selector(".reveal", timeout=WAIT)
    assert locked is not None and "stand+lock" in done
    table.refresh_from_db()
    game = Game.from_json(table.state, history=table.history)
    assert game.hands_played == 1 and game.variant.name == "classic"
    result = game.results[-1]
    mine = game.names[next(s.engine_seat for s in table.seats.all() if s.player and s.player.user_id == organiser.pk)]
    if mine in result["showdown"]:  # still in at the reveal: the locked card was shown in the field
        assert locked in result["showdown"][mine]["field"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path="/tmp/table-classic-390.png", full_page=True)
    violations = Axe().run(page).response["violations"]
    serious = [
        (v["id"], [n["target"] for n in v["nodes"]]) for v in violations if v["impact"] in ("serious", "critical")
    ]
    assert serious == []
    assert errors == []
