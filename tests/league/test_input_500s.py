"""Item 3 of the hardening issue: input that used to be a 500 is a 400 (or a 404 in the address) that says
what is wrong, and writes nothing: NUL characters, deeply nested JSON, ids that are not numbers, and credit
sums past 32 bits."""

import pytest
from django.test import Client

from games.models import Game
from games.services import result_record
from league.models import AuditEntry, EventResult, LedgerEntry, Season, Standing
from league.services import events as event_services
from league.services import standings_recompute
from tests.league.conftest import client_for


@pytest.mark.parametrize(
    "url",
    [
        "/api/leagues/a%00b/",
        "/api/leagues/a%00b/standings/",
        "/api/chip-sets/standard%00/stack/?credits=5",
        "/api/players/1%00/",
        "/leagues/a%00b/",
    ],
)
def test_3_a_nul_character_in_the_address_is_a_404(world, url):
    response = client_for(world.users["organiser"]).get(url)
    assert response.status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/api/events/?season=%00",
        "/api/leagues/{slug}/standings/?season=%00",
        "/api/leagues/{slug}/standings/csv/?season=1%00",
        "/api/players/?memberships__league__slug=a%00",
        "/api/ledger/?event__season__league__slug=%00",
        "/api/leagues/?search=%00",
        "/api/games/?ordering=%00",
    ],
)
def test_3_a_nul_character_in_a_query_parameter_is_a_400(world, url):
    response = client_for(world.users["organiser"]).get(url.format(slug=world.league.slug))
    assert response.status_code == 400
    assert "NUL" in response.json()["detail"]


def test_3_a_nul_character_in_a_page_form_or_query_is_a_400_page(world):
    client = Client()
    client.force_login(world.users["organiser"])
    assert client.get("/leagues/?q=%00").status_code == 400
    response = client.post("/manage/leagues/new/", {"name": "Nul\x00league"})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    assert "NUL character" in response.content.decode()


def test_3_a_nul_character_in_a_body_string_is_a_400_and_writes_nothing(world):
    client = client_for(world.users["organiser"])
    before = AuditEntry.objects.count()
    bodies = [
        ("post", "/api/seasons/", {"league": "a\u0000", "name": "S", "starts_on": "2026-01-01"}),
        ("post", "/api/seasons/", {"league": world.league.slug, "name": "S\u0000", "starts_on": "2026-01-01"}),
        ("patch", f"/api/leagues/{world.league.slug}/", {"description": "x\u0000y"}),
        ("patch", f"/api/leagues/{world.league.slug}/", {"option_overrides": {"\u0000": 1}}),
        ("post", "/api/players/", {"display_name": "Han\u0000"}),
        (
            "post",
            "/api/games/",
            {
                "event": world.event.pk,
                "seats": [{"player": p.pk} for p in world.players[:2]],
                "replay": {"format": "sabacc-replay/1", "seats": [{"player": "\u0000"}]},
            },
        ),
    ]
    for method, url, body in bodies:
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code == 400, (url, body, response.content[:300])
        assert "NUL" in response.content.decode(), url
    response = Client().post("/api/auth/token/", {"username": "a\x00", "password": "x"})
    assert response.status_code == 400
    assert AuditEntry.objects.count() == before
    assert not Game.objects.exists() and not Season.objects.exclude(pk=world.season.pk).exists()


def test_3_deeply_nested_json_is_a_400(world):
    client = client_for(world.users["organiser"])
    for body in ("[" * 100_000, "[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000):
        response = client.post("/api/games/", body, content_type="application/json")
        assert response.status_code == 400
        assert "nested deeper" in response.json()["detail"]
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("post", "/api/players/abc/claim/"),
        ("get", "/api/players/abc/"),
        ("get", "/api/players/99999999999999999999/"),
        ("get", "/api/games/1.5/"),
        ("post", "/api/games/abc/corrections/"),
        ("get", "/api/seasons/-1/"),
        ("post", "/api/events/abc/tables/"),
        ("post", "/api/events/abc/adjustments/"),
        ("get", "/api/memberships/abc/"),
        ("get", "/api/buy-in-policies/x/"),
        ("get", "/api/leagues/a.b/"),
    ],
)
def test_3_an_id_that_is_not_a_whole_number_is_a_404(world, method, url):
    response = getattr(client_for(world.users["organiser"]), method)(url, {}, format="json")
    assert response.status_code == 404


def big_game(world, players, credits=1_000_000_000):
    return result_record(
        actor=world.users["organiser"],
        event=world.event,
        seats=[
            {"player": players[0].pk, "buy_in": credits // 2, "final_credits": credits},
            {"player": players[1].pk, "buy_in": credits // 2, "final_credits": 0},
        ],
    )


def test_3_credits_summed_per_event_past_32_bits_are_stored(world):
    winner = world.players[0]
    for index in range(1, 6):
        big_game(world, [winner, world.players[index]])
    results = {r.player_id: r for r in EventResult.objects.filter(event=world.event)}
    assert results[winner.pk].prize_pool == 5_000_000_000
    assert results[winner.pk].credits_out == 5_000_000_000
    standings_recompute(league_id=world.league.pk)
    assert Standing.objects.get(league=world.league, scope="all", player=winner).net_credits == 2_500_000_000


@pytest.mark.parametrize("scope", ["event", "season"])
def test_3_credit_limits_are_checked_per_event_and_per_season(world, monkeypatch, scope):
    monkeypatch.setattr(event_services, f"MAX_{scope.upper()}_CREDITS", 2_500_000_000)
    big_game(world, world.players[:2])
    big_game(world, world.players[2:4])
    ledger = LedgerEntry.objects.count()
    response = client_for(world.users["organiser"]).post(
        "/api/games/",
        {
            "event": world.event.pk,
            "seats": [
                {"player": world.players[4].pk, "buy_in": 500_000_000, "final_credits": 1_000_000_000},
                {"player": world.players[5].pk, "buy_in": 500_000_000, "final_credits": 0},
            ],
        },
        format="json",
    )
    assert response.status_code == 400
    assert "at most 2,500,000,000 credits" in response.json()["detail"] and scope in response.json()["detail"]
    assert LedgerEntry.objects.count() == ledger and Game.objects.count() == 2
    response = client_for(world.users["organiser"]).post(
        f"/api/events/{world.event.pk}/adjustments/",
        {"player": world.players[0].pk, "amount": 600_000_000, "reason": "a big recount"},
        format="json",
    )
    assert response.status_code == 400 and LedgerEntry.objects.count() == ledger
