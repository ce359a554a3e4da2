"""The player, league, event and game pages: what they show, to whom, and the same visibility as the API."""

import json
import re
from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone

from games.services import result_record
from league.models import LedgerEntry, Standing
from tests.factories import UserFactory, client_as

pytestmark = pytest.mark.django_db


def _chart_data(html: str, chart_id: str) -> dict:
    match = re.search(rf'<script id="{chart_id}-data" type="application/json">(.*?)</script>', html, re.S)
    assert match, f"no data for chart {chart_id}"
    return json.loads(match.group(1))


def test_the_league_page_keeps_the_season_in_the_url_and_the_csv_link_follows(site_world):
    world = site_world.base
    url = f"/leagues/{world.league.slug}/"
    season = client_as().get(url, {"season": world.season.pk}).content.decode()
    assert f'href="/api/leagues/{world.league.slug}/standings/csv/?season={world.season.pk}"' in season
    all_time = client_as().get(url, {"season": "all"}).content.decode()
    assert "Standings: all time" in all_time and f'href="/api/leagues/{world.league.slug}/standings/csv/"' in all_time
    missing = client_as().get(url, {"season": "999999"})  # the latest season, with a notice (test_league_page_query)
    assert missing.status_code == 400 and "has no season" in missing.content.decode()


def test_the_league_page_sorts_by_a_column_and_marks_it(site_world):
    world = site_world.base
    url = f"/leagues/{world.league.slug}/?season={world.season.pk}"
    by_net = client_as().get(url + "&sort=net&dir=asc").content.decode()
    assert 'aria-sort="ascending"' in by_net
    table = by_net.split('id="standings-table"')[1].split("</table>")[0]
    names = re.findall(r'<a href="/players/\d+/">([^<]+)</a>', table)
    assert names == ["Han", "Lando"]  # Han -70, Lando +70
    desc = client_as().get(url + "&sort=net&dir=desc").content.decode().split('id="standings-table"')[1]
    assert re.findall(r'<a href="/players/\d+/">([^<]+)</a>', desc.split("</table>")[0]) == ["Lando", "Han"]
    assert client_as().get(url + "&sort=nonsense&dir=sideways").status_code == 400  # by rank, saying so


def test_the_signed_in_players_row_is_highlighted(site_world):
    world = site_world.base
    han = world.players[0]
    user = UserFactory(username="han-solo")
    han.user = user
    han.save()
    html = client_as(user).get(f"/leagues/{world.league.slug}/?season={world.season.pk}").content.decode()
    row = html.split('class="me" aria-current="true"')[1].split("</tr>")[0]
    assert f'href="/players/{han.pk}/">Han</a>' in row and ">you</span>" in row
    assert 'class="me"' not in client_as().get(f"/leagues/{world.league.slug}/").content.decode()


def test_running_events_give_marked_provisional_standings_and_are_listed(site_world):
    world = site_world.base
    html = client_as().get(f"/leagues/{world.league.slug}/?season={world.season.pk}").content.decode()
    official = html.split('id="standings-table"')[1].split("</table>")[0]
    provisional = html.split('id="provisional-table"')[1].split("</table>")[0]
    assert "Leia" not in official and "Leia" in provisional  # Leia played only in the running event
    assert 'class="badge provisional">provisional</span>' in html
    assert f'href="/events/{site_world.running_event.pk}/">Running cup</a>' in html
    assert Standing.objects.filter(league=world.league, player=world.players[2]).count() == 0


def test_rules_are_said_in_words_and_numbers_are_grouped(site_world):
    world = site_world.base
    html = client_as().get(f"/leagues/{world.league.slug}/").content.decode()
    assert re.search(r'id="rules">Better Coruscant Shift, blinds 5/10, blinds double each orbit', html)
    assert "450 credits each" in html
    event = client_as().get(f"/events/{site_world.running_event.pk}/").content.decode()
    assert "1,350 credits" in event  # the prize pool: three buy-ins of 450


def test_the_player_page_shows_figures_chart_results_and_a_paginated_ledger(site_world):
    world = site_world.base
    han = world.players[0]
    html = client_as().get(f"/players/{han.pk}/").content.decode()
    assert 'id="figure-events">1<' in html  # the finished event only; the running one is provisional
    data = _chart_data(html, "credits-chart")
    # One heading says what the chart is, its caption only the span shown (not the heading again).
    assert "<h2>Net credits over time</h2>" in html and "<h3>All time</h3>" in html
    assert html.count("Net credits over time") == 1
    assert data["time"] is True and data["series"][0]["label"] == "Han"
    assert data["series"][0]["values"][0] == -70
    hands = _chart_data(html, "hands-chart")
    assert hands["x"][0] == 0 and hands["series"][0]["values"][0] == 450
    assert 'class="chart-fallback" open' in html  # the table for readers without JavaScript
    assert "/static/vendor/uplot-1.6.32.iife.min.js" in html and "/static/js/charts.js" in html
    assert f"/api/players/{han.pk}/ledger/csv/?league={world.league.slug}" in html
    with TestCase.captureOnCommitCallbacks(execute=True):
        result_record(
            actor=world.users["organiser"],
            event=world.event,
            seats=[{"player": han.pk, "buy_in": 450}, {"player": world.players[1].pk, "buy_in": 450}],
            hands=[{str(han.pk): 5, str(world.players[1].pk): -5}] * 20,
        )
    assert LedgerEntry.objects.filter(player=han).count() > 25
    page_two = client_as().get(f"/players/{han.pk}/?page=2").content.decode()
    assert "Page 2 of" in page_two
    season = client_as().get(f"/players/{han.pk}/?scope={world.season.pk}").content.decode()
    assert f"{world.league.name} {world.season.name}" in season


