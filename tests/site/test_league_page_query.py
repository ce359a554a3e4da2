"""The league page answers a `?season=`, `?sort=` or `?dir=` it does not take with the page of the default and a
notice saying what was wrong and what is allowed (a 400, never a 500 nor a quiet fallback), as the API answers a
400 naming what is allowed; the page cache stays right: a wrong value neither makes an entry nor changes the page
others are served."""

import re

import pytest
from django.core.cache import cache
from django.test import Client

from league import page_cache
from tests.factories import SeasonFactory

pytestmark = pytest.mark.django_db


def _notice(html: str) -> str:
    match = re.search(r'<div class="message error query-notice" id="query-notice" role="alert">(.*?)</div>', html, re.S)
    assert match, "no notice on the page"
    return match.group(1)


def _standings_heading(html: str) -> str:
    return re.search(r'<section id="standings"[^>]*>.*?<h2>(.*?)</h2>', html, re.S).group(1)


def test_a_season_the_league_does_not_have_shows_the_latest_season_and_names_the_seasons(site_world):
    world = site_world.base
    other = SeasonFactory(league=site_world.base.other_league)  # another league's season is not this league's
    url = f"/leagues/{world.league.slug}/"
    default = Client().get(url).content.decode()
    for wrong in ("999999", "abc", str(other.pk), "<b>x</b>"):
        response = Client().get(url, {"season": wrong})
        assert response.status_code == 400, wrong
        html = response.content.decode()
        notice = _notice(html)
        shown = wrong.replace("<", "&lt;").replace(">", "&gt;")
        assert f"has no season “{shown}”" in notice and "<b>x</b>" not in html
        assert f"its latest season, {world.season.name}" in notice
        assert f'<a href="?season={world.season.pk}">{world.season.name}</a>' in notice
        assert '<a href="?season=all">all time</a>' in notice
        assert _standings_heading(html) == _standings_heading(default) == f"Standings: {world.season.name}"


def test_a_column_and_a_direction_it_does_not_sort_by_are_named_with_what_it_takes(site_world):
    world = site_world.base
    url = f"/leagues/{world.league.slug}/?season={world.season.pk}"
    response = Client().get(url + "&sort=nonsense&dir=sideways")
    assert response.status_code == 400
    notice = _notice(response.content.decode())
    assert "cannot be sorted by “nonsense”, so they are sorted by rank" in notice
    for key in ("rank", "player", "points", "wins", "net", "place", "events", "pot"):
        assert f"<code>{key}</code>" in notice
    assert "“sideways” is not a sort direction" in notice and "<code>asc</code> or <code>desc</code>" in notice
    assert 'aria-sort="ascending"' in response.content.decode().split('id="standings-table"')[1].split("</tr>")[0]
    right = Client().get(url + "&sort=net&dir=asc")
    assert right.status_code == 200 and 'id="query-notice"' not in right.content.decode()


def test_a_wrong_value_neither_fills_nor_changes_the_cached_page(site_world, settings):
    settings.PAGE_STAMP_MAX_AGE = 0
    world = site_world.base
    url = f"/leagues/{world.league.slug}/"
    cache.clear()
    stored = []
    real_set = page_cache._set_page
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(page_cache, "_set_page", lambda key, body: (stored.append(body), real_set(key, body)))
        first = Client().get(url, {"season": "424242"})  # cold: the default page is rendered and stored
        assert first.status_code == 400 and "424242" in _notice(first.content.decode())
        assert stored and all("424242" not in body and 'id="query-notice"' not in body for body in stored)
        count = len(stored)
        for wrong in ("424243", "abc", "all-time"):  # each made-up value: the default's copy, nothing stored
            assert Client().get(url, {"season": wrong}).status_code == 400
        assert Client().get(url, {"sort": "luck"}).status_code == 400
        assert len(stored) == count  # `?sort=luck` is served the page of the default order: the same entry
        again = Client().get(url, {"sort": "luck", "season": "abc"})
        assert again.status_code == 400 and "luck" in _notice(again.content.decode()) and len(stored) == count
    clean = Client().get(url)
    assert clean.status_code == 200
    html = clean.content.decode()
    assert 'id="query-notice"' not in html and "424242" not in html and "luck" not in html
    assert "page-cache:" not in html  # no slot left behind


def test_htmx_gets_the_default_standings_with_the_notice_in_them(site_world):
    world = site_world.base
    response = Client().get(f"/leagues/{world.league.slug}/", {"season": "999999"}, headers={"HX-Request": "true"})
    assert response.status_code == 200  # htmx swaps a 2xx only: the notice must reach the page
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="standings"')
    assert "has no season “999999”" in _notice(html) and f"Standings: {world.season.name}" in html
    fine = Client().get(f"/leagues/{world.league.slug}/", {"sort": "net"}, headers={"HX-Request": "true"})
    assert fine.status_code == 200 and 'id="query-notice"' not in fine.content.decode()
    assert "page-cache:" not in fine.content.decode()


def test_a_league_without_seasons_says_all_time_is_shown(site_world):
    league = site_world.base.other_league
    assert league.visibility == "public" and not league.seasons.exists()
    response = Client().get(f"/leagues/{league.slug}/", {"season": "7"})
    assert response.status_code == 400
    notice = _notice(response.content.decode())
    assert "so this is all time" in notice and 'Pick <a href="?season=all">all time</a>' in notice
