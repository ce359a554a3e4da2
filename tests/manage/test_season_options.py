"""A season overrides single engine options of its league's rules (starting stack, blinds, a hand limit, ...):
checked by the engine through `league.providers`, refused beside the option with what is allowed and nothing saved,
editable on the organiser's season page (each option with the league's value), offered by the API, shown in
words on the league page, and used by the games of that season."""

import datetime

import pytest
from django.test import Client, TestCase
from rest_framework.test import APIClient

from config.errors import ApplicationError
from games.models import Game
from games.services import result_record
from league import services
from league.models import Season
from tests.factories import EventFactory

pytestmark = pytest.mark.django_db


def _season_form(season: Season, **options: str) -> dict[str, str]:
    """The season page's form as the browser posts it, with `opt_<name>` inputs for the options given."""
    data = {"name": season.name, "starts_on": season.starts_on.isoformat(), "ends_on": "", "preset": ""}
    data.update({f"opt_{name}": value for name, value in options.items()})
    return data


# Service


def test_a_season_saves_single_option_overrides_checked_by_the_engine(world):
    organiser = world.users["organiser"]
    season = services.season_create(
        actor=organiser,
        league=world.league,
        name="Deep stacks",
        starts_on=datetime.date(2026, 3, 1),
        option_overrides={"starting_stack": 900, "hands": 40},
    )
    assert Season.objects.get(pk=season.pk).option_overrides == {"starting_stack": 900, "hands": 40}

    with pytest.raises(ApplicationError, match=r"'small_blind' \(50\) may not exceed 'big_blind' \(10\)"):
        services.season_update(actor=organiser, season=season, option_overrides={"small_blind": 50})
    with pytest.raises(ApplicationError, match="must be one of no_limit, fixed_stay"):
        services.season_create(
            actor=organiser,
            league=world.league,
            name="Odd betting",
            starts_on=datetime.date(2026, 4, 1),
            option_overrides={"betting": "pot_limit"},
        )
    assert Season.objects.get(pk=season.pk).option_overrides == {"starting_stack": 900, "hands": 40}
    assert not Season.objects.filter(name="Odd betting").exists()


def test_games_of_the_season_are_played_by_its_overrides_over_the_league_rules(world):
    organiser = world.users["organiser"]
    services.season_update(actor=organiser, season=world.season, option_overrides={"starting_stack": 900})
    han, lando = world.players[:2]
    event = EventFactory(season=world.season)
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = result_record(
            actor=organiser,
            event=event,
            seats=[
                {"player": han.pk, "buy_in": 900, "final_credits": 1800},
                {"player": lando.pk, "buy_in": 900, "final_credits": 0},
            ],
        )
    options = Game.objects.get(pk=game.pk).options
    # The season's starting stack; the rest is the league's ("better": blinds 5/10 doubling each orbit).
    assert (options["starting_stack"], options["big_blind"], options["escalation"]) == (900, 10, "double_blinds")


# API


def test_the_api_takes_the_same_overrides_with_the_same_checks(world):
    client = APIClient()
    client.force_authenticate(world.users["organiser"])
    bad = client.post(
        "/api/seasons/",
        {"league": world.league.slug, "name": "Bad", "starts_on": "2026-05-01", "option_overrides": {"ante": -1}},
        format="json",
    )
    assert bad.status_code == 400
    assert "'ante' must be a whole number of at least 0" in bad.json()["detail"]
    assert not Season.objects.filter(name="Bad").exists()

    good = client.post(
        "/api/seasons/",
        {
            "league": world.league.slug,
            "name": "Turbo",
            "starts_on": "2026-05-01",
            "option_overrides": {"min_bet": 20, "hands": 30},
        },
        format="json",
    )
    assert good.status_code == 201, good.content
    season_id = good.json()["id"]
    assert client.get(f"/api/seasons/{season_id}/").json()["option_overrides"] == {"min_bet": 20, "hands": 30}
    refused = client.patch(f"/api/seasons/{season_id}/", {"option_overrides": {"roller": "anyone"}}, format="json")
    assert refused.status_code == 400 and "dealer, left_of_dealer" in refused.json()["detail"]
    assert Season.objects.get(pk=season_id).option_overrides == {"min_bet": 20, "hands": 30}


# The organiser's season page


