"""The control room's irreversible buttons ask first (`data-confirm`, opened as a dialog by static/js/confirm.js):
starting the clock, the draw, an elimination, completing; a player's own unregister too."""

import re

from tournaments import services

from .conftest import signed_in


def button(page: str, label: str) -> str:
    found = re.search(r"<button[^>]*>\s*" + re.escape(label) + r"\s*</button>", page)
    assert found, f"no {label!r} button"
    return found.group(0)


def test_the_irreversible_control_room_buttons_ask_first(night, tournament):
    organiser = signed_in(night.organiser)
    url = f"/manage/tournaments/{tournament.pk}/"
    for player in night.players[:4]:
        services.tournament_register(actor=night.organiser, tournament=tournament, player=player)
    page = organiser.get(url).content.decode()
    assert 'data-confirm="Unregister P0? Their buy-in is refunded."' in page
    services.tournament_publish_seed(actor=night.organiser, tournament=tournament)
    page = organiser.get(url).content.decode()
    assert "The seed is revealed" in button(page, "Draw the seats")
    services.tournament_draw(actor=night.organiser, tournament=tournament)
    page = organiser.get(url).content.decode()
    assert "structure can no longer change" in button(page, "Start the clock")
    services.tournament_clock_start(actor=night.organiser, tournament=tournament)
    page = organiser.get(url).content.decode()
    assert 'data-confirm="Eliminate {player}?' in button(page, "Eliminate")
    assert "this cannot be undone" in button(page, "Complete: book payouts and points")


def test_a_player_unregistering_themselves_is_asked_first(night, tournament):
    services.tournament_register(actor=night.organiser, tournament=tournament, player=night.players[0])
    page = signed_in(night.member).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Your buy-in is refunded." in button(page, "Unregister")
