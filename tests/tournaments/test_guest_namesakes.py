"""The control room's "add a guest" flags a name already in the league (any case) and offers to add anyway."""

from league.models import Player
from tournaments.models import Registration

from .conftest import signed_in


def test_the_control_room_flags_a_namesake_guest_and_registers_only_when_confirmed(night, tournament):
    organiser = signed_in(night.organiser)
    url = f"/manage/tournaments/{tournament.pk}/"
    response = organiser.post(url, {"action": "add_guest", "name": " p3 ", "section": "registration"})
    page = response.content.decode()
    assert response.status_code == 409
    assert "A player named P3 is already in" in page
    assert 'name="confirm_duplicate" value="true"' in page and "anyway" in page
    assert Player.objects.filter(display_name__iexact="p3").count() == 1 and not Registration.objects.exists()
    response = organiser.post(url, {"action": "add_guest", "name": "P3", "confirm_duplicate": "true"})
    assert response.status_code == 302
    assert Registration.objects.filter(player__display_name="P3").count() == 1
    assert Player.objects.filter(display_name="P3").count() == 2
