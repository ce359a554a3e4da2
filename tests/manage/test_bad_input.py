"""Bad input on the organiser pages: a clear 400 saying what is wrong, never a 500, and nothing written."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Game, Table
from league.models import AuditEntry, Event, League, LedgerEntry, Membership, Player, Season
from tests.manage.conftest import league_form_data, seat_data

pytestmark = pytest.mark.django_db

HUGE = "9" * 40


def written() -> dict[str, int]:
    models = (League, Season, Event, Membership, Player, Table, Game, LedgerEntry, AuditEntry)
    return {model.__name__: model.objects.count() for model in models}


def cases(world):
    league, event, season = world.league.slug, world.event.pk, world.season.pk
    member = Membership.objects.get(league=world.league, player=world.players[0]).pk
    han, lando = world.players[:2]
    seats = seat_data([{"player": han.pk, "buy_in": HUGE, "final_credits": 1}, {"player": lando.pk, "buy_in": 1}])
    return [
        ("/manage/leagues/new/", league_form_data(min_players=HUGE)),
        ("/manage/leagues/new/", league_form_data(opt_ante=HUGE)),
        ("/manage/leagues/new/", league_form_data(opt_ante_increments="1, two")),
        ("/manage/leagues/new/", league_form_data(opt_ante_increments="1, 2")),
        ("/manage/leagues/new/", league_form_data(opt_betting="sideways")),
        ("/manage/leagues/new/", league_form_data(points_formula="fixed", points_table="1e999, nan")),
        ("/manage/leagues/new/", league_form_data(visibility="secret")),
        ("/manage/leagues/new/", league_form_data(name="\x00")),
        ("/manage/leagues/new/", league_form_data(chip_set="999999")),
        (f"/manage/leagues/{league}/edit/", league_form_data(variant="poker")),
        (f"/manage/leagues/{league}/seasons/", {"name": "S", "starts_on": "not a date"}),
        (f"/manage/leagues/{league}/seasons/", {"name": "S", "starts_on": "2026-01-01", "points_formula": "bogus"}),
        (f"/manage/seasons/{season}/edit/", {"name": "", "starts_on": "2026-01-01"}),
        (f"/manage/leagues/{league}/members/guest/", {"display_name": "x" * 500}),
        (f"/manage/leagues/{league}/members/user/", {"username": "", "role": "player"}),
        (f"/manage/members/{member}/role/", {"role": "emperor"}),
        (
            f"/manage/leagues/{league}/events/new/",
            {"name": "E", "kind": "duel", "season": season, "starts_at": "2026-01-01T10:00"},
        ),
        (f"/manage/leagues/{league}/events/new/", {"name": "E", "kind": "game", "season": "-1", "starts_at": "x"}),
        (f"/manage/events/{event}/status/", {"status": "abandoned"}),
        (f"/manage/events/{event}/tables/", {"name": "T", "number": HUGE}),
        (f"/manage/events/{event}/tables/", {"name": "T", "number": "-3"}),
        (f"/manage/events/{event}/results/new/", {"mode": "credits", "round": "1", **seats}),
        (f"/manage/events/{event}/results/new/", {"mode": "credits", "round": HUGE, **seat_data([])}),
        (f"/manage/events/{event}/results/new/", {"mode": "sideways", "round": "1", **seat_data([])}),
        (f"/manage/events/{event}/results/new/", {"mode": "credits", "round": "1", "seat-TOTAL_FORMS": "900"}),
        (
            f"/manage/events/{event}/results/new/",
            {"mode": "replay", "round": "1", **seat_data([]), "replay": SimpleUploadedFile("r.json", b"[1, 2]")},
        ),
    ]


def test_bad_input_is_refused_with_a_message_and_writes_nothing(world, organiser_client):
    for url, data in cases(world):
        before = written()
        response = organiser_client.post(url, data)
        assert response.status_code == 400, (url, data, response.status_code)
        body = response.content.decode()
        # Shown beside a field or above the form; a NUL byte is refused by the site before any page (plain text).
        shown = 'class="field-error"' in body or 'class="form-errors"' in body or "NUL character" in body
        assert shown, (url, data)
        assert written() == before, (url, data)


def test_checks_of_garbage_answer_with_a_message(world, organiser_client):
    event = world.event.pk
    response = organiser_client.post(f"/manage/events/{event}/results/check/", {"mode": "replay", **seat_data([])})
    assert response.status_code == 200 and "Choose the replay file" in response.content.decode()
    for query in (
        {"variant": "x", "preset": "y"},
        {"opt_hands": HUGE, "variant": "coruscant_shift", "preset": "better"},
    ):
        assert "field-error" in organiser_client.get("/manage/preview/rules/", query).content.decode()
    for query in ({"points_formula": "linear", "players": "many"}, {"points_formula": "custom", "players": HUGE}):
        assert "field-error" in organiser_client.get("/manage/preview/points/", query).content.decode()