def test_a_members_only_leagues_player_event_and_game_are_hidden_from_outsiders(site_world):
    from league.models import Visibility

    world = site_world.base
    world.league.visibility = Visibility.MEMBERS
    world.league.save()
    han = world.players[0]
    for url in (f"/players/{han.pk}/", f"/events/{world.event.pk}/", f"/games/{site_world.replay_game.pk}/"):
        assert client_as().get(url).status_code == 404, url
        assert client_as(world.users["outsider"]).get(url).status_code == 404, url
        assert client_as(world.users["member"]).get(url).status_code == 200, url


def test_the_event_page_shows_status_tables_games_results_and_prize_pool(site_world):
    event = site_world.running_event
    html = client_as().get(f"/events/{event.pk}/").content.decode()
    assert "Running</span>" in html and "Final table" in html
    assert f'href="/games/{site_world.replay_game.pk}/"' in html
    assert 'id="prize-pool">1,350 credits' in html
    assert html.count('href="/players/') >= 3
    # On a phone the results keep place, player, buy-in, out and net in view; re-buys hide, as on a game's page.
    assert '<th scope="col" class="num hide-narrow">Re-buys</th>' in html


def test_the_game_page_steps_through_the_hand_history_without_serving_the_replay(site_world):
    game = site_world.replay_game
    document = type(game).objects.get(pk=game.pk).replay_document
    html = client_as().get(f"/games/{game.pk}/").content.decode()
    assert "Hand 1 of" in html and "Step 1 of" in html and "deals. The dice" in html
    assert _chart_data(html, "game-chart")["series"][0]["label"] in {"Han", "Lando", "Leia"}
    step = client_as().get(f"/games/{game.pk}/?hand=1&step=3", headers={"HX-Request": "true"}).content.decode()
    assert step.strip().startswith('<div id="history"') and "Step 3 of" in step and "<html" not in step
    deck = " ".join(document["hands"][0]["deck"])
    for text in (html, step):
        assert deck not in text and '"deck"' not in text and "seed" not in text.lower()
    last = len(document["hands"])
    assert "Hand 1 of" in client_as().get(f"/games/{game.pk}/?hand=0&step=-4").content.decode()
    assert f"Hand {last} of {last}" in client_as().get(f"/games/{game.pk}/?hand=999&step=x").content.decode()


def test_a_game_without_replay_says_so(site_world):
    html = client_as().get(f"/games/{site_world.finished_game.pk}/").content.decode()
    assert "No replay is stored for this game" in html
    assert _chart_data(html, "game-chart")["x"] == [0, 1, 2]


def test_home_shows_a_signed_in_players_leagues_events_and_results(site_world):
    world = site_world.base
    han = world.players[0]
    han.user = UserFactory(username="han-home", date_joined=timezone.now() - timedelta(days=30))
    han.save()
    html = client_as(han.user).get("/").content.decode()
    assert "Welcome back, Han" in html
    assert f'href="/leagues/{world.league.slug}/">{world.league.name}</a>' in html
    assert f'href="/events/{site_world.running_event.pk}/">Running cup</a>' in html
    assert f'href="/events/{world.event.pk}/">' in html.split('id="my-results"')[1]
    anonymous = client_as().get("/").content.decode()
    assert "Running now" in anonymous and "Running cup" in anonymous


def test_an_adjustment_in_the_players_ledger_shows_when_it_was_booked_not_when_its_event_began(site_world):
    from datetime import timedelta

    from django.utils import timezone

    from league.services import ledger_adjust

    world = site_world.base
    han = world.players[0]
    world.event.__class__.objects.filter(pk=world.event.pk).update(starts_at=timezone.now() - timedelta(days=3))
    world.event.refresh_from_db()
    entry = ledger_adjust(actor=world.users["organiser"], event=world.event, player=han, amount=-50, reason="a slip")
    html = client_as().get(f"/players/{han.pk}/").content.decode()
    row = next(r for r in html.split("<tr>") if "Adjustment" in r)
    booked = timezone.localtime(entry.created_at).strftime("%-d %b %Y %H:%M")
    began = timezone.localtime(world.event.starts_at).strftime("%-d %b %Y")
    assert booked in row and began not in row
