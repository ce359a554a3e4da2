"""Words an organiser reads: the hub's points formula in words (as the league's page says it), the result form's
replay formats from the engine's own list, and the site's one date format."""

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from games.engine.replay import FORMATS
from games.templatetags.words import site_when
from league.pages import points_in_words

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("formula", ["sqrt", "linear"])
def test_the_hub_shows_the_points_formula_in_words_as_the_league_page(world, organiser_client, formula):
    world.league.points_formula = formula
    world.league.save()
    hub = organiser_client.get(f"/manage/leagues/{world.league.slug}/").content.decode()
    words = points_in_words(formula, world.league.points_parameters)
    assert words != formula and words[0].upper() + words[1:] in hub
    assert f'<dd id="points">{formula}' not in hub
    public = organiser_client.get(f"/leagues/{world.league.slug}/").content.decode()
    assert words[0].upper() + words[1:] in public


def test_the_result_form_names_every_replay_format_the_engine_reads(world, organiser_client):
    world.event.status = "running"
    world.event.save()
    page = organiser_client.get(reverse("manage-result-entry", args=[world.event.pk])).content.decode()
    assert "sabacc-replay/2" in FORMATS and all(name in page for name in FORMATS)
    assert "Replay file (sabacc-replay/2 or sabacc-replay/1)" in page


def test_the_site_date_format_reads_datetimes_and_iso_text_alike():
    moment = datetime(2026, 11, 27, 23, 37, tzinfo=UTC)
    assert site_when(moment) == site_when(moment.isoformat()) == "27 Nov 2026 23:37"
    assert site_when("not a date") == "" and site_when(None) == ""


def test_the_seasons_page_shows_a_seasons_own_points_formula_in_words(world, organiser_client):
    world.season.points_formula = "sqrt"
    world.season.save()
    page = organiser_client.get(f"/manage/leagues/{world.league.slug}/seasons/").content.decode()
    words = points_in_words("sqrt", world.season.points_parameters)
    assert words != "sqrt" and f"points: {words}" in page
    assert "points sqrt" not in page
