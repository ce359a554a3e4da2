"""Issue 23 through the API: the same permission checks as the pages, strict input, hidden looks missing,
wrong codes rate limited."""

import pytest
from django.core.cache import cache
from django.test import Client

from league.models import AuditEntry, JoinMode, JoinRequest, League, Membership, Visibility
from league.services import joining
from tests.factories import UserFactory
from tests.league.conftest import client_for


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()
    yield
    cache.clear()


def url(world, rest=""):
    return f"/api/leagues/{world.league.slug}/{rest}"


def test_only_organisers_read_and_change_the_join_settings(world):
    for who, code in (("member", 403), ("outsider", 403), ("other_organiser", 403), ("anonymous", 401)):
        assert client_for(world.users[who]).get(url(world, "joining/")).status_code == code, who
        response = client_for(world.users[who]).patch(url(world, "joining/"), {"join_mode": "code"}, format="json")
        assert response.status_code == code, who
    assert League.objects.get(pk=world.league.pk).join_mode == JoinMode.INVITE
    response = client_for(world.users["organiser"]).patch(url(world, "joining/"), {"join_mode": "code"}, format="json")
    assert response.status_code == 200 and response.json()["join_mode"] == "code"
    assert response.json()["join_url"].endswith(f"/join/{world.league.slug}/{response.json()['join_code']}/")


def test_a_hidden_league_answers_the_organiser_endpoints_as_a_missing_one(private_world):
    world = private_world
    outsider = client_for(world.users["outsider"])
    hidden = outsider.get(url(world, "joining/"))
    missing = outsider.get("/api/leagues/no-such-league/joining/")
    assert hidden.status_code == missing.status_code == 404 and hidden.json() == missing.json()


def test_unknown_fields_are_refused_and_write_nothing(world):
    organiser = client_for(world.users["organiser"])
    before = AuditEntry.objects.count()
    response = organiser.patch(url(world, "joining/"), {"join_mode": "code", "join_code": "mine"}, format="json")
    assert response.status_code == 400 and "join_code" in response.content.decode()
    assert AuditEntry.objects.count() == before
    assert League.objects.get(pk=world.league.pk).join_code == ""


def test_join_by_code_rotate_and_revoke(world):
    organiser = client_for(world.users["organiser"])
    code = organiser.patch(url(world, "joining/"), {"join_mode": "code"}, format="json").json()["join_code"]
    newcomer = UserFactory()
    joined = client_for(newcomer).post("/api/join/", {"league": world.league.slug, "join_code": code}, format="json")
    assert joined.status_code == 200 and joined.json()["role"] == "player"
    again = client_for(newcomer).post("/api/join/", {"league": world.league.slug, "join_code": code}, format="json")
    assert again.status_code == 200 and again.json()["membership"] == joined.json()["membership"]
    new_code = organiser.post(url(world, "joining/code/"), {}, format="json").json()["join_code"]
    assert new_code != code
    late = client_for(UserFactory()).post("/api/join/", {"league": world.league.slug, "join_code": code}, format="json")
    missing = client_for(UserFactory()).post("/api/join/", {"league": "nope", "join_code": code}, format="json")
    assert late.status_code == missing.status_code == 404 and late.json() == missing.json()
    assert organiser.delete(url(world, "joining/code/")).json()["join_code"] == ""
    gone = client_for(UserFactory()).post(
        "/api/join/", {"league": world.league.slug, "join_code": new_code}, format="json"
    )
    assert gone.status_code == 404


def test_wrong_codes_are_rate_limited(world, monkeypatch):
    monkeypatch.setattr(joining, "GUESS_LIMIT", 3)
    league = joining.join_settings_update(actor=world.users["organiser"], league=world.league, join_mode="code")
    guesser = client_for(UserFactory())
    for _ in range(3):
        assert (
            guesser.post("/api/join/", {"league": league.slug, "join_code": "guess"}, format="json").status_code == 404
        )
    right = guesser.post("/api/join/", {"league": league.slug, "join_code": league.join_code}, format="json")
    assert right.status_code == 429
    assert (
        not Membership.objects.filter(league=league, player__user__isnull=False)
        .exclude(player__user__in=[world.users["organiser"], world.users["member"]])
        .exists()
    )


