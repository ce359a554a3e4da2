"""Pinned query counts: the lobby costs the same however many tables it lists."""

import pytest

from games.online import services
from tests.league.conftest import client_for

pytestmark = pytest.mark.django_db


def test_the_lobby_costs_the_same_for_three_tables_as_for_one(world, humans, open_table, scheduled):
    client = client_for(humans[0])
    table = open_table()
    services.seat_take(actor=humans[0], table=table)
    client.get("/api/tables/")  # warm the user's caches as a real request would not need to
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as one:
        assert len(client.get("/api/tables/").json()) == 1
    for name in ("Two", "Three"):
        services.seat_take(actor=world.users["organiser"], table=open_table(name=name))
    with CaptureQueriesContext(connection) as three:
        assert len(client.get("/api/tables/").json()) == 3
    assert len(three) == len(one) <= 8
