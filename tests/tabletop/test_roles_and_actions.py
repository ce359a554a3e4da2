"""Who may start a real-cards table and remove a seat, role by role: the page offers the action exactly when the API
allows it, and the page's POST is refused exactly when the API's is (the same services, `services.realtable_start`
and `services.realseat_remove`). Each call runs in a savepoint that is rolled back, so page and API start alike."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.test import Client
from django.urls import reverse

from games.tabletop import services
from games.tabletop.models import RealSeat, RealTable
from games.tabletop.views import SESSION_KEY
from tests.factories import UserFactory, client_as

pytestmark = pytest.mark.django_db

# Seats of the open table: the host (0), ann signed in (1), the guest Bob (2); a stranger and anyone have none.
ROLES = ("anonymous", "stranger", "host", "ann", "guest")
OWN_SEAT = {"host": 0, "ann": 1, "guest": 2}


@pytest.fixture
def open_table():
    host = UserFactory(username="hostess")
    ann = UserFactory(username="ann")
    stranger = UserFactory(username="stranger")
    table = services.realtable_open(actor=host, variant="coruscant_shift", preset="cantina")
    services.realseat_join(actor=ann, table=table)
    bob = services.realseat_join(actor=AnonymousUser(), table=table, name="Bob")
    return table, {"host": host, "ann": ann, "stranger": stranger}, bob.guest_token


def _clients(role: str, users: dict, guest: str, code: str) -> tuple[Client, dict[str, str]]:
    """The role's browser (with a guest's seat in its session) and the headers its API calls send."""
    if role in users:
        return client_as(users[role]), {}
    client = Client()
    if role == "guest":
        session = client.session
        session[SESSION_KEY] = {code: guest}
        session.save()
        return client, {"HTTP_X_TABLETOP_GUEST": guest}
    return client, {}


def rolled_back(call: Callable[[], Any]) -> Any:
    savepoint = transaction.savepoint()
    try:
        return call()
    finally:
        transaction.savepoint_rollback(savepoint)


# action -> (the page's operation and form, the API's path and body, the page's marker of the offer)
def _action(action: str, role: str) -> tuple[str, dict, str, dict, str]:
    if action == "start":
        return "start", {"dealer": "0"}, "start", {"dealer": 0}, 'data-action="start"'
    seat = OWN_SEAT.get(role, 1) if action == "remove own seat" else (1 if role == "host" else 0)
    marker = f'data-action="remove-seat" data-seat="{seat}"'
    return "remove", {"seat": str(seat)}, "remove", {"seat": seat}, marker


EXPECTED = {
    "start": {"host"},
    "remove own seat": {"host", "ann", "guest"},
    "remove another's seat": {"host"},
}


# Every role for every action, but "remove own seat" for those who hold none (anyone, a stranger).
CASES = [(role, action) for action in EXPECTED for role in ROLES if action != "remove own seat" or role in OWN_SEAT]


@pytest.mark.parametrize(("role", "action"), CASES)
def test_the_page_offers_and_accepts_start_and_remove_exactly_when_the_api_allows_them(open_table, role, action):
    table, users, guest = open_table
    what, form, path, body, marker = _action(action, role)
    client, headers = _clients(role, users, guest, table.code)
    row = RealTable.objects.get(pk=table.pk)
    before = (row.version, RealSeat.objects.filter(table=table).count(), row.status)

    def api() -> tuple[bool, int]:
        answer = client.post(f"/api/tabletop/{table.code}/{path}/", body, content_type="application/json", **headers)
        return 200 <= answer.status_code < 300, answer.status_code

    def page() -> tuple[bool, int]:
        answer = client.post(reverse("tabletop-do", args=[table.code, what]), form, HTTP_HX_REQUEST="true")
        return answer.status_code == 200, answer.status_code

    def offered() -> bool:
        return marker in client.get(reverse("tabletop-table", args=[table.code])).content.decode()

    api_allowed, api_status = rolled_back(api)
    page_allowed, page_status = rolled_back(page)
    assert rolled_back(offered) == api_allowed, f"{role} {action}: offered != API ({api_allowed})"
    assert page_allowed == api_allowed and page_status == api_status, f"{role} {action}: {page_status} {api_status}"
    assert api_allowed == (role in EXPECTED[action]), f"{role} {action}: the API answered {api_status}"
    if not api_allowed:
        assert api_status in (403, 409), api_status
    fresh = RealTable.objects.get(pk=table.pk)
    assert (fresh.version, RealSeat.objects.filter(table=table).count(), fresh.status) == before  # rolled back


def test_the_api_starts_and_removes_through_the_same_services(open_table):
    table, users, guest = open_table
    host = client_as(users["host"])
    # Bob (a guest) leaves by the API with his secret; the seats after his move up (none here).
    left = Client().post(
        f"/api/tabletop/{table.code}/remove/", {"seat": 2}, content_type="application/json", HTTP_X_TABLETOP_GUEST=guest
    )
    assert left.status_code == 200 and [s["name"] for s in left.json()["seats"]] == ["hostess", "ann"]
    for bad, says in (({"seat": -1}, "seat"), ({"seat": "one"}, "seat"), ({"seat": 7}, "the seats are 1 to 2")):
        refused = host.post(f"/api/tabletop/{table.code}/remove/", bad, content_type="application/json")
        assert refused.status_code == 400 and says in str(refused.json()), refused.json()
    refused = host.post(f"/api/tabletop/{table.code}/start/", {"dealer": 5}, content_type="application/json")
    assert refused.status_code == 400 and "0 to 1" in refused.json()["detail"]
    assert RealTable.objects.get(pk=table.pk).status == "open"
    started = host.post(f"/api/tabletop/{table.code}/start/", {"dealer": 1}, content_type="application/json")
    assert started.status_code == 200 and started.json()["status"] == "playing"
    assert started.json()["prompt"]["due"] == "deal" and "ann deals" in started.json()["prompt"]["says"]
    again = host.post(f"/api/tabletop/{table.code}/start/", {}, content_type="application/json")
    assert again.status_code == 409
    late = host.post(f"/api/tabletop/{table.code}/remove/", {"seat": 1}, content_type="application/json")
    assert late.status_code == 409 and "only before the start" in late.json()["detail"]
    schema = host.get("/api/schema/").content.decode()
    assert "/api/tabletop/{code}/start/" in schema and "/api/tabletop/{code}/remove/" in schema
