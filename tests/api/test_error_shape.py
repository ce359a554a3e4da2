"""One error shape across the API (config.errors): every refusal is `{"detail", "code", "extra"}`, and a refusal of
the input (a serializer's, a filter's: DRF's bare `{"field": ["message"]}` on its own) is a 400 `invalid` whose
`detail` names each wrong field and whose `extra.fields` lists them. Walked over every write operation the schema
documents, with a body whose every field has the wrong type."""

import re

import pytest
from drf_spectacular.generators import SchemaGenerator

from games.models import Game
from games.services import result_record
from league.models import ChipSet, LedgerEntry, Membership, Player, Season
from tests.league.conftest import client_for

WRITES = ("post", "put", "patch", "delete")
# A value of the wrong type for each type the schema can give a field.
WRONG = {"string": {"not": "text"}, "integer": "4.0", "number": "many", "boolean": "yes", "array": 5, "object": 5}


@pytest.fixture(scope="module")
def openapi():
    return SchemaGenerator().get_schema(request=None, public=True)


def properties(openapi, operation) -> dict:
    """The writable fields of an operation's JSON body, by name, with their schema (a $ref resolved)."""
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if not body:
        return {}
    component = openapi["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
    return {name: spec for name, spec in component.get("properties", {}).items() if not spec.get("readOnly")}


def wrong_value(openapi, spec: dict):
    ref = spec.get("$ref") or next((part["$ref"] for part in spec.get("allOf", []) if "$ref" in part), None)
    if ref:  # a choice (an enum component): a JSON object is never one of its values
        spec = openapi["components"]["schemas"][ref.rsplit("/", 1)[1]]
        if "enum" in spec:
            return {"not": "a choice"}
    return WRONG.get(spec.get("type"), {"not": "this"})


@pytest.fixture
def ids(world):
    """Real objects for the path's ids, so each operation reaches its input rather than a 404."""
    han, lando = world.players[:2]
    game = result_record(
        actor=world.users["organiser"],
        event=world.event,
        seats=[{"player": han.pk, "final_credits": 900}, {"player": lando.pk, "final_credits": 0}],
    )
    membership = Membership.objects.get(league=world.league, player=han)
    return {
        "slug": world.league.slug,
        "/api/events/": world.event.pk,
        "/api/games/": game.pk,
        "/api/memberships/": membership.pk,
        "/api/players/": han.pk,
        "/api/seasons/": world.season.pk,
    }


def fill(path: str, ids: dict) -> str:
    path = path.replace("{slug}", str(ids["slug"]))
    prefix = next((p for p in ids if p.startswith("/") and path.startswith(p)), None)
    path = path.replace("{id}", str(ids[prefix]), 1) if prefix else path
    return re.sub(r"\{[^}]+\}", "1", path)  # no such object: a 404, still in the one shape


def assert_one_shape(answer, what) -> dict:
    body = answer.json()
    assert set(body) == {"detail", "code", "extra"}, (what, answer.status_code, body)
    assert isinstance(body["detail"], str) and body["detail"], what
    assert isinstance(body["code"], str) and body["code"], what
    assert isinstance(body["extra"], dict), what
    return body


def test_every_write_refuses_wrong_typed_fields_in_the_one_shape_naming_each_field(openapi, world, ids):
    client = client_for(world.users["admin"])
    counts = (Player.objects.count(), Membership.objects.count(), Season.objects.count(), ChipSet.objects.count())
    refused_input = []
    for path, item in openapi["paths"].items():
        for method in WRITES:
            operation = item.get(method)
            fields = properties(openapi, operation) if operation else {}
            if not fields:
                continue
            body = {name: wrong_value(openapi, spec) for name, spec in fields.items()}
            url = fill(path, ids)
            answer = getattr(client, method)(url, body, format="json")
            what = f"{method.upper()} {url}"
            assert answer.status_code >= 400, (what, answer.status_code, answer.content[:300])
            shaped = assert_one_shape(answer, what)
            if answer.status_code == 400:
                assert shaped["code"] == "invalid", (what, shaped)
                wrong = shaped["extra"]["fields"]
                assert wrong and set(wrong) <= set(fields) | {"non_field_errors"}, (what, wrong)
                for name in wrong:
                    if name != "non_field_errors":
                        assert (
                            f"{name}:" in shaped["detail"]
                            or f"{name}[" in shaped["detail"]
                            or (f"{name}." in shaped["detail"])
                        ), (what, name, shaped["detail"])
                refused_input.append(what)
    # The operations on the league's own objects all reach their input; the walk is not vacuous.
    assert len(refused_input) >= 25, refused_input
    for expected in ("PATCH /api/leagues/", "POST /api/leagues/", "POST /api/games/", "POST /api/auth/token/"):
        assert any(what.startswith(expected) for what in refused_input), expected
    assert any(what.endswith("/joining/") for what in refused_input)
    assert counts == (
        Player.objects.count(),
        Membership.objects.count(),
        Season.objects.count(),
        ChipSet.objects.count(),
    )


@pytest.mark.parametrize(
    ("method", "url", "body", "field"),
    [
        # Joining a league and the token endpoint used to answer DRF's bare shape.
        ("patch", "/api/leagues/{slug}/joining/", {"join_mode": "sometimes"}, "join_mode"),
        ("post", "/api/join/", {}, "join_code"),
        ("post", "/api/auth/token/", {"username": "x"}, "password"),
        ("post", "/api/memberships/", {"league": "{slug}", "player": 10**9}, "player"),
    ],
)
def test_a_bare_drf_refusal_becomes_the_one_shape(world, method, url, body, field):
    url = url.format(slug=world.league.slug)
    body = {key: world.league.slug if value == "{slug}" else value for key, value in body.items()}
    answer = getattr(client_for(world.users["admin"]), method)(url, body, format="json")
    assert answer.status_code == 400, answer.content
    shaped = assert_one_shape(answer, url)
    assert shaped["code"] == "invalid"
    assert shaped["extra"]["field"] == field and field in shaped["extra"]["fields"]
    assert shaped["detail"].startswith("Invalid input.") and f"{field}:" in shaped["detail"]


def test_a_non_field_refusal_is_named_without_a_field(world):
    answer = client_for(None).post("/api/auth/token/", {"username": "nobody", "password": "wrong"}, format="json")
    assert answer.status_code == 400
    shaped = assert_one_shape(answer, "token")
    assert shaped["code"] == "invalid" and "field" not in shaped["extra"]
    assert list(shaped["extra"]["fields"]) == ["non_field_errors"]
    assert shaped["detail"] == "Invalid input. " + " ".join(shaped["extra"]["fields"]["non_field_errors"])


def test_a_filters_refusal_on_a_list_is_the_one_shape(world):
    answer = client_for(None).get("/api/events/?season=abc")
    assert answer.status_code == 400
    shaped = assert_one_shape(answer, "filter")
    assert shaped["code"] == "invalid" and shaped["extra"]["field"] == "season" and "season:" in shaped["detail"]


@pytest.mark.parametrize(
    ("method", "url", "status", "code"),
    [
        ("get", "/api/leagues/no-such-league/", 404, "not_found"),
        ("post", "/api/leagues/", 401, "not_authenticated"),
        ("put", "/api/leagues/", 401, "not_authenticated"),
        ("get", "/api/no/such/address/", 404, "not_found"),
    ],
)
def test_drfs_other_refusals_keep_their_detail_and_gain_a_code(db, method, url, status, code):
    answer = getattr(client_for(None), method)(url, {}, format="json")
    assert answer.status_code == status
    shaped = assert_one_shape(answer, url)
    assert shaped["code"] == code and shaped["extra"] == {}


def test_a_method_the_endpoint_does_not_take_is_a_405_in_the_one_shape(world):
    answer = client_for(world.users["admin"]).put(f"/api/leagues/{world.league.slug}/", {}, format="json")
    assert answer.status_code == 405
    assert assert_one_shape(answer, "put")["code"] == "method_not_allowed"


def test_nothing_is_written_by_a_refused_result(world):
    games, entries = Game.objects.count(), LedgerEntry.objects.count()
    body = {"event": world.event.pk, "seats": [{"player": world.players[0].pk, "final_credits": "9.0"}]}
    answer = client_for(world.users["admin"]).post("/api/games/", body, format="json")
    shaped = assert_one_shape(answer, "games")
    assert answer.status_code == 400 and shaped["extra"]["field"] == "seats[0].final_credits"
    assert "seats[0].final_credits: Give a whole number in digits only" in shaped["detail"]
    assert (Game.objects.count(), LedgerEntry.objects.count()) == (games, entries)