def test_the_season_page_shows_each_option_with_the_league_value_and_no_free_text_for_choices(world, organiser_client):
    page = organiser_client.get(f"/manage/seasons/{world.season.pk}/edit/").content.decode()
    # The league plays "better": 450 credits each, no-limit betting, blinds doubling each orbit.
    assert 'name="opt_starting_stack"' in page and "The league&#x27;s: 450. Blank keeps it." in page
    betting = page.split('name="opt_betting"', 1)[1].split("</div>", 1)[0]
    assert '<option value="" selected>(the league&#x27;s)</option>' in betting and 'value="fixed_stay"' in betting
    assert "The league&#x27;s: no limit. Blank keeps it." in betting
    assert '<select name="opt_escalation"' in page and '<input type="text" name="opt_escalation"' not in page
    # A rule only another variant has (a season may play another variant): blank is that preset's value, not "none".
    spike_only = page.split('name="opt_market"', 1)[1].split("</div>", 1)[0]
    assert "Not a rule of the league&#x27;s variant: blank takes the season&#x27;s preset&#x27;s value." in spike_only


def test_an_override_saved_on_the_season_page_shows_on_the_league_page(world, organiser_client):
    response = organiser_client.post(
        f"/manage/seasons/{world.season.pk}/edit/", _season_form(world.season, starting_stack="777", rebuys="yes")
    )
    assert response.status_code == 302, response.content.decode()
    world.season.refresh_from_db()
    assert world.season.option_overrides == {"starting_stack": 777, "rebuys": True}

    league_page = Client().get(f"/leagues/{world.league.slug}/?season={world.season.pk}").content.decode()
    assert "777 credits each" in league_page and "re-buys allowed" in league_page
    assert "starting stack 777 (the league&#x27;s 450)" in league_page
    assert "rebuys yes (the league&#x27;s no)" in league_page

    # Blank again: the season keeps the league's value.
    response = organiser_client.post(f"/manage/seasons/{world.season.pk}/edit/", _season_form(world.season))
    assert response.status_code == 302
    world.season.refresh_from_db()
    assert world.season.option_overrides == {}


@pytest.mark.parametrize(
    ("options", "field", "allowed"),
    [
        ({"betting": "pot_limit"}, "opt_betting", "must be one of no_limit, fixed_stay"),
        ({"small_blind": "50"}, "opt_small_blind", "may not exceed 'big_blind' (10)"),
        ({"max_bet": "0"}, "opt_max_bet", "at least 1 and at most 1,000,000,000 or null"),
        ({"hands": "many"}, "opt_hands", "Enter a whole number"),
        ({"ante_increments": "5, 3"}, "opt_ante_increments", "four whole numbers"),
    ],
)
def test_a_bad_override_is_refused_beside_its_option_and_saves_nothing(
    world, organiser_client, options, field, allowed
):
    services.season_update(actor=world.users["organiser"], season=world.season, option_overrides={"hands": 12})
    response = organiser_client.post(f"/manage/seasons/{world.season.pk}/edit/", _season_form(world.season, **options))
    assert response.status_code == 400
    assert allowed in " ".join(response.context["form"].errors[field])
    world.season.refresh_from_db()
    assert world.season.option_overrides == {"hands": 12}


def test_a_new_season_takes_overrides_from_the_seasons_page(world, organiser_client):
    response = organiser_client.post(
        f"/manage/leagues/{world.league.slug}/seasons/",
        {"name": "Cash spring", "starts_on": "2026-03-01", "opt_min_bet": "20", "opt_tie_rule": "draw"},
    )
    assert response.status_code == 302
    assert Season.objects.get(name="Cash spring").option_overrides == {"min_bet": 20, "tie_rule": "draw"}
    page = organiser_client.get(f"/manage/leagues/{world.league.slug}/seasons/").content.decode()
    assert "2 options changed" in page


def test_the_season_page_opens_with_the_season_as_saved(world, organiser_client):
    services.season_update(
        actor=world.users["organiser"], season=world.season, option_overrides={"starting_stack": 640, "rebuys": True}
    )
    response = organiser_client.get(f"/manage/seasons/{world.season.pk}/edit/")
    form = response.context["form"]
    assert not form.is_bound
    assert form["name"].value() == world.season.name and form["starts_on"].value() == world.season.starts_on
    assert (form["opt_starting_stack"].value(), form["opt_rebuys"].value()) == (640, "yes")
    assert 'value="640"' in response.content.decode()
