"""Item 9 of the hardening issue: the schema tells the truth, and input serializers are strict."""

import inspect
import re

import pytest
from drf_spectacular.generators import SchemaGenerator

import config.api_views
import config.query_params
import config.renderers
from league.models import Player
from tests.league.conftest import client_for, corrected_game

HTTP_METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def openapi():
    return SchemaGenerator().get_schema(request=None, public=True)


def operations(openapi):
    for path, item in openapi["paths"].items():
        for method, operation in item.items():
            if method in HTTP_METHODS:
                yield path, method, operation


def test_9_every_operation_documents_its_error_responses(openapi):
    ops = list(operations(openapi))
    assert len(ops) > 30
    for path, method, operation in ops:
        codes = set(operation["responses"])
        assert {"400", "401", "404", "406"} <= codes, (method, path)
        if method != "get":
            assert {"403", "409", "503"} <= codes, (method, path)
        error = operation["responses"]["404"]["content"]["application/json"]["schema"]
        assert error == {"$ref": "#/components/schemas/ErrorOutput"}
    assert "429" in openapi["paths"]["/api/auth/token/"]["post"]["responses"]


def test_9_chip_set_and_buy_in_policy_may_be_null_in_the_schema(openapi):
    schemas = openapi["components"]["schemas"]
    for name in ("LeagueOutput", "EventOutput"):
        for field in ("chip_set", "buy_in_policy"):
            assert schemas[name]["properties"][field].get("nullable") is True, (name, field)


def test_9_the_corrections_list_is_a_list_in_the_schema_and_in_the_answer(openapi, world):
    game = corrected_game(world, reason="recount", han=0, lando=900)
    documented = openapi["paths"]["/api/games/{id}/corrections/"]["get"]["responses"]["200"]
    assert documented["content"]["application/json"]["schema"]["type"] == "array"
    answer = client_for(world.users["organiser"]).get(f"/api/games/{game.pk}/corrections/").json()
    assert isinstance(answer, list) and len(answer) == 1


