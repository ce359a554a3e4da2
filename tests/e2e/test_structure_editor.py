"""The structure editor on a phone (390 px): the organiser adds a level, moves it up, saves, and the reloaded
control room lists the levels in that order; then removes a row there and saves again. A Classic event's editor
has no blind columns."""

import pytest
from playwright.sync_api import expect

from league.models import EventKind, EventStatus, Role
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory, UserFactory
from tournaments.models import Tournament

from .test_tournament import fits, signed_in_context, watched

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def night(**league):
    league = LeagueFactory(slug="editor-league", name="Editor league", **league)
    event = EventFactory(
        season=SeasonFactory(league=league), kind=EventKind.TOURNAMENT, status=EventStatus.PLANNED, name="Cup night"
    )
    organiser = UserFactory(username="maz")
    MembershipFactory(league=league, player=PlayerFactory(user=organiser, display_name="Maz"), role=Role.ORGANISER)
    return event, organiser


def test_the_organiser_adds_moves_and_saves_a_level_and_the_reload_shows_it(browser, live_server):
    event, organiser = night()
    context = signed_in_context(browser, live_server, organiser)
    page = watched(context)
    page.goto(f"{live_server.url}/manage/events/{event.pk}/tournament/")
    rows = page.locator(".s-row")
    expect(rows).to_have_count(14)  # the regular structure: 12 levels and 2 breaks
    expect(page.locator("#t-structure")).to_be_hidden()  # the rows are the editor; the JSON one click away
    page.get_by_role("button", name="Add a level").click()
    expect(rows).to_have_count(15)
    last = rows.nth(14)
    last.get_by_label("Small blind, row 15").fill("5")
    last.get_by_label("Big blind, row 15").fill("10")
    last.get_by_label("Length, row 15").fill("7")
    # Move it to the top: the new first level, the old first one second.
    for row in (15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2):
        page.get_by_role("button", name=f"Move row {row} up").click()
    expect(rows.nth(0).get_by_label("Length, row 1")).to_have_value("7")
    expect(page.get_by_role("button", name="Move row 1 up", exact=True)).to_be_disabled()
    page.get_by_label("Length, row 2", exact=True).fill("20")  # the old first level (5/10, 20 min) stays valid after it
    fits(page)
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url("**/manage/tournaments/*/")
    tournament = Tournament.objects.get(event=event)
    assert [level["length"] for level in tournament.structure[:2]] == [7, 20]
    page.reload()
    first = page.locator("[data-levels] tbody tr").first
    expect(first).to_contain_text("5/10")
    expect(first).to_contain_text("7 minutes")
    expect(page.locator("[data-levels] tbody tr")).to_have_count(15)
    fits(page)

    page.get_by_text("Edit the structure").click()
    editor_rows = page.locator("#structure .s-row")
    expect(editor_rows).to_have_count(15)
    page.get_by_role("button", name="Remove row 1", exact=True).click()
    expect(editor_rows).to_have_count(14)
    page.get_by_role("button", name="Save the structure").click()
    expect(page.locator(".messages")).to_contain_text("The structure is saved")
    page.reload()
    expect(page.locator("[data-levels] tbody tr")).to_have_count(14)
    expect(page.locator("[data-levels] tbody tr").first).to_contain_text("20 minutes")
    tournament.refresh_from_db()
    assert len(tournament.structure) == 14
    assert page.console_errors == [], page.console_errors
    context.close()


def test_a_classic_event_has_no_blind_columns_and_fills_ante_only_levels_from_a_preset(browser, live_server):
    event, organiser = night(variant="classic", preset="classic", option_overrides={})
    context = signed_in_context(browser, live_server, organiser)
    page = watched(context)
    page.goto(f"{live_server.url}/manage/events/{event.pk}/tournament/")
    expect(page.locator(".s-row").first).to_be_visible()
    assert page.locator(".s-row .s-big_blind").count() == 0 and page.locator(".s-row .s-ante").count() > 0
    page.fill("#t-preset-duration", "90")
    page.get_by_role("button", name="Fill from the preset").click()
    expect(page.locator("[data-status]")).to_contain_text("Filled with")
    fits(page)
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url("**/manage/tournaments/*/")
    levels = Tournament.objects.get(event=event).structure
    assert all(level["big_blind"] == 0 for level in levels) and levels[-1]["ante"] > levels[0]["ante"]
    assert page.console_errors == [], page.console_errors
    context.close()
