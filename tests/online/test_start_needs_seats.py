"""A league's online table with fewer than two seats taken cannot start: its runner sees "Start the game" disabled
with the reason beside it (`can.start` false, `why_not_start` in the API), and the start is refused in the same
words (409) by the page and the API, writing nothing. "Fill empty seats" stays offered: it is how the seats get
taken (a league's table may be all bots: its organisers run those)."""

import pytest
from django.urls import reverse

from games.models import Game as LeagueGame
from games.online import services
from games.online.models import OnlineTable, TableStatus
from games.online.permissions import TOO_FEW_SEATS
from league.models import LedgerEntry
from tests.league.conftest import client_for

pytestmark = pytest.mark.django_db


def _unchanged(table: OnlineTable) -> None:
    table.refresh_from_db()
    assert table.status == TableStatus.OPEN and table.game_id is None and not table.state
    assert not LeagueGame.objects.exists() and not LedgerEntry.objects.exists()


@pytest.mark.parametrize("people", [0, 1])
def test_a_league_table_with_too_few_seats_taken_offers_start_disabled_and_refuses_it(
    world, humans, open_table, scheduled, client, people
):
    organiser = world.users["organiser"]
    table = open_table(seats=3)
    for user in humans[:people]:
        services.seat_take(actor=user, table=table)
    state = client_for(organiser).get(f"/api/tables/{table.pk}/").json()
    assert state["can"]["start"] is False and state["why_not_start"] == TOO_FEW_SEATS
    assert state["can"]["fill_bots"] is True  # it does something: fills the empty seats

    client.force_login(organiser)
    page = client.get(reverse("online-table", args=[table.pk])).content.decode()
    start_url = reverse("online-do", args=[table.pk, "start"])
    assert f'action="{start_url}"' not in page  # no working Start form
    assert 'disabled aria-describedby="why-not-start">Start the game</button>' in page
    assert 'id="why-not-start">A game needs at least 2 seats taken; take seats or fill them with bots.' in page
    assert "data-who-starts" not in page  # the runner is not told to wait for themselves
    assert "Fill empty seats" in page

    refused = client.post(start_url, HTTP_ACCEPT="application/json")
    assert refused.status_code == 409 and refused.json()["detail"] == TOO_FEW_SEATS
    answer = client_for(organiser).post(f"/api/tables/{table.pk}/start/", {}, format="json")
    assert answer.status_code == 409 and answer.json()["detail"] == TOO_FEW_SEATS
    _unchanged(table)

    # A member (not the runner) is told who starts it, not why it cannot start yet.
    client.force_login(humans[2])
    member_page = client.get(reverse("online-table", args=[table.pk])).content.decode()
    assert "data-who-starts" in member_page and "why-not-start" not in member_page
    assert client_for(humans[2]).get(f"/api/tables/{table.pk}/").json()["why_not_start"] is None

    # Once two seats are taken the button works.
    services.table_fill_bots(actor=organiser, table=table, kind="sensible")
    state = client_for(organiser).get(f"/api/tables/{table.pk}/").json()
    assert state["can"]["start"] is True and state["why_not_start"] is None
    client.force_login(organiser)
    page = client.get(reverse("online-table", args=[table.pk])).content.decode()
    assert f'action="{start_url}"' in page and "why-not-start" not in page
    assert client.post(start_url, HTTP_ACCEPT="application/json").status_code == 200
    table.refresh_from_db()
    assert table.status == TableStatus.RUNNING
