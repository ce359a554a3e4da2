"""The league pages show what the API shows, and hide members-only leagues the same way."""

import pytest
from django.test import Client, TestCase

from games.services import result_record


@pytest.mark.parametrize("htmx", [False, True])
def test_the_league_page_shows_the_standings_table(world, htmx):
    with TestCase.captureOnCommitCallbacks(execute=True):
        result_record(
            actor=world.users["organiser"],
            event=world.event,
            seats=[
                {"player": world.players[0].pk, "final_credits": 900},
                {"player": world.players[1].pk, "final_credits": 0},
            ],
        )
    headers = {"HX-Request": "true"} if htmx else {}
    response = Client().get(f"/leagues/{world.league.slug}/?season={world.season.pk}", headers=headers)
    body = response.content.decode()
    han = world.players[0]
    assert (
        response.status_code == 200 and f'<a href="/players/{han.pk}/">Han</a>' in body and 'pos">450</td>' in body
    )  # the name links to the player page; net credits: 900 out, 450 in
    assert ("<html" in body) is not htmx
    assert world.league.name in Client().get("/leagues/").content.decode()


def test_a_members_only_league_page_is_not_found_for_outsiders(private_world):
    assert Client().get(f"/leagues/{private_world.league.slug}/").status_code == 404
    client = Client()
    client.force_login(private_world.users["member"])
    assert client.get(f"/leagues/{private_world.league.slug}/").status_code == 200
