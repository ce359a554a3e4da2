"""A real-cards table closed before any hand was played offers no download (nothing to replay); the download's
address, if reached anyway, answers 409 with a page saying why in words."""

import pytest
from django.urls import reverse

from games.tabletop import services
from tests.factories import UserFactory, client_as
from tests.tabletop.helpers import started_table

pytestmark = pytest.mark.django_db


def _download_links(html: str, code: str) -> int:
    return html.count(reverse("tabletop-history-download", args=[code]))


def test_a_table_closed_before_its_first_deal_offers_nothing_to_replay():
    table, host, ann, _ = started_table(preset="casino")
    services.realtable_finish(actor=host, table=table)
    for client in (client_as(host), client_as(ann)):
        page = client.get(reverse("tabletop-table", args=[table.code])).content.decode()
        assert "Hand history" in page and _download_links(page, table.code) == 0
        history = client.get(reverse("tabletop-history", args=[table.code])).content.decode()
        assert _download_links(history, table.code) == 0
        assert "closed before its first deal: no hand was played" in history
    refused = client_as(ann).get(reverse("tabletop-history-download", args=[table.code]))
    assert refused.status_code == 409 and refused["Content-Type"].startswith("text/html")
    body = refused.content.decode()
    assert f"Table {table.code} was closed before its first deal: no hand was played" in body
    assert reverse("tabletop-table", args=[table.code]) in body  # and the way back


def test_a_table_closed_before_it_started_says_so_and_an_undone_deal_takes_the_link_back():
    host = UserFactory(username="early")
    table = services.realtable_open(actor=host, starting_credits=20)
    services.realtable_finish(actor=host, table=table)
    refused = client_as(host).get(reverse("tabletop-history-download", args=[table.code]))
    assert refused.status_code == 409 and "closed before its game started" in refused.content.decode()
    history = client_as(host).get(reverse("tabletop-history", args=[table.code])).content.decode()
    assert "closed before its game started" in history and _download_links(history, table.code) == 0
    # A dealt hand is something to download; undoing the deal leaves nothing again.
    table, host, _, _ = started_table()
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    page = client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert _download_links(page, table.code) == 1
    assert client_as(host).get(reverse("tabletop-history-download", args=[table.code])).status_code == 200
    services.realtable_undo(actor=host, table=table)
    page = client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert _download_links(page, table.code) == 0
    answer = client_as(host).get(reverse("tabletop-history-download", args=[table.code]))
    assert answer.status_code == 409 and "No hand has been dealt at table" in answer.content.decode()