@pytest.mark.parametrize(
    "path", ["/api/leagues/{slug}/standings/csv/", "/api/players/{player}/ledger/csv/?league={slug}"]
)
def test_9_csv_endpoints_answer_accept_text_csv(world, path):
    url = path.format(slug=world.league.slug, player=world.players[0].pk)
    response = client_for(world.users["member"]).get(url, HTTP_ACCEPT="text/csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    missing = client_for(world.users["member"]).get(url.replace(world.league.slug, "no-such"), HTTP_ACCEPT="text/csv")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"


@pytest.mark.parametrize(
    ("method", "url", "body", "field"),
    [
        ("post", "/api/players/", {"display_name": 0}, "display_name"),
        ("post", "/api/players/", {"display_name": "Rey", "nickname": "R"}, "nickname"),
        ("patch", "/api/players/{player}/", {"display_name": ["Han"]}, "display_name"),
        ("patch", "/api/leagues/{slug}/", {"description": 5}, "description"),
        ("patch", "/api/leagues/{slug}/", {"colour": "red"}, "colour"),
        ("patch", "/api/leagues/{slug}/", {"min_players": True}, "min_players"),
        ("patch", "/api/leagues/{slug}/", {"ties_share_better_place": "yes"}, "ties_share_better_place"),
        ("post", "/api/seasons/", {"league": "{slug}", "name": 7, "starts_on": "2026-01-01"}, "name"),
        ("post", "/api/events/{event}/adjustments/", {"player": "{player}", "amount": 5.0, "reason": "r"}, "amount"),
        ("post", "/api/events/{event}/adjustments/", {"player": "{player}", "amount": 5, "reason": "r", "x": 1}, "x"),
        ("post", "/api/games/", {"event": "{event}", "seats": [{"player": "{player}", "chips": 5}]}, "seats"),
        ("post", "/api/events/{event}/tables/", {"name": "T", "number": 2, "colour": "green"}, "colour"),
    ],
)
def test_9_unknown_or_mistyped_inputs_are_refused_with_a_400(world, method, url, body, field):
    values = {"slug": world.league.slug, "player": world.players[0].pk, "event": world.event.pk}

    def fill(value):
        if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
            return values[value[1:-1]]
        if isinstance(value, dict):
            return {k: fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [fill(v) for v in value]
        return value

    players = Player.objects.count()
    response = getattr(client_for(world.users["organiser"]), method)(url.format(**values), fill(body), format="json")
    assert response.status_code == 400, response.content
    answer = response.json()
    assert answer["code"] == "invalid" and field in answer["extra"]["fields"] and field in answer["detail"]
    assert Player.objects.count() == players


def test_9_the_events_list_and_detail_both_give_site_tables_in_the_schema(openapi):
    schemas = openapi["components"]["schemas"]
    site_tables = schemas["EventOutput"]["properties"]["site_tables"]
    assert site_tables["type"] == "array" and site_tables["items"] == {"$ref": "#/components/schemas/SiteTableOutput"}
    page = openapi["paths"]["/api/events/"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    listed = schemas[page["$ref"].rsplit("/", 1)[1]]["properties"]["results"]["items"]
    detail = openapi["paths"]["/api/events/{id}/"]["get"]["responses"]["200"]["content"]["application/json"]
    assert listed == detail["schema"] == {"$ref": "#/components/schemas/EventOutput"}
    assert "EventDetailOutput" not in schemas  # one event shape, in the list as alone


def test_no_operation_is_described_by_a_shared_bases_docstring(openapi):
    """The API docs read "Mixed into every API view: a read with a query parameter ..." as what the token endpoint
    does, and "Errors of a CSV endpoint are JSON" as what GET /api/leagues/ does: drf-spectacular fell back to a
    base class's docstring. config's shared bases describe the machinery; an endpoint says what it does or
    nothing."""
    shared = [
        inspect.cleandoc(klass.__doc__).splitlines()[0]
        for module in (config.query_params, config.renderers, config.api_views)
        for _, klass in inspect.getmembers(module, inspect.isclass)
        if klass.__module__ == module.__name__ and klass.__doc__
    ]
    assert any(line.startswith("Mixed into every API view") for line in shared)  # the one a reader saw
    described = [(path, method, op.get("description") or "") for path, method, op in operations(openapi)]
    for path, method, description in described:
        assert not any(description.startswith(line) for line in shared), (method, path, description[:80])
    assert any(description for _, _, description in described)  # views' own docstrings still describe them


# Every operation says in a sentence or three who may call it, what it answers and its main refusals, in its own words
# (not its viewset's shared line, nor its path), and plainly, for the API's users: no module or function names.
INTERNAL_NAME = re.compile(r"\b(config|league|games|tournaments|accounts)\.[a-z_]+|\b[a-z]+_[a-z_]+\(")


def test_every_operation_is_described_for_its_users(openapi):
    ops = list(operations(openapi))
    assert len(ops) >= 92  # the walk reaches every operation (92 on 2026-11-28)
    descriptions = []
    for path, method, operation in ops:
        text = operation.get("description", "")
        assert len(text.split()) >= 12 and text != operation.get("summary"), (method, path, text)
        assert not text.startswith("`/api/") and path not in text, (method, path)  # the path is shown beside it
        assert not INTERNAL_NAME.search(text), (method, path, INTERNAL_NAME.search(text))
        if method != "get":
            assert re.search(r"\b4\d\d\b", text), ("a write names its main refusals", method, path, text)
        descriptions.append(text)
    assert len(set(descriptions)) == len(ops)  # each in its own words, none its viewset's shared line


def test_the_described_refusals_are_the_answers_given(world):
    """Spot checks that a description's refusal is what the API answers (the code is the truth)."""
    member, organiser = client_for(world.users["member"]), client_for(world.users["organiser"])
    membership = organiser.get(f"/api/memberships/?league={world.league.slug}&role=organiser").json()["results"][0]
    assert member.delete(f"/api/memberships/{membership['id']}/").status_code == 403  # "else 403"
    assert organiser.delete(f"/api/memberships/{membership['id']}/").status_code == 409  # "the last organiser"
    assert member.get(f"/api/leagues/{world.league.slug}/joining/").status_code == 403  # "organisers only"
