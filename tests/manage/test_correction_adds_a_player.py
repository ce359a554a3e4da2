"""The correction form adds a forgotten player as the result entry form does (its lines and its "Add a player",
one partial and one script for both), with the same checks: credits in and out balance, a league member only,
and a refusal writes nothing."""

import pytest
from django.urls import reverse

from games.models import ResultCorrection
from league.models import LedgerEntry
from tests.manage.conftest import seat_data
from tests.manage.test_event_pages import recorded_game

pytestmark = pytest.mark.django_db


def correction_post(seats, reason="Leia played too and was forgotten"):
    return {"reason": reason, "mode": "credits", **seat_data(seats)}


def lines(game):
    return sorted(game.seats.values_list("player__display_name", "buy_in", "final_credits"))


def test_the_correction_form_offers_the_entry_forms_add_a_player(world, organiser_client):
    game = recorded_game(world)
    leia = world.players[2]
    page = organiser_client.get(f"/manage/games/{game.pk}/correct/").content.decode()
    entry = organiser_client.get(reverse("manage-result-entry", args=[world.event.pk])).content.decode()
    for html in (page, entry):
        assert html.count("data-add-seat") == 1 and html.count("data-seat>") == 8
    assert f'<option value="{leia.pk}">Leia</option>' in page  # a member not seated yet
    assert 'name="seat-0-final_credits" value="600"' in page and 'name="seat-1-final_credits" value="300"' in page


def test_a_forgotten_player_is_added_when_the_credits_balance(world, organiser_client):
    game = recorded_game(world)
    han, lando, leia = world.players[:3]
    url = f"/manage/games/{game.pk}/correct/"
    before = LedgerEntry.objects.count()
    unbalanced = [
        {"player": han.pk, "buy_in": 450, "rebuys": 0, "final_credits": 600},
        {"player": lando.pk, "buy_in": 450, "rebuys": 0, "final_credits": 300},
        {"player": leia.pk, "buy_in": 450, "rebuys": 0, "final_credits": 0},
    ]
    refused = organiser_client.post(url, correction_post(unbalanced))
    assert refused.status_code == 400 and "do not balance" in " ".join(refused.context["form"].errors["seats"])
    assert not ResultCorrection.objects.exists() and LedgerEntry.objects.count() == before
    assert lines(game) == [("Han", 450, 600), ("Lando", 450, 300)]
    unbalanced[2]["final_credits"] = 450
    saved = organiser_client.post(url, correction_post(unbalanced))
    assert saved.status_code == 302, saved.content.decode()[:3000]
    assert lines(game) == [("Han", 450, 600), ("Lando", 450, 300), ("Leia", 450, 450)]
    assert LedgerEntry.objects.filter(game=game, player=leia, correction__isnull=False).exists()


def test_only_a_member_of_the_league_is_added(world, organiser_client):
    game = recorded_game(world)
    han, lando = world.players[:2]
    outsider = world.users["other_organiser"].player  # a player of another league
    before = LedgerEntry.objects.count()
    seats = [
        {"player": han.pk, "buy_in": 450, "rebuys": 0, "final_credits": 450},
        {"player": lando.pk, "buy_in": 450, "rebuys": 0, "final_credits": 450},
        {"player": outsider.pk, "buy_in": 450, "rebuys": 0, "final_credits": 450},
    ]
    refused = organiser_client.post(f"/manage/games/{game.pk}/correct/", correction_post(seats))
    assert refused.status_code == 400 and "valid choice" in refused.content.decode()
    assert not ResultCorrection.objects.exists() and LedgerEntry.objects.count() == before


def _record(world, seats):
    from games.services import result_record

    return result_record(actor=world.users["organiser"], event=world.event, seats=seats)


def _form_seats(page):
    """The correction form's filled player lines, as the browser would post them back."""
    return [form.initial for form in page.context["seats"].forms if form.initial.get("player")]


def test_a_correction_of_the_final_credits_alone_is_saved_when_the_places_followed_them(world, organiser_client):
    """Places that only followed the final credits start blank, as on the entry form: prefilled (Lando and Leia
    both 2nd), a correction of the credits alone was refused because the places no longer matched them."""
    han, lando, leia = world.players[:3]
    game = _record(
        world,
        [
            {"player": han.pk, "buy_in": 450, "final_credits": 1350},
            {"player": lando.pk, "buy_in": 450, "final_credits": 0},
            {"player": leia.pk, "buy_in": 450, "final_credits": 0},
        ],
    )
    url = f"/manage/games/{game.pk}/correct/"
    seats = _form_seats(organiser_client.get(url))
    assert [seat["place"] for seat in seats] == [None, None, None]
    seats[0]["final_credits"], seats[1]["final_credits"] = 1150, 200
    saved = organiser_client.post(url, correction_post(seats, reason="Lando kept 200"))
    assert saved.status_code == 302, saved.content.decode()[:3000]
    assert sorted(game.seats.values_list("player__display_name", "place")) == [("Han", 1), ("Lando", 2), ("Leia", 3)]


def test_places_given_by_hand_stay_in_the_correction_form(world, organiser_client):
    """Two players out of credits ranked by when they went out: places the credits cannot give are kept."""
    han, lando, leia = world.players[:3]
    game = _record(
        world,
        [
            {"player": han.pk, "buy_in": 450, "final_credits": 1350, "place": 1},
            {"player": lando.pk, "buy_in": 450, "final_credits": 0, "place": 3},
            {"player": leia.pk, "buy_in": 450, "final_credits": 0, "place": 2},
        ],
    )
    seats = _form_seats(organiser_client.get(f"/manage/games/{game.pk}/correct/"))
    assert [seat["place"] for seat in seats] == [1, 3, 2]
