"""A tournament night in a real browser on a phone-sized window: the organiser creates the tournament from the
event page, registers members and a guest, publishes the seed hash, draws, starts a compressed clock, records
eliminations and completes it; the projector clock changes level live (with its flash); the league's standings
gain the points. No page scrolls sideways or logs a console error."""

import json
import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from league.models import EventKind, EventStatus, Role, Standing
from tests.e2e.conftest import STREAM_KEEPALIVE_SECONDS
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory, UserFactory
from tournaments.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# What waits on the server's work (a form's POST with its tasks run in the request, the clock's ticks and the live
# stream) waits for its own words with this bound, not expect's 5 s: a loaded machine answers late, not wrongly.
WORK = 30_000
COMPRESSED = [
    {"small_blind": 5, "big_blind": 10, "length": 8, "unit": "seconds"},
    {"small_blind": 10, "big_blind": 20, "length": 3600, "unit": "seconds"},
]


@pytest.fixture(autouse=True)
def tasks_in_process(settings):
    """The live server runs in this process: its tasks (clock ticks, standings) run at once, as without Redis.
    The projector's event stream ends soon after the test and notices a closed browser soon."""
    from config.celery import app
    from games.online import stream

    settings.ONLINE_STREAM_SECONDS = 20
    settings.ONLINE_STREAM_KEEPALIVE_SECONDS = STREAM_KEEPALIVE_SECONDS
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous
    assert stream.wait_until_closed(timeout=15)


def signed_in_context(browser, live_server, user):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE)
    host = re.sub(r"^https?://", "", live_server.url).split(":")[0]
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "domain": host, "path": "/"}]
    )
    return context


def watched(context):
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.console_errors = []
    page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    return page


def confirm(page, asked: str = "") -> None:
    """Answer yes in the dialog an irreversible button opens first (static/js/confirm.js)."""
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    if asked:
        expect(dialog).to_contain_text(asked)
    dialog.get_by_role("button", name=re.compile("^Yes")).click()


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.url


