"""A league's standings in a real browser: htmx swaps the season without a page load, and the address and the
CSV link follow the season (bookmarkable)."""

import io

import pytest

from league.models import Standing
from tournaments.demo import load_demo_data

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_standings_table_follows_the_season_picker(live_server, page):
    load_demo_data(io.StringIO())
    season_one = Standing.objects.filter(season__name="Season 1").order_by("rank")
    assert season_one.count() == 12

    page.goto(live_server.url + "/leagues/")
    page.get_by_role("link", name="Coruscant Circuit").click()
    page.wait_for_url("**/leagues/coruscant-circuit/")
    assert page.locator("#standings h2").inner_text() == "Standings: Season 2"
    page.evaluate("window.__sameDocument = true")  # gone if the browser loads a new page

    season = season_one[0].season
    csv = "/api/leagues/coruscant-circuit/standings/csv/"
    assert (
        page.locator("#standings-csv").get_attribute("href")
        == f"{csv}?season={season.league.seasons.get(name='Season 2').pk}"
    )
    page.select_option("#season", label="Season 1")
    page.wait_for_function("document.querySelector('#standings h2').textContent.includes('Season 1')")
    page.wait_for_url(f"**/leagues/coruscant-circuit/?season={season.pk}")
    assert page.locator("#standings-csv").get_attribute("href") == f"{csv}?season={season.pk}"
    rows = page.locator("#standings-table tbody tr")
    assert rows.count() == 12
    first = rows.nth(0).locator("td")
    assert first.nth(1).inner_text() == season_one[0].display_name
    assert page.evaluate("window.__sameDocument") is True

    page.select_option("#season", label="All time")
    page.wait_for_function("document.querySelector('#standings h2').textContent.includes('all time')")
    assert page.locator("#standings-table tbody tr").count() == 12
    page.wait_for_url("**/leagues/coruscant-circuit/?season=all")
    assert page.locator("#standings-csv").get_attribute("href") == csv

    page.reload()  # the address alone brings the same table back
    assert page.locator("#standings h2").inner_text() == "Standings: all time"
    assert page.locator("#season").input_value() == "all"
