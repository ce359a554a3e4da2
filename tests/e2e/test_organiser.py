"""An organiser's evening in a real browser, on a phone-sized window: create a league and a season, add
guests, create a tournament, record a result (an unbalanced entry keeps Save disabled and says why),
finish the event and see the standings change. No page scrolls sideways or logs a console error."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from games.forms import REPLAY_FORMATS
from league.models import Event, League, Standing
from tests.e2e.test_tournament import WORK, confirm
from tests.factories import UserFactory
from tests.league.conftest import eager_tasks  # noqa: F401 (autouse: the live server's standings task runs at once)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def organiser_page(browser, live_server):
    """A signed-in, non-staff user's browser: the session comes from the test client, not the log-in page."""
    from league.chips import default_sets_create
    from league.models import BuyInPolicy, ChipSet, Denomination

    default_sets_create(ChipSet, Denomination, BuyInPolicy)
    user = UserFactory(username="maz", is_staff=False)
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE)
    host = re.sub(r"^https?://", "", live_server.url).split(":")[0]
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "domain": host, "path": "/"}]
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.console_errors, page.bad_responses = [], []
    # A missing resource is reported by its address below (the console message does not name it).
    page.on(
        "console",
        lambda message: (
            message.type == "error"
            and not message.text.startswith("Failed to load resource")
            and page.console_errors.append(message.text)
        ),
    )
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    # The browser asks for /favicon.ico on its own; the site's layout (not these pages) provides it.
    page.on(
        "response",
        lambda response: (
            response.status >= 400
            and not response.url.endswith("/favicon.ico")
            and page.bad_responses.append(f"{response.status} {response.url}")
        ),
    )
    yield page
    context.close()