def test_an_organiser_runs_a_tournament_from_registration_to_payouts_and_points(browser, live_server):
    from league.chips import default_sets_create
    from league.models import BuyInPolicy, ChipSet, Denomination

    default_sets_create(ChipSet, Denomination, BuyInPolicy)
    league = LeagueFactory(slug="night-league", name="Night league", points_formula="linear")
    event = EventFactory(
        season=SeasonFactory(league=league), kind=EventKind.TOURNAMENT, status=EventStatus.RUNNING, name="Cup night"
    )
    organiser = UserFactory(username="maz")
    MembershipFactory(league=league, player=PlayerFactory(user=organiser, display_name="Maz"), role=Role.ORGANISER)
    names = ["Rey", "Finn", "Poe", "Rose"]
    for name in names:
        MembershipFactory(league=league, player=PlayerFactory(display_name=name))

    context = signed_in_context(browser, live_server, organiser)
    page = watched(context)
    page.goto(f"{live_server.url}/manage/events/{event.pk}/")
    page.get_by_role("link", name="Run as a tournament").click()
    page.get_by_text("Levels as JSON", exact=True).click()  # the editor's rows follow the JSON typed here
    page.fill("#t-json", json.dumps(COMPRESSED))
    page.locator("#t-json").dispatch_event("change")
    page.fill("#t-seats", "4")
    fits(page)
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url("**/manage/tournaments/*/")
    tournament = Tournament.objects.get(event=event)

    for name in names:
        page.select_option("#register-player", label=name)
        page.locator("form[data-action=register-player] button").click()
        expect(page.locator("#registration table")).to_contain_text(name, timeout=WORK)
    page.fill("#guest-name", "Lando")
    page.get_by_role("button", name="Add guest").click()
    expect(page.locator("#registration table")).to_contain_text("Lando", timeout=WORK)
    page.get_by_role("button", name="Publish the seed hash").click()
    expect(page.locator("#draw-controls")).to_contain_text("Seed hash", timeout=WORK)
    page.get_by_role("button", name="Draw the seats").click()
    confirm(page)
    expect(page.locator("#draw-controls")).to_contain_text("Seed (revealed)", timeout=WORK)
    fits(page)

    projector = watched(context)
    projector.set_viewport_size({"width": 1280, "height": 800})
    with projector.expect_response(lambda r: "/clock/events/" in r.url):  # the live stream is open
        projector.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/")
    page.get_by_role("button", name="Start the clock").click()
    confirm(page)
    expect(projector.locator(".p-blinds")).to_have_text("Blinds 5/10", timeout=WORK)
    # The compressed level 1 lasts 8 seconds: the projector moves to level 2 by itself, and flashes.
    expect(projector.locator(".p-level [data-clock=level_number]")).to_have_text("2", timeout=8_000 + 2 * WORK)
    expect(projector.locator(".p-blinds")).to_have_text("Blinds 10/20", timeout=WORK)
    projector.wait_for_function("document.body.classList.contains('clock-flash')", timeout=WORK)

    field = ["Rey", "Finn", "Poe", "Rose", "Lando"]
    for out in field[:0:-1]:
        form = page.locator("form[data-action=eliminate]")
        form.locator("select[name=player]").select_option(label=out)
        form.locator("select[name=eliminated_by]").select_option(label="Rey")
        form.get_by_role("button", name="Eliminate").click()
        confirm(page, f"Eliminate {out}?")
        expect(page.locator(".messages")).to_contain_text(f"{out} is out", timeout=WORK)
    fits(page)
    page.get_by_role("button", name="Complete: book payouts and points").click()
    confirm(page)
    expect(page.locator(".messages")).to_contain_text("complete", timeout=WORK)
    expect(page.locator("#payout-controls")).to_contain_text("1,125", timeout=WORK)  # 50% of 2,250

    public = watched(context)
    public.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    expect(public.locator("#places")).to_contain_text("Rey", timeout=WORK)
    fits(public)
    standing = Standing.objects.get(league=league, season=None, player__display_name="Rey")
    assert standing.rank == 1 and standing.points == 5
    public.goto(f"{live_server.url}/leagues/{league.slug}/")
    expect(public.locator("body")).to_contain_text("Rey", timeout=WORK)
    for checked in (page, projector, public):
        assert checked.console_errors == [], checked.console_errors
    context.close()


def test_the_new_tournament_form_shows_each_formats_own_fields_only(browser, live_server):
    league = LeagueFactory(slug="form-league", name="Form league")
    event = EventFactory(season=SeasonFactory(league=league), kind=EventKind.TOURNAMENT, name="Form night")
    organiser = UserFactory(username="form-organiser")
    MembershipFactory(league=league, player=PlayerFactory(user=organiser), role=Role.ORGANISER)
    url = f"{live_server.url}/manage/events/{event.pk}/tournament/"

    context = signed_in_context(browser, live_server, organiser)
    page = watched(context)
    page.goto(url)
    expect(page.locator("#t-format")).to_have_value("freezeout")
    expect(page.locator("#t-rebuy-at")).to_be_hidden()
    expect(page.locator("#t-advance")).to_be_hidden()
    page.select_option("#t-format", "rebuy")
    expect(page.locator("#t-rebuy-at")).to_be_visible()
    expect(page.locator("#t-advance")).to_be_hidden()
    page.select_option("#t-format", "halcyon")
    expect(page.locator("#t-advance")).to_be_visible()
    expect(page.locator("#t-rebuy-at")).to_be_hidden()
    fits(page)
    assert page.console_errors == [], page.console_errors
    context.close()

    # Without JavaScript every field shows, as before.
    client = Client()
    client.force_login(organiser)
    plain = browser.new_context(viewport=PHONE, java_script_enabled=False)
    host = re.sub(r"^https?://", "", live_server.url).split(":")[0]
    plain.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "domain": host, "path": "/"}])
    page = plain.new_page()
    page.goto(url)
    expect(page.locator("#t-rebuy-at")).to_be_visible()
    expect(page.locator("#t-advance")).to_be_visible()
    plain.close()
