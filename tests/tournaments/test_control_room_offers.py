"""The control room shows only what may be done (booking buttons by the format and the buy-in policy, the
registration forms while registration is open), players' statuses say where they are, a complete tournament's
tables say so, and the new-tournament form marks each format's own fields (a script hides the others)."""

import pytest
from django.test import Client

from tests.tournaments.conftest import drawn, rebuy_tournament
from tournaments import services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# ----- the control room and the public page -----------------------------------------------------------------


def test_a_freezeouts_control_room_offers_no_add_on_nor_re_buy_and_no_registration_once_closed(night, tournament):
    policy = night.league.buy_in_policy
    assert not policy.addon_allowed and not policy.rebuys_allowed
    organiser = signed_in(night.organiser)
    drawn(night, tournament, 4, clock=False)
    page = organiser.get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert 'data-action="register-player"' in page  # after the draw, before the clock: late seats
    assert 'value="addon"' not in page and 'value="rebuy"' not in page
    assert "Seated" in page

    services.tournament_clock_start(actor=night.organiser, tournament=tournament)
    page = organiser.get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert 'data-action="register-player"' not in page and 'data-action="add-guest"' not in page
    assert "Registration is closed" in page

    for player in night.players[1:4]:
        services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=player)
    page = organiser.get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    winner = Registration.objects.get(tournament=tournament, player=night.players[0])
    assert f"<td>{winner.player.display_name}</td>\n        <td>Winner</td>" in page

    services.tournament_complete(actor=night.organiser, tournament=tournament)
    public = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "No seats yet" not in public
    assert "The tournament is complete: every table is closed" in public
    page = organiser.get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert f"<td>{winner.player.display_name}</td>\n        <td>Winner</td>" in page
    assert "The tournament is complete." in page


def test_a_non_member_sees_registration_closed_once_it_is(night, tournament):
    drawn(night, tournament, 2)
    public = signed_in(night.organiser).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-action="register"' not in public and "Registration is closed." in public


def test_the_policys_add_on_and_re_buy_are_offered_while_open(night):
    policy = night.league.buy_in_policy
    policy.addon_allowed, policy.addon_amount = True, 200
    policy.save()
    tournament = rebuy_tournament(night, players=night.players[:4])
    page = signed_in(night.organiser).get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert page.count('value="addon"') == 4 and page.count('value="rebuy"') == 4
    assert 'data-action="register-player"' in page  # late registration to level 2


# ----- the new-tournament form ------------------------------------------------------------------------------


def test_the_create_form_marks_each_formats_own_fields_and_still_posts_without_them(night):
    organiser = signed_in(night.organiser)
    page = organiser.get(f"/manage/events/{night.event.pk}/tournament/").content.decode()
    assert '<p data-format-only="rebuy"><label for="t-rebuy-at">' in page
    assert '<p data-format-only="halcyon"><label for="t-advance">' in page
    form = {
        "format": "freezeout",
        "structure": "regular",
        "payout_template": "top_3",
        "starting_stack": "450",
        "seats_per_table": "6",
        "late_registration_level": "0",
        "advance_per_table": "1",
    }
    # A freezeout with a re-buy threshold is refused as before (no script: every field is sent).
    refused = organiser.post(f"/manage/events/{night.event.pk}/tournament/", {**form, "rebuy_at_or_below": "100"})
    assert refused.status_code == 400 and 'aria-invalid="true"' in refused.content.decode()
    # The script leaves the hidden threshold out: the form is read as a threshold of 0.
    created = organiser.post(f"/manage/events/{night.event.pk}/tournament/", form)
    assert created.status_code == 302


def test_before_the_draw_the_public_page_says_who_draws_the_seats_and_when(night, tournament):
    public = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "No seats yet: the organiser draws them" in public and "before the clock starts" in public
