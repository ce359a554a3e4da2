"""A table is shown from one read of its row: the version a page (and its forms) carries is the version of the
state it draws, even when the table moves on between the listing read and the rendering."""

import json

import pytest
from django.test import Client

from games.online import selectors, services, views
from games.online.models import OnlineTable

pytestmark = pytest.mark.django_db


def _move_on(table: OnlineTable, user) -> int:
    """Another request changes the table (a decision): returns its new version."""
    services.table_act(actor=user, table=table, verb="select", cards=[], version=table.version, key="moved")
    return OnlineTable.objects.get(pk=table.pk).version


def test_the_state_of_a_listed_table_comes_with_its_version(world, humans, heads_up):
    member = humans[0]
    listed = selectors.table_list(user=member).get(pk=heads_up.pk)  # as the pages read it: the state deferred
    old = listed.version
    new = _move_on(heads_up, member)
    assert new == old + 1
    state = selectors.table_state(listed, user=member)
    assert state["table"]["version"] == new
    assert state["view"]["legal"]["verbs"] == []  # the state drawn is the new one: the member has selected


def test_the_table_fragment_carries_the_version_of_the_state_it_shows(world, humans, heads_up, monkeypatch):
    member = humans[0]
    found = views._table_or_404
    moved = []

    def table_then_a_move(request, pk):
        table = found(request, pk)
        moved.append(_move_on(heads_up, member))  # between the page's read of the row and its rendering
        return table

    monkeypatch.setattr(views, "_table_or_404", table_then_a_move)
    client = Client()
    client.force_login(member)
    answer = json.loads(client.get(f"/tables/{heads_up.pk}/fragment/").content)
    assert answer["version"] == moved[0]
    assert f'data-state-version="{moved[0]}"' in answer["html"]
    assert answer["verbs"] == []
