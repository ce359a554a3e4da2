"""A change of a league's rules keeps its seasons' own rules valid: a season inherits the league's variant, preset
and overrides where it leaves them blank, so a new league variant could leave a season naming another variant's
preset or options. Such a change is refused naming the season, and changes nothing; one the seasons fit passes."""

import pytest

from config.errors import ApplicationError
from league import services
from league.models import AuditEntry, League


def _league(world) -> League:
    league = world.league
    assert league.variant == "coruscant_shift"
    return league


def test_a_new_variant_that_leaves_a_season_with_another_variants_overrides_is_refused(world):
    league = _league(world)
    world.season.option_overrides = {"small_blind": 5, "big_blind": 10}  # Coruscant Shift's blinds
    world.season.save()
    before = (league.variant, league.preset, AuditEntry.objects.count())
    with pytest.raises(ApplicationError) as refused:
        services.league_update(
            actor=world.users["organiser"], league=league, variant="corellian_spike", preset="galaxy_series"
        )
    assert f"season {world.season.name!r}" in refused.value.message
    assert "Change that season's variant, preset or option overrides first" in refused.value.message
    assert refused.value.extra["field"] == "variant"
    league.refresh_from_db()
    assert (league.variant, league.preset, AuditEntry.objects.count()) == before


def test_a_season_of_the_old_variants_preset_blocks_the_change_and_one_that_fits_passes(world):
    league = _league(world)
    world.season.preset = "casino"  # a Coruscant Shift preset, the variant left blank: the league's
    world.season.option_overrides = {}
    world.season.save()
    with pytest.raises(ApplicationError) as refused:
        services.league_update(actor=world.users["organiser"], league=league, variant="classic", preset="classic")
    assert f"season {world.season.name!r}" in refused.value.message
    # The season names its variant: the league may change, and the season keeps its rules.
    world.season.variant = "coruscant_shift"
    world.season.save()
    services.league_update(actor=world.users["organiser"], league=league, variant="classic", preset="classic")
    league.refresh_from_db()
    assert (league.variant, league.preset) == ("classic", "classic")


def test_the_api_refuses_the_change_with_400_naming_the_season(world):
    from tests.league.conftest import client_for

    league = _league(world)
    world.season.option_overrides = {"small_blind": 5, "big_blind": 10}
    world.season.save()
    response = client_for(world.users["organiser"]).patch(
        f"/api/leagues/{league.slug}/", {"variant": "classic", "preset": "classic"}, format="json"
    )
    assert response.status_code == 400, response.content
    assert world.season.name in response.json()["detail"]
    league.refresh_from_db()
    assert league.variant == "coruscant_shift"
