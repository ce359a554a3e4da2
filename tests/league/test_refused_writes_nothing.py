"""Item 2 of the hardening issue: a refused request writes nothing, whatever raised, and invalid league or
season settings cannot be saved from any entry point (API, admin, shell services, model validation)."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from config.errors import ApplicationError
from games.models import Game, Seat
from games.services import result_check, result_record
from league.models import AuditEntry, League, LedgerEntry, Season
from league.services import league_update, season_update
from tests.league.conftest import client_for


def seats(world, finals=(900, 0)):
    return [{"player": p.pk, "final_credits": f} for p, f in zip(world.players, finals, strict=False)]


def test_2_a_result_refused_for_invalid_saved_settings_stores_no_game_and_no_ledger(world):
    # Settings saved before they were checked (an old admin, a raw update): the result is refused up front.
    League.objects.filter(pk=world.league.pk).update(points_formula="banana")
    response = client_for(world.users["organiser"]).post(
        "/api/games/", {"event": world.event.pk, "seats": seats(world)}, format="json"
    )
    assert response.status_code == 400
    assert "banana" in response.json()["detail"]
    assert not Game.objects.exists() and not Seat.objects.exists() and not LedgerEntry.objects.exists()
    assert not AuditEntry.objects.filter(action="result.record").exists()


def test_2_a_result_refused_for_an_invalid_saved_preset_stores_nothing(world):
    League.objects.filter(pk=world.league.pk).update(preset="nonsense")
    with pytest.raises(ApplicationError, match="nonsense"):
        result_record(actor=world.users["organiser"], event=world.event, seats=seats(world))
    assert not Game.objects.exists() and not LedgerEntry.objects.exists()


def test_2_result_check_refuses_like_result_record_and_writes_nothing(world):
    preview = result_check(actor=world.users["organiser"], event=world.event, seats=seats(world))
    assert preview["credits_in"] == 900 and preview["credits_out"] == 900
    assert [s["place"] for s in preview["seats"]] == [1, 2]
    with pytest.raises(ApplicationError, match="do not balance"):
        result_check(actor=world.users["organiser"], event=world.event, seats=seats(world, (900, 100)))
    assert not Game.objects.exists() and not LedgerEntry.objects.exists() and not AuditEntry.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"preset": "nonsense"}, "preset"),
        ({"variant": "blackjack"}, "preset"),
        ({"points_formula": "banana"}, "points_formula"),
        ({"tie_breakers": ["luck"]}, "tie_breakers"),
        ({"option_overrides": {"no_such_option": 1}}, "preset"),
    ],
)
def test_2_model_validation_refuses_invalid_league_settings(world, fields, field):
    league = League.objects.get(pk=world.league.pk)
    for key, value in fields.items():
        setattr(league, key, value)
    with pytest.raises(ValidationError) as caught:
        league.full_clean()
    assert field in caught.value.message_dict
    with pytest.raises(ApplicationError):
        league_update(actor=world.users["organiser"], league=world.league, **fields)
    assert League.objects.get(pk=world.league.pk).preset == "better"


def test_2_model_validation_refuses_invalid_season_settings(world):
    season = Season.objects.get(pk=world.season.pk)
    season.points_formula = "banana"
    with pytest.raises(ValidationError) as caught:
        season.full_clean()
    assert "points_formula" in caught.value.message_dict
    with pytest.raises(ApplicationError):
        season_update(actor=world.users["organiser"], season=world.season, preset="nonsense")
    assert Season.objects.get(pk=world.season.pk).preset == ""


def admin_client(world) -> Client:
    client = Client()
    client.force_login(world.users["admin"])
    return client


def league_form(**overrides):
    data = {
        "name": "Admin league",
        "slug": "admin-league",
        "description": "",
        "visibility": "public",
        "variant": "coruscant_shift",
        "preset": "better",
        "option_overrides": "{}",
        "points_formula": "linear",
        "points_parameters": "{}",
        "tie_breakers": "[]",
        "min_players": "2",
        "ties_share_better_place": "on",
        "seasons-TOTAL_FORMS": "0",
        "seasons-INITIAL_FORMS": "0",
        "seasons-MIN_NUM_FORMS": "0",
        "seasons-MAX_NUM_FORMS": "1000",
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
    }
    data.update(overrides)
    return data


def test_2_admin_offers_choices_for_variant_preset_and_points_formula(world):
    page = admin_client(world).get(reverse("admin:league_league_add")).content.decode()
    for name in ("variant", "preset", "points_formula"):
        assert f'<select name="{name}"' in page, name
    assert '<option value="cantina"' in page and '<option value="sqrt"' in page


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"preset": "nonsense"}, "Select a valid choice"),
        ({"points_formula": "banana"}, "Select a valid choice"),
        ({"tie_breakers": '["luck"]'}, "Unknown tie-breaker luck"),
        ({"option_overrides": '{"no_such_option": 1}'}, "These game rules are not allowed"),
        ({"points_formula": "custom", "points_parameters": '{"expression": "__import__(1)"}'}, "expression"),
    ],
)
def test_2_admin_refuses_invalid_league_settings_with_a_readable_message(world, overrides, message):
    response = admin_client(world).post(reverse("admin:league_league_add"), league_form(**overrides))
    assert response.status_code == 200  # the form again, with the error
    assert message in response.content.decode()
    assert not League.objects.filter(slug="admin-league").exists()
    assert admin_client(world).post(reverse("admin:league_league_add"), league_form()).status_code == 302
    assert League.objects.filter(slug="admin-league").exists()


def test_2_admin_shows_a_sentence_not_a_constraint_name(world):
    response = admin_client(world).post(
        reverse("admin:league_season_add"),
        {"league": world.league.pk, "name": "Backwards", "starts_on": "2026-05-01", "ends_on": "2026-04-01"},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "season_dates_ordered" not in page
    assert "cannot end before it starts" in page


def test_2_admin_shows_seats_inline_on_a_game(world):
    game = result_record(actor=world.users["organiser"], event=world.event, seats=seats(world))
    page = admin_client(world).get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "seats-TOTAL_FORMS" in page and world.players[0].display_name in page