def test_ask_approve_and_decline(world):
    organiser = client_for(world.users["organiser"])
    asker = UserFactory()
    refused = client_for(asker).post(url(world, "ask/"), {}, format="json")
    assert refused.status_code == 400 and not JoinRequest.objects.exists()
    organiser.patch(url(world, "joining/"), {"join_mode": "request"}, format="json")
    assert client_for(asker).post(url(world, "ask/"), {}, format="json").status_code == 201
    assert client_for(asker).post(url(world, "ask/"), {}, format="json").status_code == 201
    assert JoinRequest.objects.count() == 1
    listed = organiser.get(url(world, "join-requests/")).json()
    assert [row["username"] for row in listed] == [asker.username]
    member = client_for(world.users["member"])
    pk = listed[0]["id"]
    assert member.post(url(world, f"join-requests/{pk}/approve/"), {}, format="json").status_code == 403
    bad = organiser.post(url(world, f"join-requests/{pk}/approve/"), {"role": "organiser"}, format="json")
    assert bad.status_code == 400
    approved = organiser.post(url(world, f"join-requests/{pk}/approve/"), {}, format="json")
    assert approved.status_code == 200
    assert Membership.objects.filter(league=world.league, player__user=asker, role="player").exists()
    decliner = UserFactory()
    client_for(decliner).post(url(world, "ask/"), {}, format="json")
    pk = JoinRequest.objects.get(user=decliner).pk
    assert organiser.post(url(world, f"join-requests/{pk}/decline/"), {}, format="json").status_code == 204
    assert not Membership.objects.filter(player__user=decliner).exists()


def test_email_invite_api(world, mailoutbox):
    organiser = client_for(world.users["organiser"])
    assert organiser.post(url(world, "invites/"), {"email": "nope"}, format="json").status_code == 400
    response = organiser.post(url(world, "invites/"), {"email": "friend@example.com"}, format="json")
    assert response.status_code == 201
    assert client_for(world.users["member"]).post(url(world, "invites/"), {"email": "x@example.com"}).status_code == 403


def test_members_only_league_cannot_be_asked_by_outsiders(private_world):
    world = private_world
    League.objects.filter(pk=world.league.pk).update(join_mode=JoinMode.REQUEST, visibility=Visibility.MEMBERS)
    hidden = client_for(world.users["outsider"]).post(url(world, "ask/"), {}, format="json")
    missing = client_for(world.users["outsider"]).post("/api/leagues/nope/ask/", {}, format="json")
    assert hidden.status_code == missing.status_code == 404 and hidden.json() == missing.json()
    assert not JoinRequest.objects.exists()


def test_a_wrong_code_gets_the_pages_words_and_code_is_taken_as_join_code(world):
    league = joining.join_settings_update(actor=world.users["organiser"], league=world.league, join_mode="code")
    newcomer = UserFactory()
    client = client_for(newcomer)
    wrong = client.post("/api/join/", {"join_code": "nothing-like-it"}, format="json")
    assert wrong.status_code == 404 and wrong.json()["detail"] == joining.WRONG_CODE
    assert "check it with the organiser" in wrong.json()["detail"]
    # The page's box says the same words (one source).
    page = Client()
    page.force_login(UserFactory())
    answer = page.post("/join/", {"code": "nothing-like-it"})
    assert joining.WRONG_CODE in answer.content.decode()
    # `code`, the page form's name, joins as `join_code` does; both at once is refused, nothing written.
    both = client.post("/api/join/", {"join_code": league.join_code, "code": league.join_code}, format="json")
    assert (
        both.status_code == 400
        and both.json()["extra"]["field"] == "join_code"
        and not Membership.objects.filter(league=league, player__user=newcomer).exists()
    )
    joined = client.post("/api/join/", {"code": league.join_code}, format="json")
    assert joined.status_code == 200 and joined.json()["league"] == league.slug
    assert Membership.objects.filter(league=league, player__user=newcomer).exists()
    # The whole link pasted works as on the page.
    other = client_for(UserFactory()).post(
        "/api/join/", {"code": f"http://testserver/join/{league.slug}/{league.join_code}/"}, format="json"
    )
    assert other.status_code == 200


def test_the_schema_shows_join_code_and_its_alias(world):
    schema = client_for(None).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    body = schema["paths"]["/api/join/"]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = schema["components"]["schemas"][body.rsplit("/", 1)[1]]["properties"]
    assert {"join_code", "code", "league"} <= set(fields)
    assert "404" in schema["paths"]["/api/join/"]["post"]["responses"]
