"""Several wrong fields of a league or a season are all reported at once, by the service (one refusal naming
each field), the API (400, `extra.fields` by field, as an input error's) and the organiser's forms (each error
beside its field); a variant chosen with no preset (an empty selection on the form) gets a clear refusal naming the
presets."""

import re

import pytest

from config.errors import ApplicationError
from league import services
from league.models import AuditEntry, League, Season
from tests.league.conftest import client_for
from tests.manage.conftest import league_form_data, page_client

CORUSCANT_PRESETS = "halcyon, cantina, better or casino"


def field_errors(response) -> dict[str, list[str]]:
    return {name: list(errors) for name, errors in response.context["form"].errors.items()}


def shown_errors(response) -> list[str]:
    """The error paragraphs of the page, as the organiser reads them beside the fields."""
    return re.findall(r'<p class="field-error">(.*?)</p>', response.content.decode())


def test_the_league_service_names_every_wrong_field_at_once(world):
    before = League.objects.count(), AuditEntry.objects.count()
    with pytest.raises(ApplicationError) as refused:
        services.league_create(
            actor=world.users["organiser"],
            name="Outer Rim",
            best_n=0,
            min_players=0,
            visibility="everyone",
            tie_breakers=["luck"],
            preset="",
        )
    errors = refused.value.extra["fields"]
    assert set(errors) == {"preset", "tie_breakers", "best_n", "min_players", "visibility"}
    assert refused.value.extra["field"] == "preset"
    assert CORUSCANT_PRESETS in errors["preset"][0]
    assert all(message in refused.value.message for messages in errors.values() for message in messages)
    assert (League.objects.count(), AuditEntry.objects.count()) == before


def test_one_wrong_field_is_refused_as_before(world):
    with pytest.raises(ApplicationError) as refused:
        services.league_create(actor=world.users["organiser"], name="Outer Rim", min_players=0)
    assert refused.value.extra == {"field": "min_players"}


def test_the_league_update_names_every_wrong_field_and_changes_nothing(world):
    league = world.league
    with pytest.raises(ApplicationError) as refused:
        services.league_update(actor=world.users["organiser"], league=league, name=" ", slug="Bad Slug", best_n=0)
    assert set(refused.value.extra["fields"]) == {"name", "slug", "best_n"}
    league.refresh_from_db()
    assert league.best_n is None and league.name.startswith("League")


def test_the_api_answers_400_with_every_field_the_service_refuses(world):
    api = client_for(world.users["organiser"])
    body = {"name": "Outer Rim", "variant": "coruscant_shift", "preset": "", "tie_breakers": ["luck"]}
    body["points_formula"] = "nonsense"
    response = api.post("/api/leagues/", body, format="json")
    assert response.status_code == 400
    extra = response.json()["extra"]
    assert set(extra["fields"]) == {"preset", "points_formula", "tie_breakers"}
    assert CORUSCANT_PRESETS in extra["fields"]["preset"][0]
    assert extra["field"] == "preset"
    assert "errors" not in extra  # one shape: the fields under `fields`, as an input error names them
    assert not League.objects.filter(name="Outer Rim").exists()


def test_the_new_league_form_shows_every_error_beside_its_field(world):
    client = page_client(world.users["organiser"])
    data = league_form_data(name="", preset="", best_n="0", min_players="0", tie_breakers=["luck"])
    response = client.post("/manage/leagues/new/", data)
    assert response.status_code == 400
    errors = field_errors(response)
    assert set(errors) == {"name", "preset", "best_n", "min_players", "tie_breakers"}
    assert CORUSCANT_PRESETS in errors["preset"][0]
    assert "from 1 to" in errors["best_n"][0] and "from 1 to" in errors["min_players"][0]
    assert len(shown_errors(response)) >= 5
    assert not League.objects.exclude(pk__in=[world.league.pk, world.other_league.pk]).exists()


def test_the_edit_league_form_shows_every_error_and_saves_nothing(world):
    client = page_client(world.users["organiser"])
    league = world.league
    data = league_form_data(name="Renamed", slug=league.slug, best_n="0", min_players="0", points_formula="custom")
    data["points_expression"] = "place +"
    response = client.post(f"/manage/leagues/{league.slug}/edit/", data)
    assert response.status_code == 400
    assert {"best_n", "min_players", "points_expression"} <= set(field_errors(response))
    league.refresh_from_db()
    assert league.name != "Renamed"


