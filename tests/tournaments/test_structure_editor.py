"""The structure editor's server side: the preset it fills rows from, a structure posted from its rows, and
changing the levels from the control room until the clock starts (a refusal writes nothing)."""

import json

import pytest

from league.models import AuditEntry
from tournaments import services
from tournaments.models import Tournament

from .conftest import drawn, signed_in

FORM = {
    "format": "freezeout",
    "starting_stack": "450",
    "seats_per_table": "6",
    "late_registration_level": "0",
    "advance_per_table": "1",
    "payout_template": "top_3",
    "expected_players": "12",
}


def preset_url(night):
    return f"/manage/events/{night.event.pk}/tournament/preset/"


def test_the_preset_is_computed_by_the_server_for_the_duration_and_stack_with_breaks(night):
    response = signed_in(night.organiser).get(preset_url(night), {"duration": "180", "starting_stack": "450"})
    assert response.status_code == 200
    levels = response.json()["levels"]
    assert any(level["is_break"] for level in levels) and not levels[0]["is_break"]
    assert all(level["big_blind"] > 0 for level in levels if not level["is_break"])
    assert 160 <= sum(level["length"] for level in levels) <= 200
    services.check_structure(levels, event=night.event)  # what it fills in is accepted as it stands


@pytest.mark.parametrize("variant, preset", [("corellian_spike", "galaxy_series"), ("classic", "classic")])
def test_the_preset_is_ante_only_for_a_variant_without_blinds(night, variant, preset):
    night.league.variant, night.league.preset, night.league.option_overrides = variant, preset, {}
    night.league.save()
    response = signed_in(night.organiser).get(preset_url(night), {"duration": "120", "starting_stack": "450"})
    levels = response.json()["levels"]
    assert all(level["small_blind"] == level["big_blind"] == 0 for level in levels)
    assert all(level["ante"] > 0 for level in levels if not level["is_break"])
    services.check_structure(levels, event=night.event)


def test_a_nonsense_preset_is_a_clear_400_and_only_organisers_get_one(night):
    organiser = signed_in(night.organiser)
    response = organiser.get(preset_url(night), {"duration": "5", "starting_stack": "450"})
    assert response.status_code == 400 and "at least 10 minutes" in response.json()["detail"]
    response = organiser.get(preset_url(night), {"duration": "ninety", "starting_stack": "450"})
    assert response.status_code == 400 and "must be a whole number" in response.json()["detail"]
    member = signed_in(night.member)
    assert member.get(preset_url(night), {"duration": "60", "starting_stack": "450"}).status_code == 403


def test_the_rows_posted_as_json_create_the_tournament_and_the_control_room_lists_them(night):
    organiser = signed_in(night.organiser)
    rows = [
        {"small_blind": 10, "big_blind": 20, "ante": 0, "length": 15, "unit": "minutes"},
        {"small_blind": 0, "big_blind": 0, "ante": 0, "length": 10, "unit": "minutes", "is_break": True},
        {"small_blind": 25, "big_blind": 50, "ante": 5, "length": 15, "unit": "minutes"},
    ]
    url = f"/manage/events/{night.event.pk}/tournament/"
    response = organiser.post(url, {**FORM, "structure": "custom", "structure_json": json.dumps(rows)})
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert [level["big_blind"] for level in tournament.structure] == [20, 0, 50]
    page = organiser.get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert "10/20" in page and "25/50" in page and "2 · break" in page


def test_the_suggested_structure_without_javascript_fits_a_variant_without_blinds(night):
    night.league.variant, night.league.preset, night.league.option_overrides = "classic", "classic", {}
    night.league.save()
    url = f"/manage/events/{night.event.pk}/tournament/"
    response = signed_in(night.organiser).post(url, {**FORM, "structure": "suggested", "duration": "120"})
    assert response.status_code == 302, response.content.decode()[:1500]
    levels = Tournament.objects.get().structure
    assert all(level["big_blind"] == 0 for level in levels) and levels[-1]["ante"] > levels[0]["ante"]


def test_the_organiser_changes_the_structure_until_the_clock_starts(night, tournament):
    organiser = signed_in(night.organiser)
    url = f"/manage/tournaments/{tournament.pk}/"
    new = [{"small_blind": 50, "big_blind": 100, "ante": 0, "length": 12, "unit": "minutes"}]
    response = organiser.post(url, {"action": "structure", "structure_json": json.dumps(new), "section": "structure"})
    assert response.status_code == 302 and response["Location"].endswith("#structure")
    tournament.refresh_from_db()
    assert tournament.structure == new
    assert AuditEntry.objects.filter(action="tournament_structure_set").count() == 1
    assert "50/100" in organiser.get(url).content.decode()


@pytest.mark.parametrize(
    "posted, message",
    [
        ("[{", "not valid JSON"),
        (json.dumps([{"small_blind": 20, "big_blind": 10, "length": 10}]), "larger than the big blind"),
        (json.dumps([{"length": 10, "is_break": True}]), "at least one playing level"),
    ],
)
def test_a_refused_structure_is_explained_beside_the_editor_and_writes_nothing(night, tournament, posted, message):
    organiser = signed_in(night.organiser)
    before = (list(Tournament.objects.values()), AuditEntry.objects.count())
    url = f"/manage/tournaments/{tournament.pk}/"
    response = organiser.post(url, {"action": "structure", "structure_json": posted})
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page and 'id="error-structure"' in page
    assert (list(Tournament.objects.values()), AuditEntry.objects.count()) == before


def test_the_structure_cannot_change_once_the_clock_has_started(night, tournament):
    drawn(night, tournament, 4)
    before = tournament.structure
    posted = json.dumps([{"small_blind": 50, "big_blind": 100, "length": 12}])
    organiser = signed_in(night.organiser)
    url = f"/manage/tournaments/{tournament.pk}/"
    response = organiser.post(url, {"action": "structure", "structure_json": posted})
    assert response.status_code == 409 and "The clock has started" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.structure == before
    assert "Edit the structure" not in organiser.get(f"/manage/tournaments/{tournament.pk}/").content.decode()
