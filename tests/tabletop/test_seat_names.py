"""A seat's name at a real-cards table: a name that differs from a seated one only in capitals or spaces is the same
name, and a name with an invisible or direction-changing character (a bidi control such as U+202E, a zero-width
space or joiner) is refused; by the page and the API alike, for a guest joining, the host adding a seat and a player
joining between hands. Refusals are 400s that say why and write nothing."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from games.tabletop import services
from games.tabletop.models import RealSeat, RealTable
from tests.factories import UserFactory, client_as
from tests.tabletop.helpers import started_table

pytestmark = pytest.mark.django_db

HIDDEN = {
    "\u202eyeR": "U+202E RIGHT-TO-LEFT OVERRIDE",
    "Re\u200by": "U+200B ZERO WIDTH SPACE",
    "Rey\u2066": "U+2066 LEFT-TO-RIGHT ISOLATE",
    "R\u200dey": "U+200D ZERO WIDTH JOINER",
    "\ufeffRey": "U+FEFF ZERO WIDTH NO-BREAK SPACE",
}


@pytest.fixture
def table_with_rey():
    host = UserFactory(username="hostess")
    table = services.realtable_open(actor=host, variant="coruscant_shift", preset="cantina")
    services.realseat_join(actor=AnonymousUser(), table=table, name="rey")
    return table, host


def _written(table: RealTable) -> tuple:
    row = RealTable.objects.get(pk=table.pk)
    return row.version, sorted(RealSeat.objects.filter(table=table).values_list("name", flat=True))


@pytest.mark.parametrize("typed", ["REY ", "  Rey", "rEy"])
def test_a_name_that_differs_only_in_capitals_or_spaces_is_taken(table_with_rey, typed):
    table, host = table_with_rey
    before = _written(table)
    page = Client().post(reverse("tabletop-do", args=[table.code, "join"]), {"name": typed}, HTTP_HX_REQUEST="true")
    api = Client().post(f"/api/tabletop/{table.code}/join/", {"name": typed}, content_type="application/json")
    added = client_as(host).post(f"/api/tabletop/{table.code}/add/", {"name": typed}, content_type="application/json")
    says = "rey is already seated here (names that differ only in capitals or spaces are the same name)"
    assert page.status_code == api.status_code == added.status_code == 400
    assert says in page.content.decode() and says in api.json()["detail"] and says in added.json()["detail"]
    assert api.json()["extra"]["field"] == "name"
    assert _written(table) == before
    # The exact name says it plainly; another name is seated.
    same = Client().post(f"/api/tabletop/{table.code}/join/", {"name": "rey"}, content_type="application/json")
    assert same.status_code == 400 and same.json()["detail"] == "rey is already seated here; choose another name."
    other = Client().post(f"/api/tabletop/{table.code}/join/", {"name": "Reya"}, content_type="application/json")
    assert other.status_code == 200 and other.json()["seats"][-1]["name"] == "Reya"


@pytest.mark.parametrize(("typed", "named"), list(HIDDEN.items()))
def test_a_name_with_an_invisible_or_direction_changing_character_is_refused(table_with_rey, typed, named):
    table, host = table_with_rey
    before = _written(table)
    page = Client().post(reverse("tabletop-do", args=[table.code, "join"]), {"name": typed}, HTTP_HX_REQUEST="true")
    api = Client().post(f"/api/tabletop/{table.code}/join/", {"name": typed}, content_type="application/json")
    added = client_as(host).post(f"/api/tabletop/{table.code}/add/", {"name": typed}, content_type="application/json")
    host_page = client_as(host).post(
        reverse("tabletop-do", args=[table.code, "add"]), {"name": typed}, HTTP_HX_REQUEST="true"
    )
    for answer in (page, api, added, host_page):
        assert answer.status_code == 400
        text = (
            answer.json()["detail"]
            if answer["Content-Type"].startswith("application/json")
            else answer.content.decode()
        )
        assert f"invisible or direction-changing character ({named})" in text, text
    assert _written(table) == before


def test_a_player_joining_between_hands_is_named_by_the_same_rules():
    table, host, _, _ = started_table(preset="casino")
    table.refresh_from_db()
    before = (table.version, list(table.steps))
    api = client_as(host)
    for name, says in (
        ("ANN", "ann is already seated here (names that differ only in capitals or spaces are the same name)"),
        ("B\u202eob", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ):
        answer = api.post(
            f"/api/tabletop/{table.code}/step/",
            {"step": {"step": "join", "name": name, "stack": 50}},
            content_type="application/json",
        )
        assert answer.status_code == 400 and says in answer.json()["detail"], answer.json()
    table.refresh_from_db()
    assert (table.version, table.steps) == before
    # A player who left comes back under their own name only.
    services.realtable_step(actor=host, table=table, step={"step": "leave", "seat": 1})
    answer = api.post(
        f"/api/tabletop/{table.code}/step/",
        {"step": {"step": "join", "name": "Ann", "stack": 50}},
        content_type="application/json",
    )
    assert (
        answer.status_code == 400
        and "ann left this table earlier: to bring them back, join them as ann" in (answer.json()["detail"])
    )
    services.realtable_step(actor=host, table=table, step={"step": "join", "name": "ann", "stack": 50})