def test_a_league_with_a_variant_and_no_preset_is_refused_naming_the_presets(world):
    client = page_client(world.users["organiser"])
    response = client.post("/manage/leagues/new/", league_form_data(name="Shift night", preset=""))
    assert response.status_code == 400
    assert field_errors(response) == {
        "preset": [
            f"Choose a preset of Coruscant Shift: {CORUSCANT_PRESETS} (the preset sets every option you do not change)."
        ]
    }
    response = client.post("/manage/leagues/new/", league_form_data(name="Shift night", variant="", preset=""))
    assert "Choose a variant" in field_errors(response)["variant"][0]
    assert not League.objects.filter(name="Shift night").exists()


def test_a_list_option_with_no_numbers_is_refused_not_dropped(world):
    client = page_client(world.users["organiser"])
    response = client.post("/manage/leagues/new/", league_form_data(name="Shift night", opt_ante_increments=", ,"))
    assert response.status_code == 400
    assert "holds no number" in field_errors(response)["opt_ante_increments"][0]
    assert not League.objects.filter(name="Shift night").exists()


@pytest.fixture
def spike_league(world):
    league = world.league
    league.variant, league.preset = "corellian_spike", "galaxy_series"
    league.save()
    return league


def test_a_season_of_another_variant_with_no_preset_is_refused_at_the_preset(world, spike_league):
    with pytest.raises(ApplicationError) as refused:
        services.season_create(
            actor=world.users["organiser"],
            league=spike_league,
            name="Shift",
            starts_on="2030-01-01",
            variant="coruscant_shift",
        )
    assert refused.value.extra == {"field": "preset"}
    assert CORUSCANT_PRESETS in refused.value.message and "Corellian Spike" in refused.value.message

    api = client_for(world.users["organiser"])
    body = {"league": spike_league.slug, "name": "Shift", "starts_on": "2030-01-01", "variant": "coruscant_shift"}
    response = api.post("/api/seasons/", body, format="json")
    assert response.status_code == 400 and response.json()["extra"]["field"] == "preset"

    client = page_client(world.users["organiser"])
    form = {"name": "Shift", "starts_on": "2030-01-01", "variant": "coruscant_shift", "preset": ""}
    response = client.post(f"/manage/leagues/{spike_league.slug}/seasons/", form)
    assert response.status_code == 400
    assert CORUSCANT_PRESETS in field_errors(response)["preset"][0]
    assert not Season.objects.filter(name="Shift").exists()


def test_a_season_of_the_leagues_variant_with_no_preset_keeps_the_leagues_and_the_form_says_so(world, spike_league):
    client = page_client(world.users["organiser"])
    page = client.get(f"/manage/leagues/{spike_league.slug}/seasons/").content.decode()
    assert "Blank keeps the league&#x27;s (Galaxy Series, a Corellian Spike preset)" in page
    form = {"name": "Spike", "starts_on": "2030-01-01", "variant": "corellian_spike", "preset": ""}
    response = client.post(f"/manage/leagues/{spike_league.slug}/seasons/", form)
    assert response.status_code == 302
    assert Season.objects.get(name="Spike").variant == "corellian_spike"


def test_the_season_form_shows_every_error_beside_its_field(world, spike_league):
    client = page_client(world.users["organiser"])
    form = {
        "name": "",
        "starts_on": "2030-02-01",
        "ends_on": "2030-01-01",
        "variant": "coruscant_shift",
        "preset": "",
        "points_formula": "custom",
        "points_expression": "place +",
    }
    response = client.post(f"/manage/leagues/{spike_league.slug}/seasons/", form)
    assert response.status_code == 400
    assert {"name", "ends_on", "preset", "points_expression"} <= set(field_errors(response))
    season = world.season
    response = client.post(f"/manage/seasons/{season.pk}/edit/", {**form, "name": "Renamed"})
    assert response.status_code == 400
    assert {"ends_on", "preset", "points_expression"} <= set(field_errors(response))
    season.refresh_from_db()
    assert season.name != "Renamed"


def test_the_season_api_names_every_wrong_field(world):
    api = client_for(world.users["organiser"])
    body = {"ends_on": "2000-01-01", "points_parameters": {"table": [3, 2, 1]}}
    response = api.patch(f"/api/seasons/{world.season.pk}/", body, format="json")
    assert response.status_code == 400
    assert set(response.json()["extra"]["fields"]) == {"ends_on", "points_parameters"}
