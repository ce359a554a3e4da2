"""A casual game with no person in it is not played by its bots for nobody: starting it is refused (409 in the API,
a message on the page, `can.start` false and no Start button), and its host may close it unplayed instead. A league's
table may still be all bots (its organisers run those: the benches do)."""

import pytest
from django.urls import reverse

from config.errors import ConflictError
from games.online import services
from games.online.models import OnlineSeat, OnlineTable, TableStatus
from games.online.my_games import my_games
from tests.factories import UserFactory
from tests.league.conftest import client_for

pytestmark = pytest.mark.django_db


def _everyone_left(host, friend) -> int:
    """A casual table opened by `host` through the API, joined by `friend`; then both leave."""
    answer = client_for(host).post("/api/tables/casual/", {"seats": 4}, format="json")
    pk = answer.json()["table"]["id"]
    invite = answer.json()["table"]["invite"]
    assert client_for(friend).post(f"/api/tables/{pk}/join/", {"invite": invite}, format="json").status_code == 200
    for user in (host, friend):
        assert client_for(user).post(f"/api/tables/{pk}/leave/", {}, format="json").status_code == 200
    return pk


def test_a_casual_game_nobody_sits_at_cannot_be_started_by_api_or_page(world, scheduled, client):
    host, friend = UserFactory(username="lonely-host"), UserFactory(username="gone-friend")
    pk = _everyone_left(host, friend)
    state = client_for(host).get(f"/api/tables/{pk}/").json()
    assert state["table"]["players"] == [] and state["table"]["status"] == "open"
    assert state["can"]["start"] is False and state["can"]["close"] is True
    answer = client_for(host).post(f"/api/tables/{pk}/start/", {}, format="json")
    assert answer.status_code == 409 and "Nobody is seated" in answer.json()["detail"]
    table = OnlineTable.objects.get(pk=pk)
    assert table.status == TableStatus.OPEN and not table.state and not OnlineSeat.objects.filter(table=table)
    assert not scheduled.calls  # no bot was asked to play
    with pytest.raises(ConflictError, match="Nobody is seated"):
        services.table_start(actor=host, table=table)
    # Nor are its seats all given to bots, which would leave no seat to start it from.
    assert state["can"]["fill_bots"] is False
    with pytest.raises(ConflictError, match="Nobody is seated"):
        services.table_fill_bots(actor=host, table=table, kind="random")

    client.force_login(host)
    page = client.get(reverse("online-table", args=[pk])).content.decode()
    assert "Start the game" not in page and "Fill empty seats" not in page
    assert "data-nobody-seated" in page and "Close the game" in page
    refused = client.post(reverse("online-do", args=[pk, "start"]), HTTP_ACCEPT="application/json")
    assert refused.status_code == 409 and "Nobody is seated" in refused.json()["detail"]

    # The host sits down again: the game starts, bots in the empty seats.
    services.seat_take(actor=host, table=table)
    assert client_for(host).get(f"/api/tables/{pk}/").json()["can"]["start"] is True
    services.table_start(actor=host, table=table)
    table.refresh_from_db()
    assert table.status == TableStatus.RUNNING


def test_the_host_closes_a_casual_game_everyone_left_unplayed(world, scheduled, client):
    host, friend = UserFactory(username="closing-host"), UserFactory(username="left-friend")
    pk = _everyone_left(host, friend)
    # The friend who left holds the link: they see the table, and may not close it; without it, it is not there.
    invite = OnlineTable.objects.get(pk=pk).invite
    assert client_for(friend).post(f"/api/tables/{pk}/close/?invite={invite}", {}, format="json").status_code == 403
    assert client_for(friend).post(f"/api/tables/{pk}/close/", {}, format="json").status_code == 404
    answer = client_for(host).post(f"/api/tables/{pk}/close/", {}, format="json")
    assert answer.status_code == 200, answer.content
    state = answer.json()
    assert state["table"]["status"] == "finished" and state["view"] is None and not any(state["can"].values())
    table = OnlineTable.objects.get(pk=pk)
    assert table.outcome is None and table.game_id is None and not table.state
    client.force_login(host)
    page = client.get(reverse("online-table", args=[pk])).content.decode()
    assert "data-unplayed" in page and "Close the game" not in page
    row = my_games(host)["casual"][0]
    assert row["id"] == pk and row["status"] == "finished" and row["links"]["replay"] is None  # nothing to replay
    # Its hand history offers no replay file (the download would answer 409) and says why, not "once it ends".
    hands = client.get(reverse("online-hands", args=[pk])).content.decode()
    assert reverse("online-replay-download", args=[pk]) not in hands
    assert "data-no-replay" in hands and "there is nothing to replay" in hands and "published when" not in hands
    assert client_for(host).post(f"/api/tables/{pk}/start/", {}, format="json").status_code == 409


def test_a_league_table_of_bots_alone_still_starts(world, open_table, scheduled):
    table = open_table(seats=2)
    services.table_fill_bots(actor=world.users["organiser"], table=table, kind="random")
    services.table_start(actor=world.users["organiser"], table=table)
    table.refresh_from_db()
    assert table.status == TableStatus.RUNNING
