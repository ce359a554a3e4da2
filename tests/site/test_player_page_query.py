"""The player page answers a `?scope=`, `?game=` or `?page=` it does not take as the league page does
(`test_league_page_query.py`): the page of the default and a notice saying what was wrong and what is allowed, a
400, never a quiet fallback; a wrong value neither makes a cache entry nor changes the page others are served."""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client

from league import page_cache
from tests.factories import SeasonFactory
from tests.site.test_query_counts import PORTABLE_PLAYER

pytestmark = pytest.mark.django_db


def _notice(html: str) -> str:
    match = re.search(r'<div class="message error query-notice" id="query-notice" role="alert">(.*?)</div>', html, re.S)
    assert match, "no notice on the page"
    return match.group(1)


def _chart_caption(html: str, chart: str) -> str:
    return re.search(rf'id="{chart}".*?<h3>(.*?)</h3>', html, re.S).group(1)


def _selected_game(html: str) -> str:
    return re.search(r'<select id="game"[^>]*>.*?<option value="(\d+)" selected', html, re.S).group(1)


def test_a_season_the_player_has_no_results_in_shows_all_time_and_names_the_seasons(site_world):
    world = site_world.base
    han = world.players[0]
    empty = SeasonFactory(league=world.league)  # the league's, but Han has no result in it
    url = f"/players/{han.pk}/"
    for wrong in ("999999", "abc", str(empty.pk), "<b>x</b>"):
        response = Client().get(url, {"scope": wrong})
        assert response.status_code == 400, wrong
        html = response.content.decode()
        shown = wrong.replace("<", "&lt;").replace(">", "&gt;")
        notice = _notice(html)
        assert f"Han has no results in a season “{shown}”, so the chart shows all time" in notice
        assert "<b>x</b>" not in html
        assert f'<a href="?scope={world.season.pk}">{world.league.name}: {world.season.name}</a>' in notice
        assert f'?scope={empty.pk}"' not in notice and '<a href="?scope=all">all time</a>' in notice
        assert _chart_caption(html, "credits-chart") == "All time"
    right = Client().get(url, {"scope": world.season.pk})
    assert right.status_code == 200 and 'id="query-notice"' not in right.content.decode()
    assert _chart_caption(right.content.decode(), "credits-chart") == f"{world.league.name} {world.season.name}"


def test_a_game_not_played_hand_by_hand_shows_the_latest_and_the_right_scope_stays(site_world):
    world = site_world.base
    han, chewie = world.players[0], world.players[3]
    url = f"/players/{han.pk}/"
    default = Client().get(url).content.decode()
    latest = _selected_game(default)
    for wrong in ("999999", "x1", "-1"):
        response = Client().get(url, {"game": wrong, "scope": world.season.pk})
        assert response.status_code == 400, wrong
        html = response.content.decode()
        notice = _notice(html)
        assert f"“{wrong}” is not a game Han played hand by hand, so the chart shows the latest" in notice
        assert 'data-param="scope"' not in notice  # the season was right: it is kept
        assert _chart_caption(html, "credits-chart") == f"{world.league.name} {world.season.name}"
        assert _selected_game(html) == latest
    nothing = Client().get(f"/players/{chewie.pk}/", {"game": "1"})  # Chewie has no game with hands
    assert nothing.status_code == 400
    assert "there is no hand-by-hand chart" in _notice(nothing.content.decode())


def test_a_ledger_page_it_does_not_have_shows_the_first_and_names_the_pages(site_world):
    han = site_world.base.players[0]
    url = f"/players/{han.pk}/"
    for wrong in ("0", "2", "abc", "1.5", "-1"):
        response = Client().get(url, {"page": wrong})
        assert response.status_code == 400, wrong
        notice = _notice(response.content.decode())
        assert f"The ledger has no page “{wrong}”, so this is its first page. It has one page." in notice
    assert Client().get(url, {"page": "1"}).status_code == 200


def test_every_wrong_value_is_named_at_once(site_world):
    han = site_world.base.players[0]
    response = Client().get(f"/players/{han.pk}/", {"scope": "s", "game": "g", "page": "p"})
    assert response.status_code == 400
    notice = _notice(response.content.decode())
    assert re.findall(r'data-param="(\w+)"', notice) == ["scope", "game", "page"]


def test_a_wrong_value_neither_fills_nor_changes_the_cached_page(site_world, settings):
    settings.PAGE_STAMP_MAX_AGE = 0
    han = site_world.base.players[0]
    url = f"/players/{han.pk}/"
    cache.clear()
    stored = []
    real_set, real_cached = page_cache._set_page, page_cache._set
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(page_cache, "_set_page", lambda key, body: (stored.append(body), real_set(key, body)))
        patch.setattr(page_cache, "_set", lambda key, value: (stored.append(value), real_cached(key, value)))
        first = Client().get(url, {"scope": "424242"})  # cold: the default page is rendered and stored
        assert first.status_code == 400 and "424242" in _notice(first.content.decode())
        assert stored and all("424242" not in str(value) and 'id="query-notice"' not in str(value) for value in stored)
        count = len(stored)
        for name, wrong in (("scope", "424243"), ("game", "424244"), ("page", "424245"), ("page", "abc")):
            assert Client().get(url, {name: wrong}).status_code == 400
        assert len(stored) == count  # each made-up value: the default's copy, nothing stored
    clean = Client().get(url)
    assert clean.status_code == 200
    html = clean.content.decode()
    assert 'id="query-notice"' not in html and "42424" not in html
    assert "page-cache:" not in html  # no slot left behind


def test_a_refused_value_costs_the_reads_up_to_its_check(site_world, settings, django_assert_num_queries):
    """With the default page warm (one query: who may see it), a refused value adds the four reads the page's body
    makes before it knows the value is wrong (results, games with hands, the ledger's count and page), then serves
    the default's cached copy."""
    settings.PAGE_STAMP_MAX_AGE = 0
    url = f"/players/{site_world.base.players[0].pk}/"
    portable = PORTABLE_PLAYER[2] if connection.vendor != "postgresql" else 0
    Client().get(url)
    with django_assert_num_queries(1 + portable):
        assert Client().get(url).status_code == 200
    for params in ({"scope": "999999"}, {"page": "abc"}, {"game": "5", "scope": "x", "page": "0"}):
        with django_assert_num_queries(1 + 4 + portable):
            assert Client().get(url, params).status_code == 400
