"""A refused form says what to fix at the top of the page, each message linked to its field
(templates/_form_errors.html, one include for every form page): the league, season and event forms, result entry
and correction, the event page's table and ledger adjustment forms, the members page, the profile and claim pages
and allauth's sign-up and sign-in."""

import re

import pytest
from django.test import Client

from tests.manage.conftest import league_form_data, page_client, seat_data
from tests.manage.test_event_pages import correction_data, recorded_game

pytestmark = pytest.mark.django_db


def summary(body: str) -> str:
    """The summary box's text, with its attributes: exactly one per page."""
    assert body.count('id="error-summary"') == 1, body
    start = body.rindex("<div", 0, body.index('id="error-summary"'))
    box = body[start : body.index("</div>", start)]
    assert 'role="alert"' in box and 'tabindex="-1"' in box
    return box


def linked(box: str, field_id: str, message: str) -> bool:
    """The summary links to the field with that id, the message beside the link."""
    return any(
        message in item and f'href="#{field_id}"' in item for item in re.findall(r"<li>.*?</li>", box, re.DOTALL)
    )


def organiser_cases(world):
    league, event, season = world.league.slug, world.event.pk, world.season.pk
    han, lando = world.players[:2]
    return [
        (f"/manage/leagues/{league}/edit/", league_form_data(variant="poker"), "id_preset", "poker"),
        (f"/manage/leagues/{league}/seasons/", {"name": "S", "starts_on": "not a date"}, "id_starts_on", "date"),
        (f"/manage/seasons/{season}/edit/", {"name": "", "starts_on": "2026-01-01"}, "id_name", "required"),
        (
            f"/manage/leagues/{league}/events/new/",
            {"name": "E", "kind": "duel", "season": season, "starts_at": "2026-01-01T10:00"},
            "id_kind",  # radios: the link goes to their fieldset
            "must be one of",
        ),
        (f"/manage/events/{event}/tables/", {"name": "T", "number": "-3"}, "id_number", ""),
        (
            f"/manage/events/{event}/adjustments/",
            {"player": str(han.pk), "amount": "0", "reason": "nothing"},
            "id_amount",
            "non-zero whole number",
        ),
        (f"/manage/leagues/{league}/members/guest/", {"display_name": "x" * 500}, "id_display_name", "at most"),
        (
            f"/manage/events/{event}/results/new/",
            {"mode": "credits", "round": "0", "table": "", **seat_data([{"player": han.pk, "buy_in": 1}])},
            "id_round",
            "",
        ),
        (
            f"/manage/events/{event}/results/new/",
            {
                "mode": "credits",
                "round": "1",
                "table": "",
                **seat_data([{"player": han.pk, "buy_in": 100}, {"player": lando.pk, "buy_in": "lots"}]),
            },
            "id_seat-1-buy_in",  # a player's line: the link names the line's number, as its legend does
            "Player 2: Buy-in",
        ),
        (
            f"/manage/events/{event}/results/new/",
            {
                "mode": "credits",
                "round": "1",
                "table": "",
                **seat_data(
                    [{"player": han.pk, "buy_in": 100, "final_credits": 300}, {"player": lando.pk, "buy_in": 100}]
                ),
            },
            "balance",  # the service's refusal of the seats as a whole, shown beside the balance
            "balance",
        ),
    ]


def test_every_organiser_form_lists_its_refusals_at_the_top_linked_to_the_fields(world, organiser_client):
    for url, data, field_id, message in organiser_cases(world):
        response = organiser_client.post(url, data)
        assert response.status_code == 400, (url, response.status_code)
        box = summary(response.content.decode())
        assert "Nothing was saved" in box, (url, box)
        assert linked(box, field_id, message), (url, field_id, box)
        # The page has the element the link goes to.
        assert f'id="{field_id}"' in response.content.decode(), (url, field_id)


def test_a_refused_correction_lists_the_missing_reason_and_the_unbalanced_credits(world, organiser_client):
    game = recorded_game(world)
    han, lando = world.players[:2]
    url = f"/manage/games/{game.pk}/correct/"
    box = summary(
        organiser_client.post(url, correction_data(game, {han.pk: 500, lando.pk: 400}, reason="")).content.decode()
    )
    assert linked(box, "id_reason", "required")
    box = summary(organiser_client.post(url, correction_data(game, {han.pk: 500, lando.pk: 500})).content.decode())
    assert linked(box, "balance", "do not balance")
    assert "Player 1" not in box  # the lines themselves were fine


def test_a_page_without_refusals_has_no_summary(world, organiser_client):
    for url in (
        f"/manage/leagues/{world.league.slug}/edit/",
        f"/manage/events/{world.event.pk}/",
        "/accounts/profile/",
    ):
        assert 'id="error-summary"' not in organiser_client.get(url).content.decode(), url


def test_account_forms_list_their_refusals_at_the_top(world):
    client = page_client(world.users["organiser"])
    box = summary(client.post("/claim/", {"code": "no-such-code"}).content.decode())
    assert linked(box, "id_code", "No guest player has this claim code")
    anonymous = Client()
    data = {"username": "finn", "email": "finn@example.org", "password1": "Kessel-run-12", "password2": "Kessel-run-13"}
    body = anonymous.post("/accounts/signup/", data).content.decode()
    assert linked(summary(body), "id_password2", "same password")
    # A wrong password is the form's own error (no field): shown once, by the form, and no empty list.
    body = anonymous.post("/accounts/login/", {"login": "nobody", "password": "wrong"}).content.decode()
    assert 'id="error-summary"' not in body and body.count("not correct") == 1
