"""The API refuses query parameters it does not know (GET and HEAD), accepts every one its schema documents, and the
pages' links into the API send only documented ones (config.query_params)."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView
from rest_framework.views import APIView

from config.api_urls import api_not_found
from config.query_params import StrictQueryParams
from games.services import result_record
from league.models import ChipSet, Membership
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory
from tests.league.conftest import client_for

ROOT = Path(settings.BASE_DIR)
UNKNOWN = "zz_unknown"
# HTML pages of the docs, and the JSON 404 for addresses no route matches: nothing there reads a query parameter.
EXEMPT = {SpectacularSwaggerView, SpectacularRedocView, api_not_found.cls}


@pytest.fixture(scope="module")
def openapi():
    return SchemaGenerator().get_schema(request=None, public=True)


def get_operations(openapi):
    """(path, the query parameters the schema documents) for every GET operation."""
    for path, item in openapi["paths"].items():
        if "get" in item:
            parameters = [p for p in item["get"].get("parameters", []) if p["in"] == "query"]
            yield path, parameters


def browsable() -> bool:
    return "rest_framework.renderers.BrowsableAPIRenderer" in settings.REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"]


def api_routes(patterns=None, prefix=""):
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from api_routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and (prefix + str(pattern.pattern)).lstrip("^").startswith("api/"):
            yield prefix + str(pattern.pattern), pattern.callback


def test_every_api_view_is_strict_about_query_params():
    views = {getattr(callback, "cls", None) for _, callback in api_routes()}
    drf_views = {view for view in views if isinstance(view, type) and issubclass(view, APIView)}
    assert len(drf_views) > 20
    loose = {view.__name__ for view in drf_views - EXEMPT if not issubclass(view, StrictQueryParams)}
    assert loose == set()


def fill_path(path: str) -> str:
    # The refusal comes before any lookup: any well-formed id or slug does.
    return re.sub(r"\{[^}]+\}", "1", path)


def test_every_get_operation_refuses_an_unknown_parameter_and_names_what_it_takes(openapi, world):
    client = client_for(world.users["admin"])
    operations = list(get_operations(openapi))
    assert len(operations) > 25
    memberships = Membership.objects.count()
    for path, parameters in operations:
        url = fill_path(path)
        response = client.get(f"{url}?{UNKNOWN}=1", HTTP_ACCEPT="application/json")
        assert response.status_code == 400, (path, response.status_code, response.content[:200])
        body = response.json()
        assert body["code"] == "unknown_parameter", path
        assert body["extra"]["unknown"] == [UNKNOWN], path
        assert f"'{UNKNOWN}'" in body["detail"], path
        documented = {p["name"] for p in parameters}
        allowed = set(body["extra"]["allowed"])
        # The schema and the refusal agree; the browsable API (development) adds its `?format=` links.
        assert allowed - ({"format"} if browsable() else set()) == documented - ({"format"} if browsable() else set())
        assert documented <= allowed, path
        for name in documented:
            assert name in body["detail"], (path, name)
        assert client.head(f"{url}?{UNKNOWN}=1").status_code == 400, path
    assert Membership.objects.count() == memberships


def test_several_unknown_parameters_are_all_named_and_known_ones_are_not(world):
    response = client_for(None).get(f"/api/seasons/?league__slug={world.league.slug}&leag=x&sort=name")
    assert response.status_code == 400
    assert response.json()["extra"]["unknown"] == ["leag", "sort"]
    assert "'leag', 'sort'" in response.json()["detail"]


def test_list_filters_are_refused_on_one_object(world):
    # Filters act on the lists only, as the schema says: on a league's own address `?visibility=` is unknown.
    response = client_for(None).get(f"/api/leagues/{world.league.slug}/?visibility=public")
    assert response.status_code == 400
    development = ["format"] if browsable() else []  # the browsable API's format links
    assert response.json()["extra"] == {"unknown": ["visibility"], "allowed": development}
    assert ("takes format." if development else "takes no query parameters.") in response.json()["detail"]


def test_the_csv_endpoints_refuse_in_json_whatever_the_accept_header(world):
    url = f"/api/players/{world.players[0].pk}/ledger/csv/?league={world.league.slug}&seasn=1"
    response = client_for(world.users["member"]).get(url, HTTP_ACCEPT="text/csv")
    assert response.status_code == 400 and response["Content-Type"] == "application/json"
    assert response.json()["extra"]["unknown"] == ["seasn"]
    assert set(response.json()["extra"]["allowed"]) >= {"league", "season", "format"}


def test_an_address_that_takes_no_reads_still_answers_405():
    assert client_for(None).get(f"/api/auth/token/?{UNKNOWN}=1").status_code == 405


def test_writes_are_not_checked_for_query_params(world):
    # A write's input is its body, checked by its input serializer; its query string is not read.
    response = client_for(world.users["organiser"]).post(
        f"/api/events/{world.event.pk}/adjustments/?zz=1",
        {"player": world.players[0].pk, "amount": 5, "reason": "recount"},
        format="json",
    )
    assert response.status_code == 201, response.content


@pytest.mark.parametrize(
    ("path", "alias", "long_name"),
    [
        ("/api/memberships/", "league", "league__slug"),
        ("/api/players/", "league", "memberships__league__slug"),
        ("/api/seasons/", "league", "league__slug"),
        ("/api/events/", "league", "season__league__slug"),
        ("/api/ledger/", "league", "event__season__league__slug"),
        ("/api/games/", "league", "event__season__league__slug"),
    ],
)
def test_league_filters_by_slug_as_its_long_name_does(world, path, alias, long_name):
    elsewhere = MembershipFactory(league=world.other_league, player=PlayerFactory(display_name="Elsewhere")).player
    other_event = EventFactory(season=SeasonFactory(league=world.other_league))
    other_organiser = world.users["other_organiser"].player
    for actor, event, seated in (
        (world.users["organiser"], world.event, world.players[:2]),
        (world.users["other_organiser"], other_event, [elsewhere, other_organiser]),
    ):
        seats = [{"player": seated[0].pk, "final_credits": 900}, {"player": seated[1].pk, "final_credits": 0}]
        result_record(actor=actor, event=event, seats=seats)
    client = client_for(world.users["admin"])
    everything = client.get(path).json()["count"]
    by_alias = client.get(f"{path}?{alias}={world.league.slug}").json()
    by_name = client.get(f"{path}?{long_name}={world.league.slug}").json()
    assert by_alias == by_name
    assert 0 < by_alias["count"] < everything  # the filter acts: the other league's rows are left out
    assert client.get(f"{path}?{alias}=no-such-league").json()["count"] == 0


def test_the_qa_case_memberships_and_players_of_one_league(world):
    LeagueFactory(slug="qa-spike-league")
    client = client_for(world.users["admin"])
    for path in ("/api/memberships/", "/api/players/"):
        assert client.get(f"{path}?league=qa-spike-league").json()["count"] == 0
        assert client.get(f"{path}?leage=qa-spike-league").status_code == 400


def test_the_league_filter_on_players_hides_a_members_only_league_as_the_long_name_does(private_world):
    outsider = client_for(private_world.users["outsider"])
    slug = private_world.league.slug
    assert outsider.get(f"/api/players/?league={slug}").json()["count"] == 0
    member = client_for(private_world.users["member"])
    assert member.get(f"/api/players/?league={slug}").json()["count"] == len(private_world.players) + 2


def documented_value(name: str, parameter: dict, world) -> str:
    schema = parameter.get("schema", {})
    if schema.get("enum"):
        return str(schema["enum"][0])
    if "example" in parameter:  # `ordering`: one of the fields its description names
        return str(parameter["example"])
    by_name = {
        "season": world.season.pk,
        "event__season": world.season.pk,
        "event": world.event.pk,
        "player": world.players[0].pk,
        "seats__player": world.players[0].pk,
        "credits": 25,
        "page": 1,
        "hand": 1,
        "search": "a",
    }
    if name in by_name:
        return str(by_name[name])
    if name == "league" or name.endswith("slug"):
        return world.league.slug
    return "1" if schema.get("type") == "integer" else "a"


def real_path(path: str, world) -> str:
    values = {
        "/api/leagues/{slug}": world.league.slug,
        "/api/chip-sets/{slug}": ChipSet.objects.values_list("slug", flat=True).first() or "none",
        "/api/players/{id}": world.players[0].pk,
        "/api/seasons/{id}": world.season.pk,
        "/api/events/{id}": world.event.pk,
    }
    for prefix, value in values.items():
        path = path.replace(prefix, prefix.split("{")[0] + str(value))
    return fill_path(path)


def test_every_documented_parameter_is_accepted(openapi, world):
    client = client_for(world.users["admin"])
    checked = 0
    for path, parameters in get_operations(openapi):
        for parameter in parameters:
            name = parameter["name"]
            url = f"{real_path(path, world)}?{name}={documented_value(name, parameter, world)}"
            if name != "league" and any(p["name"] == "league" and p.get("required") for p in parameters):
                url += f"&league={world.league.slug}"
            response = client.get(url)
            assert response.status_code < 500, (url, response.status_code)
            if response.status_code == 400:
                assert response.json().get("code") != "unknown_parameter", (url, response.content)
            if "{" not in path or path.startswith(("/api/leagues/{slug}/", "/api/players/{id}/")):
                assert response.status_code == 200, (url, response.status_code, response.content[:300])
            checked += 1
    assert checked > 50


# A link or a fetch into the API with a query string, in the pages' scripts and templates: /api/...?a=..&b=..
TEMPLATE_TAG = r"\{\{[^}]*\}\}|\{%[^}]*%\}"
API_LINK = re.compile(rf"""/api/(?P<path>(?:{TEMPLATE_TAG}|[^"'?\s{{])*)\?(?P<query>(?:{TEMPLATE_TAG}|[^"'\s{{])*)""")


def links_into_the_api():
    files = [*sorted((ROOT / "static" / "js").glob("*.js")), *sorted((ROOT / "templates").rglob("*.html"))]
    for file in files:
        for match in API_LINK.finditer(file.read_text()):
            names = re.findall(r"(?:^|&|\?|%\})([A-Za-z_][A-Za-z0-9_]*)=", match["query"])
            yield file.relative_to(ROOT), "/api/" + match["path"], names


def schema_path_for(link_path: str, openapi) -> str | None:
    # Template expressions ({{ league.slug }}) and script concatenations stand for one path segment.
    link_path = re.sub(r"\{%[^}]*%\}", "", link_path)
    segments = re.sub(r"\{\{[^}]*\}\}|\"\s*\+[^+]*\+\s*\"", "X", link_path).strip("/").split("/")
    for path in openapi["paths"]:
        parts = path.strip("/").split("/")
        if len(parts) == len(segments) and all(
            p == s or p.startswith("{") for p, s in zip(parts, segments, strict=True)
        ):
            return path
    return None


def test_the_pages_links_into_the_api_send_only_documented_parameters(openapi):
    links = list(links_into_the_api())
    assert len(links) >= 2  # the ledger CSV and the standings CSV links at least
    for file, path, names in links:
        schema_path = schema_path_for(path, openapi)
        assert schema_path is not None, (file, path)
        documented = {p["name"] for p in dict(get_operations(openapi))[schema_path]}
        assert names and set(names) <= documented, (file, path, names, documented)


def test_every_list_refuses_an_ordering_by_a_field_it_does_not_sort_by(openapi, world):
    client = client_for(world.users["admin"])
    ordered = {path: p for path, parameters in get_operations(openapi) for p in parameters if p["name"] == "ordering"}
    assert len(ordered) >= 6
    for path, documented in ordered.items():
        response = client.get(f"{fill_path(path)}?ordering=-{UNKNOWN}", HTTP_ACCEPT="application/json")
        assert response.status_code == 400, (path, response.status_code, response.content[:200])
        body = response.json()
        assert body["code"] == "unknown_ordering", path
        assert body["extra"]["unknown"] == [f"-{UNKNOWN}"], path
        assert body["extra"]["allowed"], path
        # The schema names the same fields, and its example is one of them.
        assert documented["description"].endswith(f"order: {', '.join(body['extra']['allowed'])}."), path
        assert documented["example"].removeprefix("-") in body["extra"]["allowed"], path
        for field in body["extra"]["allowed"]:
            assert field in body["detail"], (path, field)
            assert client.get(f"{fill_path(path)}?ordering=-{field}").status_code == 200, (path, field)


def test_an_ordering_names_known_fields_only_and_those_still_sort(world):
    SeasonFactory(league=world.league, name="A first season", starts_on="2025-01-01")
    client = client_for(None)
    url = f"/api/seasons/?league={world.league.slug}"
    refused = client.get(f"{url}&ordering=-name,bogus, ,-starts_on")
    assert refused.status_code == 400
    assert refused.json()["extra"] == {"unknown": ["bogus", ""], "allowed": ["starts_on", "name"]}
    assert "'bogus', ''" in refused.json()["detail"] and "starts_on, name" in refused.json()["detail"]
    names = [season["name"] for season in client.get(f"{url}&ordering=-name").json()["results"]]
    assert names == sorted(names, reverse=True) and len(names) == 2
    assert client.get(f"{url}&ordering=").status_code == 200  # no ordering given: the default order
    # On one object there is no list to order: `ordering` is an unknown parameter there, as before.
    one = client.get(f"/api/seasons/{world.season.pk}/?ordering=name")
    assert one.status_code == 400 and one.json()["code"] == "unknown_parameter"


def season_addresses(world) -> list[str]:
    slug, player = world.league.slug, world.players[0].pk
    return [
        f"/api/leagues/{slug}/standings/?",
        f"/api/leagues/{slug}/standings/csv/?",
        f"/api/leagues/{slug}/chip-history/?",
        f"/api/players/{player}/chip-history/?league={slug}&",
        f"/api/players/{player}/ledger/csv/?league={slug}&",
    ]


def test_a_season_not_of_the_league_is_refused_naming_its_seasons(world):
    second = SeasonFactory(league=world.league, name="Season two")
    elsewhere = SeasonFactory(league=world.other_league)
    client = client_for(world.users["member"])
    for address in season_addresses(world):
        for value in ("abc", "-1", "1.5", "999999", str(elsewhere.pk), "%C2%B9"):
            response = client.get(f"{address}season={value}", HTTP_ACCEPT="application/json")
            assert response.status_code == 400, (address, value, response.status_code)
            assert response["Content-Type"] == "application/json", (address, value)
            body = response.json()
            assert body["code"] == "unknown_season", (address, value)
            assert body["extra"]["allowed"] == [world.season.pk, second.pk, "all"], (address, value)
            assert f"({world.season.pk}, {second.pk})" in body["detail"] and "'all'" in body["detail"]
        for value in (str(world.season.pk), "all", ""):
            assert client.get(f"{address}season={value}").status_code == 200, (address, value)


def test_the_standings_of_a_season_are_the_same_answer_stored_or_not(world):
    record = [
        {"player": world.players[0].pk, "final_credits": 900},
        {"player": world.players[1].pk, "final_credits": 0},
    ]
    result_record(actor=world.users["organiser"], event=world.event, seats=record)
    client = client_for(None)
    url = f"/api/leagues/{world.league.slug}/standings/?season="
    stored = client.get(f"{url}{world.season.pk}").json()
    assert [row["player"] for row in stored["rows"]][:1] == [world.players[0].pk]
    assert client.get(f"{url}+{world.season.pk}").json() == stored  # "+" reads as a space, around the same id
    assert client.get(f"{url}{world.season.pk}x").status_code == 400
