"""A Halcyon tournament's physical table played on real cards (issue 25): the organiser opens it from the control
room on a laptop (1280 px), runs it on one phone (390 px) tapping for every seat for two hands, and the projector
clock shows the average stack and the chip leader computed from that table's live stacks. Screenshots go to
tests/e2e/screenshots/tabletop/ (git-ignored)."""

import re
from pathlib import Path

import pytest
from django.test import Client

from games.tabletop import services as tabletop
from games.tabletop.models import RealTable
from league.chips import default_sets_create
from league.models import BuyInPolicy, ChipSet, Denomination, EventKind, EventStatus, Role
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory, UserFactory
from tournaments import services
from tournaments.models import Format, Registration
from tournaments.structures import Level, structure_to_json

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "tests" / "e2e" / "screenshots" / "tabletop"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
WAIT = 20_000


@pytest.fixture(autouse=True)
def tasks_in_process(settings):
    """The live server runs in this process: the table's reports to the tournament run at once, as without Redis."""
    from config.celery import app

    settings.ONLINE_STREAM_SECONDS = 20
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


def _context(browser, live_server, user, viewport):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport)
    host = re.sub(r"^https?://", "", live_server.url).split(":")[0]
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "domain": host, "path": "/"}]
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return context, page


def _version(page) -> str:
    return page.locator("#tabletop .tt").get_attribute("data-version")


def _tap(page, button) -> None:
    """Tap a button of the table and wait for the table to come back at a new version."""
    before = _version(page)
    button.click()
    page.wait_for_function("v => document.querySelector('#tabletop .tt').dataset.version !== v", arg=before)


def _one_step(page) -> bool:
    """The host takes whatever step is due (for whichever seat); False when the next deal is due."""
    deal = page.get_by_role("button", name="Dealt: done")
    if deal.count():
        return False
    roll = page.get_by_role("button", name="Roll for us")
    if roll.count():
        _tap(page, roll)
        return True
    box = page.locator(".tt-turn-box").first
    if box.count():
        count = box.locator("input[name=count]")
        if count.count():
            improve = "mprove" in page.locator(".tt-hand").inner_text()
            count.first.fill("0" if improve else "2")
            _tap(page, box.locator("button[data-verb=select]").first)
            return True
        for verb in ("check", "call"):
            button = box.locator(f"button[data-verb={verb}]")
            if button.count():
                _tap(page, button.first)
                return True
        raise AssertionError(f"no check or call for {box.inner_text()}")
    naming = page.locator("details.tt-name")
    if naming.count():
        naming.locator("summary").click()
    form = page.locator("form:has(input[name=step][value=winners])").first
    if form.count():
        form.locator("input[name=seats]").first.check()
        _tap(page, form.get_by_role("button", name="Name the winners"))
        return True
    raise AssertionError(f"nothing to tap: {page.locator('.tt-prompt').inner_text()}")


def test_a_halcyon_real_cards_table_run_on_one_phone_feeds_the_clocks_average_stack(browser, live_server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    default_sets_create(ChipSet, Denomination, BuyInPolicy)  # an earlier browser test may have flushed them
    league = LeagueFactory()
    event = EventFactory(season=SeasonFactory(league=league), kind=EventKind.TOURNAMENT, status=EventStatus.PLANNED)
    event.chip_set = ChipSet.objects.get(slug="simple")
    event.save()
    organiser = UserFactory(username="night-organiser")
    MembershipFactory(league=league, player=PlayerFactory(user=organiser), role=Role.ORGANISER)
    players = [
        MembershipFactory(league=league, player=PlayerFactory(display_name=n)).player for n in ("Ann", "Bo", "Cy")
    ]
    tournament = services.tournament_create(
        actor=organiser,
        event=event,
        structure=structure_to_json([Level(ante=1, length=1, unit="hands")]),
        format=Format.HALCYON,
        starting_stack=10,
        seats_per_table=3,
    )
    for player in players:
        services.tournament_register(actor=organiser, tournament=tournament, player=player)
    services.tournament_publish_seed(actor=organiser, tournament=tournament)
    services.tournament_draw(actor=organiser, tournament=tournament)
    services.tournament_clock_start(actor=organiser, tournament=tournament)

    contexts = []
    try:
        laptop_context, laptop = _context(browser, live_server, organiser, LAPTOP)
        phone_context, phone = _context(browser, live_server, organiser, PHONE)
        contexts += [laptop_context, phone_context]
        # Before any table plays, the clock knows no stack.
        laptop.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/")
        assert laptop.locator('[data-clock="average_stack"]').inner_text() == "\u2013"

        # The control room (laptop) opens table 1 on real cards, with the site rolling.
        laptop.goto(f"{live_server.url}/manage/tournaments/{tournament.pk}/")
        form = laptop.locator("form:has([data-action=open-real-cards-1])")
        form.locator("input[name=no_dice]").check()
        form.locator("[data-action=open-real-cards-1]").click()
        link = laptop.locator('[data-real-table="1"]')
        link.wait_for()
        laptop.screenshot(path=str(SHOTS / "tournament-control-room-1280.png"), full_page=True)
        table = RealTable.objects.get(event=event, tournament_table=1)
        assert not table.has_dice
        assert link.get_attribute("href") == f"/tabletop/{table.code}/"
        seated = list(
            Registration.objects.filter(tournament=tournament, table_number=1)
            .order_by("seat_number")
            .values_list("player__display_name", flat=True)
        )

        # One phone runs the table: the host taps for every seat, two hands.
        phone.goto(f"{live_server.url}{link.get_attribute('href')}")
        phone.wait_for_selector("#tt-live:has-text('Live')")
        names = phone.locator(".tt-players tbody td:first-child").all_inner_texts()
        assert [name.split(" ")[0] for name in names] == seated  # the tournament's seats, in order
        assert phone.locator(".tt-players tbody tr td:nth-child(2)").all_inner_texts() == ["10", "10", "10"]
        for hand in (1, 2):
            _tap(phone, phone.get_by_role("button", name="Dealt: done"))
            for _ in range(40):
                if not _one_step(phone):
                    break
            else:
                raise AssertionError(f"hand {hand} did not end")
            phone.wait_for_selector(f".tt-hand:has-text('Hand {hand}')")
        phone.screenshot(path=str(SHOTS / "tournament-table-390.png"), full_page=True)
        game = tabletop.load_game(RealTable.objects.get(pk=table.pk))
        stacks = game.stacks
        assert game.game.hands_played == 2 and sum(stacks) == 30 and len(set(stacks)) > 1  # chips moved

        # The projector clock (laptop) shows the average and the leader from the table's live stacks.
        laptop.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/")
        assert laptop.locator('[data-clock="average_stack"]').inner_text() == str(sum(stacks) // 3) == "10"
        best = max(stacks)
        leaders = [seated[seat] for seat in range(3) if stacks[seat] == best]
        shown = laptop.locator('[data-clock="chip_leader"]').inner_text()
        assert shown.endswith(f" · {best}") and shown.split(" · ")[0] in leaders
        assert "from all 3 stacks" in laptop.locator('[data-clock="average_note"]').inner_text()
        laptop.screenshot(path=str(SHOTS / "tournament-clock-1280.png"), full_page=True)
        assert laptop.errors == [] and phone.errors == []
    finally:
        for context in contexts:
            context.close()