def fits(page) -> None:
    """Nothing wider than the phone: no sideways scroll."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.url


def test_an_organiser_runs_an_evening_from_the_browser(organiser_page, live_server):
    page = organiser_page
    page.goto(live_server.url + "/manage/")
    fits(page)
    page.get_by_role("link", name="New league").click()

    # Rules come from the engine's presets; the resolved options follow the choice.
    page.get_by_label("Name", exact=True).fill("Outer Rim Sabacc")
    # Only the chosen variant's single options are offered (Classic's own options for a Classic league, none of
    # Coruscant Shift's), and a choice offers only that variant's values.
    page.locator("details.overrides summary").click()
    page.get_by_label("Variant").select_option("classic")
    expect(page.locator("#id_opt_declare_totals")).to_be_visible()
    expect(page.locator("#id_opt_small_blind")).to_be_hidden()
    end_rules = page.locator("#id_opt_end_rule optgroup:not([disabled])")
    assert [end_rules.nth(i).get_attribute("label") for i in range(end_rules.count())] == ["Classic"]
    page.get_by_label("Variant").select_option("coruscant_shift")
    expect(page.locator("#id_opt_small_blind")).to_be_visible()
    expect(page.locator("#id_opt_declare_totals")).to_be_hidden()
    page.locator("details.overrides summary").click()
    page.get_by_label("Preset").select_option("cantina")
    page.wait_for_function("document.querySelector('#rules-preview caption').textContent.includes('(Cantina preset)')")
    assert "2" in page.locator("#rules-preview tr", has_text="Ante").first.inner_text()
    page.get_by_label("Buy-in policy").select_option(label="Standard stake: 450 credits")
    page.get_by_label("Preview for a field of").fill("3")
    page.wait_for_function("document.querySelector('#points-preview caption').textContent.includes('field of 3')")
    assert page.locator("#points-preview tbody tr").count() == 3
    # Tie-breakers reorder in place with the arrows.
    page.get_by_role("button", name="Move Wins up").click()
    assert page.locator("#tie-order li").first.get_attribute("data-key") == "wins"
    fits(page)
    page.get_by_role("button", name="Create league").click()
    page.wait_for_url("**/manage/leagues/outer-rim-sabacc/")
    league = League.objects.get(slug="outer-rim-sabacc")
    assert (league.preset, league.tie_breakers[:2]) == ("cantina", ["wins", "points"])

    # A season, then three guests.
    page.get_by_role("link", name="Seasons").click()
    page.get_by_label("Name").fill("Season 1")
    page.get_by_label("Starts on").fill("2026-11-01")
    page.get_by_role("button", name="Create season").click()
    page.wait_for_selector("text=Season 1 is created.")
    assert page.get_by_text("Season Season").count() == 0
    fits(page)
    page.goto(live_server.url + "/manage/leagues/outer-rim-sabacc/members/")
    for name in ("Han", "Lando", "Leia"):
        page.get_by_label("Guest's name").fill(name)
        page.get_by_role("button", name="Add guest").click()
        page.wait_for_selector(f"text={name} is added as a guest")
    assert page.locator(".member .tag", has_text="guest").count() == 3
    fits(page)

    # A tournament night.
    page.goto(live_server.url + "/manage/leagues/outer-rim-sabacc/events/new/")
    page.get_by_label("Name").fill("Cup night")
    page.get_by_label("Kind").select_option("tournament")
    page.get_by_role("button", name="Create event").click()
    page.wait_for_url(re.compile(r".*/manage/events/\d+/$"))
    fits(page)
    page.get_by_role("link", name="Record a result").click()
    page.wait_for_url(re.compile(r".*/results/new/$"))

    # The balance follows the typing; Save stays disabled, with the reason, until it balances.
    save = page.get_by_role("button", name="Save result")
    reason = page.locator("#balance-reason")
    expect(save).to_be_disabled()
    expect(reason).to_contain_text("at least two players")
    seats = page.locator("[data-seat]")
    seats.nth(0).get_by_label("Player", exact=True).select_option(label="Han")
    seats.nth(1).get_by_label("Player", exact=True).select_option(label="Lando")
    expect(reason).to_contain_text("Enter the final credits of Han, Lando")
    expect(save).to_be_disabled()
    seats.nth(0).get_by_label("Final credits").fill("600")
    seats.nth(1).get_by_label("Final credits").fill("200")
    expect(reason).to_contain_text("Credits do not balance: 900 came in but 800 went out (100 credits are missing)")
    expect(save).to_be_disabled()
    page.get_by_role("button", name="Add a player").click()
    seats.nth(2).get_by_label("Player", exact=True).select_option(label="Leia")
    seats.nth(2).get_by_label("Final credits").fill("650")
    expect(reason).to_contain_text("1,350 came in but 1,450 went out (100 credits too many)")
    expect(save).to_be_disabled()
    seats.nth(2).get_by_label("Final credits").fill("550")
    expect(reason).to_contain_text("Balanced: 1,350 credits in and out")
    expect(save).to_be_enabled()
    # Places written by hand must follow the credits (as the server checks), and nobody ends below 0.
    seats.nth(0).get_by_label("Place").fill("2")
    seats.nth(1).get_by_label("Place").fill("1")
    expect(reason).to_contain_text("Han ends with more credits than Lando but is placed 2, behind Lando's 1")
    expect(save).to_be_disabled()
    seats.nth(0).get_by_label("Place").fill("")
    seats.nth(1).get_by_label("Place").fill("")
    seats.nth(1).get_by_label("Final credits").fill("-100")
    seats.nth(2).get_by_label("Final credits").fill("850")
    expect(reason).to_contain_text("Final credits cannot be below 0: Lando")
    expect(save).to_be_disabled()
    seats.nth(1).get_by_label("Final credits").fill("200")
    seats.nth(2).get_by_label("Final credits").fill("550")
    expect(reason).to_contain_text("Balanced: 1,350 credits in and out")
    expect(save).to_be_enabled()
    fits(page)
    save.click()
    page.wait_for_url(re.compile(r".*/manage/games/\d+/$"), timeout=WORK)
    assert "Recorded" in page.locator("#audit-trail").inner_text()

    # Running events do not count yet; finishing the event puts the result into the standings.
    page.goto(live_server.url + "/manage/leagues/outer-rim-sabacc/")
    assert "No finished event counts yet" in page.locator("#standings").inner_text()
    event = Event.objects.get(name="Cup night")
    page.goto(live_server.url + f"/manage/events/{event.pk}/")
    page.get_by_role("button", name="Finish event").click()
    confirm(page)
    page.wait_for_selector("text=Cup night is finished", timeout=WORK)  # the standings are recomputed first
    page.goto(live_server.url + "/manage/leagues/outer-rim-sabacc/")
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 3
    assert [rows.nth(i).locator("td").nth(1).inner_text() for i in range(3)] == ["Han", "Leia", "Lando"]
    assert Standing.objects.filter(league=league, scope="all").count() == 3
    fits(page)
    assert page.console_errors == []
    assert page.bad_responses == []


def test_an_uploaded_replay_is_checked_by_the_engine_before_it_is_saved(organiser_page, live_server):
    import json

    from games.models import Game
    from league import services
    from tests.games.test_result_record import REPLAY

    page = organiser_page
    user = get_user_model().objects.get(username="maz")
    league = services.league_create(actor=user, name="Replay League")
    season = services.season_create(actor=user, league=league, name="One", starts_on=datetime.date(2026, 1, 1))
    event = services.event_create(actor=user, season=season, name="Replay night", starts_at=timezone.now())
    for name in ("Bob", "Jane"):
        services.membership_add(actor=user, league=league, player=services.player_create(actor=user, display_name=name))

    page.goto(live_server.url + f"/manage/events/{event.pk}/results/new/")
    page.get_by_label(f"Replay file ({REPLAY_FORMATS})").check()  # the formats the engine reads
    seats = page.locator("[data-seat]")
    for index, name in enumerate(("Bob", "Jane")):
        seats.nth(index).get_by_label("Player", exact=True).select_option(label=name)
        seats.nth(index).get_by_label("Buy-in").fill("100")
    expect(page.locator("#balance-reason")).to_contain_text("Choose the replay file")
    page.get_by_label("Replay file", exact=True).set_input_files(
        {"name": "game.json", "mimeType": "application/json", "buffer": json.dumps(REPLAY).encode()}
    )
    page.get_by_role("button", name="Check the replay").click()
    verdict = page.locator("#replay-verdict")
    expect(verdict).to_contain_text("The engine accepts this replay", timeout=WORK)
    assert verdict.locator("tbody tr").first.inner_text().split() == ["1", "Jane", "106"]
    assert "-5c" not in verdict.inner_html()  # the deck order is never shown
    assert Game.objects.count() == 0
    page.get_by_role("button", name="Save result").click()
    page.wait_for_url(re.compile(r".*/manage/games/\d+/$"), timeout=WORK)
    assert Game.objects.get().replay_document is not None
    fits(page)
    assert page.console_errors == []
    assert page.bad_responses == []


def test_a_correction_adds_a_forgotten_player_with_the_entry_forms_button(organiser_page, live_server):
    from games.models import Game
    from games.services import result_record
    from league import services

    page = organiser_page
    user = get_user_model().objects.get(username="maz")
    league = services.league_create(actor=user, name="Correction League")
    season = services.season_create(actor=user, league=league, name="One", starts_on=datetime.date(2026, 1, 1))
    event = services.event_create(actor=user, season=season, name="Forgetful night", starts_at=timezone.now())
    players = {}
    for name in ("Han", "Lando", "Leia"):
        players[name] = services.player_create(actor=user, display_name=name)
        services.membership_add(actor=user, league=league, player=players[name])
    game = result_record(
        actor=user,
        event=event,
        seats=[
            {"player": players["Han"].pk, "buy_in": 450, "final_credits": 600},
            {"player": players["Lando"].pk, "buy_in": 450, "final_credits": 300},
        ],
    )

    page.goto(live_server.url + f"/manage/games/{game.pk}/correct/")
    seats = page.locator("[data-seat]")
    expect(seats.nth(2)).to_be_visible()  # one empty line beside the recorded players
    expect(seats.nth(3)).to_be_hidden()
    page.get_by_label("Reason for the correction").fill("Leia played too")
    seats.nth(2).get_by_label("Player", exact=True).select_option(label="Leia")
    seats.nth(2).get_by_label("Buy-in").fill("450")
    seats.nth(2).get_by_label("Final credits").fill("0")
    reason, save = page.locator("#balance-reason"), page.locator("#save-result")
    expect(reason).to_contain_text("Credits do not balance")
    expect(save).to_be_disabled()
    page.get_by_role("button", name="Add a player").click()
    expect(seats.nth(3)).to_be_visible()
    seats.nth(2).get_by_label("Final credits").fill("450")
    # The recorded places only followed the final credits, so they start blank, as on the entry form: the added
    # player needs no place and the places follow the credits again.
    expect(seats.nth(0).get_by_label("Place")).to_have_value("")
    expect(reason).to_contain_text("Balanced: 1,350 credits in and out")
    save.click()
    expect(page).to_have_url(re.compile(rf"/manage/games/{game.pk}/$"), timeout=WORK)
    expect(page.locator("main")).to_contain_text("The correction is saved", timeout=WORK)
    assert sorted(Game.objects.get(pk=game.pk).seats.values_list("place", "player__display_name")) == [
        (1, "Han"),
        (2, "Leia"),
        (3, "Lando"),
    ]
    fits(page)
    assert page.console_errors == [] and page.bad_responses == []
