"""With Redis as the cache, the table page and its JSON state on a warm table read no database row
(`games.online.table_rows`: the row kept per process while Redis says it is current). These tests commit for
real (a transactional database), as a deployment does: every save of the table and every change of its league
shows on the next request, a row read before a commit is never served after it, and Redis down reads the
database."""

import json
import os
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config import shared_cache, viewer_cache
from games.online import renders, selectors, services, table_rows
from games.online.models import OnlineTable
from league.models import Visibility
from league.services import league_update

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL); CI runs it"),
]


@pytest.fixture(autouse=True)
def fresh_process():
    assert viewer_cache.held()
    table_rows.forget()
    yield
    table_rows.forget()


def _another_process() -> None:
    """What a web process keeps in memory, gone: its renderings and versions (not the kept rows)."""
    renders.forget()
    selectors._versions.clear()


def _member(world) -> Client:
    client = Client()
    client.force_login(world.users["member"])
    return client


def _move_on(table: OnlineTable, user) -> int:
    services.table_act(actor=user, table=table, verb="select", cards=[], version=table.version, key="moved")
    return OnlineTable.objects.get(pk=table.pk).version


@pytest.mark.parametrize("path", ["/tables/{pk}/", "/tables/{pk}/fragment/"])
@pytest.mark.parametrize("signed_in", [False, True])
def test_a_warm_table_page_reads_no_database(world, heads_up, django_assert_num_queries, path, signed_in):
    client = _member(world) if signed_in else Client()
    url = path.format(pk=heads_up.pk)
    assert client.get(url).status_code == 200  # the row kept, the viewer copied to Redis, the rendering made
    assert client.get(url).status_code == 200
    with django_assert_num_queries(0):
        answer = client.get(url)
    assert answer.status_code == 200
    text = json.loads(answer.content)["html"] if "fragment" in url else answer.content.decode()
    assert f'data-state-version="{heads_up.version}"' in text


def test_a_move_shows_on_the_next_request(world, humans, heads_up):
    client = Client()
    url = f"/tables/{heads_up.pk}/fragment/"
    assert json.loads(client.get(url).content)["version"] == heads_up.version
    reads = table_rows.reads
    new = _move_on(heads_up, humans[0])
    assert new == heads_up.version + 1
    assert json.loads(client.get(url).content)["version"] == new
    assert table_rows.reads == reads + 1  # the stamp retired: the row read again


def test_any_save_of_the_row_retires_it(world, heads_up):
    """Not only a service's: the admin's, or anything else that saves the table."""
    client = Client()
    url = f"/tables/{heads_up.pk}/"
    assert b"Table 1" in client.get(url).content
    row = OnlineTable.objects.get(pk=heads_up.pk)
    row.name = "Renamed by hand"
    row.save(update_fields=["name"])
    _another_process()
    assert b"Renamed by hand" in client.get(url).content


def test_a_league_made_members_only_hides_its_kept_table(world, heads_up):
    anonymous, url = Client(), f"/tables/{heads_up.pk}/"
    assert anonymous.get(url).status_code == 200
    assert anonymous.get(url).status_code == 200  # served from the kept row
    league_update(actor=world.users["organiser"], league=world.league, visibility=Visibility.MEMBERS)
    assert anonymous.get(url).status_code == 404
    assert _member(world).get(url).status_code == 200


def test_a_row_read_before_a_commit_is_not_served_after_it(world, humans, heads_up):
    """The stamp is read before the database: a commit between the two leaves the row under the stamp it retired."""
    before = OnlineTable.objects.get(pk=heads_up.pk)
    moved = []

    def read_then_a_move() -> OnlineTable:
        moved.append(_move_on(heads_up, humans[0]))  # commits and retires the stamp read just before
        return before

    assert table_rows.table_row(heads_up.pk, read_then_a_move).version == heads_up.version
    reads = table_rows.reads
    found = table_rows.table_row(heads_up.pk, lambda: OnlineTable.objects.get(pk=heads_up.pk))
    assert found.version == moved[0]
    assert table_rows.reads == reads + 1


def test_a_kept_row_is_served_as_a_copy(world, heads_up):
    """A request may load the state into its row: the kept row itself never changes."""
    read = lambda: OnlineTable.objects.defer("state").get(pk=heads_up.pk)  # noqa: E731
    first = table_rows.table_row(heads_up.pk, read)
    second = table_rows.table_row(heads_up.pk, read)
    assert second is not first
    second.state  # noqa: B018 (loads the deferred field into this copy)
    third = table_rows.table_row(heads_up.pk, read)
    assert "state" not in third.__dict__


def test_redis_down_reads_the_database(world, heads_up):
    client, url = Client(), f"/tables/{heads_up.pk}/fragment/"
    assert client.get(url).status_code == 200
    with (
        mock.patch.object(shared_cache, "client", side_effect=ConnectionError("down")),
        CaptureQueriesContext(connection) as queries,
    ):
        assert json.loads(client.get(url).content)["version"] == heads_up.version
    assert any('FROM "games_onlinetable"' in query["sql"] for query in queries.captured_queries)
