"""The reads a table's streams make for every change, compiled once per process (`games.online.prepared`): the
same rows, seats and log as the ORM's own queries, in fewer queries, for every table and hand asked."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.online import selectors, services
from games.online.models import OnlineTable

pytestmark = pytest.mark.django_db


def _fields(row) -> dict:
    return {
        f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields if f.attname not in ("history", "results")
    }


def test_the_prepared_row_and_seats_equal_the_orm_read(world, humans, heads_up):
    services.table_act(actor=humans[0], table=heads_up, verb="select", cards=[], version=heads_up.version, key="k1")
    orm = OnlineTable.objects.select_related("event__season__league").get(pk=heads_up.pk)
    with CaptureQueriesContext(connection) as queries:
        row = selectors.fresh_row(heads_up.pk)
        seats = list(row.seats.all())
        league = row.event.season.league
    assert len(queries) == 2  # the row with its event, season and league; its seats
    assert _fields(row) == _fields(orm)
    assert league.pk == orm.event.season.league.pk and league.name == orm.event.season.league.name
    assert [(s.pk, s.number, s.name, s.engine_seat, s.left) for s in seats] == [
        (s.pk, s.number, s.name, s.engine_seat, s.left) for s in orm.seats.order_by("number")
    ]
    assert selectors.fresh_row(999_999) is None


def test_the_prepared_log_equals_the_joined_one_for_each_table_and_hand(world, humans, heads_up):
    services.table_act(actor=humans[0], table=heads_up, verb="select", cards=[], version=heads_up.version, key="k2")
    row = selectors.fresh_row(heads_up.pk)
    shared = selectors.TableVersion(row)
    hand = shared.view(None)["hand"]["number"]
    expected = selectors.public_log(row, hand)
    assert expected  # the member's decision is in it
    assert shared.log(hand) == expected
    assert selectors._log_by_seats(row, hand + 1, shared.seats) == []  # another hand's: none yet
    assert selectors._log_by_seats(row, hand, []) is None  # a seat not among those given: the joined read instead
