"""Online tables over REST: the lobby, opening, seats, the state for me, legal actions and acting."""

import pytest

from games.online.models import OnlineAction, OnlineTable
from league.models import Visibility
from tests.league.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def api_table(world, humans, scheduled):
    world.event.status = "planned"
    world.event.save()
    org = client_for(world.users["organiser"])
    response = org.post("/api/tables/", {"event": world.event.pk, "name": "Api", "seats": 2}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["table"]["id"]


def test_the_lobby_lists_tables_of_visible_leagues_only(world, api_table):
    rows = client_for(None).get("/api/tables/").json()
    assert [(r["id"], r["seats_free"], r["buy_in"]) for r in rows] == [(api_table, 2, 450)]
    world.league.visibility = Visibility.MEMBERS
    world.league.save()
    assert client_for(None).get("/api/tables/").json() == []
    assert client_for(world.users["outsider"]).get(f"/api/tables/{api_table}/").status_code == 404
    assert client_for(world.users["member"]).get(f"/api/tables/{api_table}/").status_code == 200


@pytest.mark.parametrize(
    ("who", "body", "code"),
    [
        ("member", {"name": "Mine"}, 403),
        ("anonymous", {"name": "Mine"}, 401),
        ("organiser", {"name": "Big", "seats": 12}, 400),
        ("organiser", {"name": "Odd", "preset": "nonsense"}, 400),
        ("organiser", {"name": "Odd", "option_overrides": {"big_blind": "lots"}}, 400),
    ],
)
def test_opening_a_table_is_checked_and_a_refusal_writes_nothing(world, who, body, code):
    world.event.status = "planned"
    world.event.save()
    response = client_for(world.users[who]).post("/api/tables/", {"event": world.event.pk, **body}, format="json")
    assert response.status_code == code, response.content
    assert response.json()["detail"]
    assert not OnlineTable.objects.exists()


def start(world, humans, table_id):
    assert client_for(world.users["organiser"]).post(f"/api/tables/{table_id}/join/").status_code == 200
    assert client_for(humans[0]).post(f"/api/tables/{table_id}/join/", {"seat": 1}).status_code == 200
    assert client_for(humans[0]).post(f"/api/tables/{table_id}/start/").status_code == 403
    response = client_for(world.users["organiser"]).post(f"/api/tables/{table_id}/start/")
    assert response.status_code == 200, response.content
    return response.json()


def test_state_for_me_shows_my_cards_and_nobody_elses(world, humans, api_table):
    start(world, humans, api_table)
    mine = client_for(humans[0]).get(f"/api/tables/{api_table}/").json()
    theirs = client_for(world.users["organiser"]).get(f"/api/tables/{api_table}/").json()
    watcher = client_for(None).get(f"/api/tables/{api_table}/").json()
    assert len(mine["view"]["cards"]) == 5 and mine["you"]["seat"] == 1
    assert mine["view"]["cards"] != theirs["view"]["cards"]
    assert "cards" not in watcher["view"] and watcher["you"] is None
    assert "state" not in str(watcher["table"]) or "history" not in watcher["table"]
    # Mid-game at a table that is not a cash table, leaving is not offered (the service would refuse it).
    assert mine["table"]["deadline"] and not mine["can"]["leave"] and not mine["can"]["start"]


def test_legal_actions_and_acting_with_version_and_key(world, humans, api_table):
    start(world, humans, api_table)
    client = client_for(humans[0])
    legal = client.get(f"/api/tables/{api_table}/legal/").json()
    assert legal["legal"]["verbs"] == ["select"]
    body = {"verb": "select", "cards": [], "version": legal["version"], "key": "a1"}
    first = client.post(f"/api/tables/{api_table}/act/", body, format="json")
    assert first.status_code == 200, first.content
    assert first.json()["applied"] and first.json()["state"]["table"]["version"] == legal["version"] + 1
    again = client.post(f"/api/tables/{api_table}/act/", body, format="json")
    assert again.status_code == 200 and again.json()["repeated"] is True
    assert again.json()["version"] == first.json()["version"]
    assert OnlineAction.objects.filter(table_id=api_table).count() == 1


def test_a_key_reused_for_another_action_answers_409_saying_so(world, humans, api_table):
    start(world, humans, api_table)
    client = client_for(humans[0])
    state = client.get(f"/api/tables/{api_table}/").json()
    body = {"verb": "select", "cards": [], "version": state["table"]["version"], "key": "k1"}
    assert client.post(f"/api/tables/{api_table}/act/", body, format="json").status_code == 200
    other = {**body, "cards": state["view"]["cards"][:2]}
    refused = client.post(f"/api/tables/{api_table}/act/", other, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "key_reused"
    assert "already used for a different action" in refused.json()["detail"]
    assert OnlineAction.objects.filter(table_id=api_table).count() == 1


def test_unknown_fields_are_refused_naming_them_and_the_fields_allowed(world, humans, api_table):
    """Input is strict: a misspelt field (`lokc`) was ignored, so the action ran without it; now a 400 names it."""
    start(world, humans, api_table)
    client = client_for(humans[0])
    version = client.get(f"/api/tables/{api_table}/").json()["table"]["version"]
    body = {"verb": "select", "cards": [], "version": version, "key": "u", "lokc": "+1s"}
    refused = client.post(f"/api/tables/{api_table}/act/", body, format="json")
    assert refused.status_code == 400
    detail = refused.json()["detail"]
    assert (
        "Unknown field 'lokc'" in detail
        and "call_hand, card, cards, key, lock, source, unlock, verb, version" in detail
    )
    assert OnlineAction.objects.filter(table_id=api_table).count() == 0
    for path, body in (("entropy/", {"value": "abc", "seed": "1"}), ("leave/", {"seat": 1}), ("pause/", {"x": 1})):
        answer = client.post(f"/api/tables/{api_table}/{path}", body, format="json")
        assert answer.status_code == 400, (path, answer.content)
        assert "Unknown field" in answer.json()["detail"], path
    assert "this request takes: no fields" in answer.json()["detail"]
    assert client.get(f"/api/tables/{api_table}/").json()["table"]["version"] == version


def test_refused_actions_answer_4xx_and_change_nothing(world, humans, api_table):
    start(world, humans, api_table)
    client = client_for(humans[0])
    version = client.get(f"/api/tables/{api_table}/").json()["table"]["version"]
    url = f"/api/tables/{api_table}/act/"
    cases = [
        ({"verb": "fold", "version": version, "key": "f"}, 400),  # select phase: folding is not a choice
        ({"verb": "select", "cards": ["+9x"], "version": version, "key": "c"}, 400),
        ({"verb": "dance", "version": version, "key": "d"}, 400),
        ({"verb": "select", "cards": [], "key": "v"}, 400),
        ({"verb": "select", "cards": [], "version": version - 1, "key": "s"}, 409),
    ]
    for body, code in cases:
        response = client.post(url, body, format="json")
        assert response.status_code == code, (body, response.content)
        assert response.json()["detail"]
    stale = client.post(url, cases[-1][0], format="json").json()
    assert stale["code"] == "stale" and stale["extra"]["state"]["table"]["version"] == version
    assert client_for(None).post(url, cases[0][0], format="json").status_code == 401
    assert client_for(humans[1]).post(url, cases[0][0], format="json").status_code == 400
    assert not OnlineAction.objects.filter(table_id=api_table).exists()
    assert client.get(f"/api/tables/{api_table}/").json()["table"]["version"] == version


def test_pause_resume_leave_and_bots(world, humans, api_table):
    org = client_for(world.users["organiser"])
    assert client_for(humans[0]).post(f"/api/tables/{api_table}/join/").status_code == 200
    assert client_for(humans[0]).post(f"/api/tables/{api_table}/leave/").status_code == 200
    assert client_for(humans[0]).post(f"/api/tables/{api_table}/bots/").status_code == 403
    bots = org.post(f"/api/tables/{api_table}/bots/", {"bot": "random"})
    assert [s["bot"] for s in bots.json()["seats"]] == ["random", "random"]
    assert org.post(f"/api/tables/{api_table}/resume/").status_code == 409
    assert org.post(f"/api/tables/{api_table}/start/").json()["table"]["status"] == "running"
    assert org.post(f"/api/tables/{api_table}/pause/").json()["table"]["status"] == "paused"
    assert org.post(f"/api/tables/{api_table}/resume/").json()["table"]["status"] == "running"
    refused = org.post(f"/api/tables/{api_table}/close/")  # "better" ends by itself: only a cash table closes
    assert refused.status_code == 409 and "cash game" in refused.json()["detail"]


def test_the_table_endpoints_are_in_the_openapi_schema(db):
    schema = client_for(None).get("/api/schema/", {"format": "json"}).json()
    for path in ("/api/tables/", "/api/tables/{id}/", "/api/tables/{id}/act/", "/api/tables/{id}/legal/"):
        assert path in schema["paths"], path
    assert "/api/tables/{id}/join/" in schema["paths"] and "/api/tables/{id}/leave/" in schema["paths"]


def test_entropy_is_refused_during_a_hand_with_the_reason(world, humans, api_table):
    start(world, humans, api_table)
    response = client_for(humans[0]).post(f"/api/tables/{api_table}/entropy/", {"value": "cafe"})
    assert response.status_code == 400 and "between hands" in response.json()["detail"]


@pytest.mark.parametrize("pk", ["%C2%B9", "%D9%A3", "9" * 30])
def test_a_table_id_that_is_not_ascii_digits_or_too_long_is_not_found(world, api_table, pk):
    # '¹'.isdigit() is true but int('¹') fails, and a 30-digit id overflows the database's bigint: 404, never 500.
    client = client_for(world.users["organiser"])
    assert client.get(f"/api/tables/{pk}/").status_code == 404


@pytest.mark.parametrize("hand", ["%C2%B9", "1" * 30, "-1"])
def test_a_replay_hand_number_that_is_not_ascii_digits_is_refused(world, api_table, hand):
    response = client_for(world.users["organiser"]).get(f"/api/tables/{api_table}/replay/?hand={hand}")
    assert response.status_code == 400
    assert "hand number" in response.json()["detail"]
