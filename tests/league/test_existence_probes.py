"""Item 5 of the hardening issue: a hidden (members-only) object and a missing one get exactly the same
answer, on every endpoint and every filter, so nobody can probe for what exists behind a members-only wall.

Each probe is sent twice, naming a hidden object and then a missing one; the answers must be equal once
the name itself is masked.
"""

import pytest
from django.utils import timezone

from games.services import result_record
from league.models import Player, Role, Visibility
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory
from tests.league.conftest import client_for

MISSING_ID = 987_654_321
MISSING_SLUG = "no-such-league-here"


@pytest.fixture
def hidden(db):
    """A members-only league with everything in it, and a prober who organises a public league of their own."""
    league = LeagueFactory(visibility=Visibility.MEMBERS)
    season = SeasonFactory(league=league)
    event = EventFactory(season=season)
    organiser = PlayerFactory(display_name="Secret organiser")
    MembershipFactory(league=league, player=organiser, role=Role.ORGANISER)
    players = [
        MembershipFactory(league=league, player=PlayerFactory(display_name=f"Secret {i}")).player for i in (1, 2)
    ]
    game = result_record(
        actor=None,
        event=event,
        seats=[{"player": players[0].pk, "final_credits": 900}, {"player": players[1].pk, "final_credits": 0}],
    )
    own_league = LeagueFactory()
    own_season = SeasonFactory(league=own_league)
    own_event = EventFactory(season=own_season)
    from tests.factories import UserFactory

    prober = UserFactory(username="prober")
    MembershipFactory(league=own_league, player=PlayerFactory(user=prober, display_name="Prober"), role=Role.ORGANISER)
    own_member = MembershipFactory(league=own_league, player=PlayerFactory(display_name="Own member")).player
    return {
        "league": league.slug,
        "season": season.pk,
        "event": event.pk,
        "game": game.pk,
        "player": players[0].pk,
        "membership": league.memberships.get(player=players[0]).pk,
        "table": event.tables.create(name="Secret table", number=1).pk,
        "own_league": own_league.slug,
        "own_event": own_event.pk,
        "own_member": own_member.pk,
        "prober": prober,
    }


def probes(h):
    """(name, method, url template, body template, kind): `{x}` is filled with the hidden or the missing value."""
    now = timezone.now().isoformat()
    own = h["own_league"]
    ome = h["own_member"]
    return [
        # Addresses
        ("league", "get", "/api/leagues/{x}/", None, "slug"),
        ("league standings", "get", "/api/leagues/{x}/standings/", None, "slug"),
        ("league standings csv", "get", "/api/leagues/{x}/standings/csv/", None, "slug"),
        ("league chip history", "get", "/api/leagues/{x}/chip-history/", None, "slug"),
        ("league update", "patch", "/api/leagues/{x}/", {"description": "x"}, "slug"),
        ("season", "get", "/api/seasons/{x}/", None, "season"),
        ("season update", "patch", "/api/seasons/{x}/", {"name": "x"}, "season"),
        ("event", "get", "/api/events/{x}/", None, "event"),
        ("event update", "patch", "/api/events/{x}/", {"name": "x"}, "event"),
        ("adjustment", "post", "/api/events/{x}/adjustments/", {"player": ome, "amount": 5, "reason": "r"}, "event"),
        ("table", "post", "/api/events/{x}/tables/", {"name": "T", "number": 2}, "event"),
        ("game", "get", "/api/games/{x}/", None, "game"),
        ("game chip history", "get", "/api/games/{x}/chip-history/", None, "game"),
        ("corrections", "get", "/api/games/{x}/corrections/", None, "game"),
        ("correction", "post", "/api/games/{x}/corrections/", {"reason": "r", "seats": []}, "game"),
        ("membership", "get", "/api/memberships/{x}/", None, "membership"),
        ("membership update", "patch", "/api/memberships/{x}/", {"role": "player"}, "membership"),
        ("membership remove", "delete", "/api/memberships/{x}/", None, "membership"),
        ("player", "get", "/api/players/{x}/", None, "player"),
        ("player rename", "patch", "/api/players/{x}/", {"display_name": "x"}, "player"),
        ("player claim", "post", "/api/players/{x}/claim/", {"claim_code": "wrong"}, "player"),
        ("player chip history", "get", "/api/players/{x}/chip-history/?league=" + own, None, "player"),
        ("player ledger csv", "get", "/api/players/{x}/ledger/csv/?league=" + own, None, "player"),
        # Query parameters
        ("own player in league", "get", f"/api/players/{ome}/chip-history/?league={{x}}", None, "slug"),
        ("own player ledger in league", "get", f"/api/players/{ome}/ledger/csv/?league={{x}}", None, "slug"),
        ("seasons of league", "get", "/api/seasons/?league__slug={x}", None, "slug"),
        ("events of season", "get", "/api/events/?season={x}", None, "season"),
        ("events of league", "get", "/api/events/?season__league__slug={x}", None, "slug"),
        ("games of event", "get", "/api/games/?event={x}", None, "event"),
        ("games of season", "get", "/api/games/?event__season={x}", None, "season"),
        ("games of league", "get", "/api/games/?event__season__league__slug={x}", None, "slug"),
        ("games of player", "get", "/api/games/?seats__player={x}", None, "player"),
        ("ledger of event", "get", "/api/ledger/?event={x}", None, "event"),
        ("ledger of game", "get", "/api/ledger/?game={x}", None, "game"),
        ("ledger of player", "get", "/api/ledger/?player={x}", None, "player"),
        ("ledger of season", "get", "/api/ledger/?event__season={x}", None, "season"),
        ("ledger of league", "get", "/api/ledger/?event__season__league__slug={x}", None, "slug"),
        ("memberships of player", "get", "/api/memberships/?player={x}", None, "player"),
        ("memberships of league", "get", "/api/memberships/?league__slug={x}", None, "slug"),
        ("players of league", "get", "/api/players/?memberships__league__slug={x}", None, "slug"),
        # Bodies
        (
            "season in league",
            "post",
            "/api/seasons/",
            {"league": "{x}", "name": "S", "starts_on": "2026-01-01"},
            "slug",
        ),
        ("event in season", "post", "/api/events/", {"season": "{x}", "name": "E", "starts_at": now}, "season"),
        ("result of event", "post", "/api/games/", {"event": "{x}", "seats": [{"player": ome}]}, "event"),
        (
            "result seating player",
            "post",
            "/api/games/",
            {"event": h["own_event"], "seats": [{"player": "{x}", "final_credits": 0}, {"player": ome}]},
            "player",
        ),
        (
            "result at table",
            "post",
            "/api/games/",
            {"event": h["own_event"], "table": "{x}", "seats": [{"player": ome}]},
            "table",
        ),
        ("membership in league", "post", "/api/memberships/", {"league": "{x}", "player": ome}, "slug"),
        ("membership of player", "post", "/api/memberships/", {"league": own, "player": "{x}"}, "player"),
        (
            "adjustment of player",
            "post",
            f"/api/events/{h['own_event']}/adjustments/",
            {"player": "{x}", "amount": 5, "reason": "r"},
            "player",
        ),
    ]


def fill(template, value):
    if isinstance(template, str):
        if template == "{x}":
            return value
        return template.replace("{x}", str(value))
    if isinstance(template, dict):
        return {k: fill(v, value) for k, v in template.items()}
    if isinstance(template, list):
        return [fill(v, value) for v in template]
    return template


def answer(client, method, url, body, value):
    response = getattr(client, method)(url, body, format="json") if body is not None else getattr(client, method)(url)
    text = response.content.decode().replace(str(value), "<name>")
    return response.status_code, text


# Anonymous users probe with reads only: their writes are refused with 401 before anything is looked up.
CASES = [
    (name, who)
    for name, method, *_ in probes({"own_league": "", "own_member": 0, "own_event": 0})
    for who in ("prober", "anonymous")
    if who == "prober" or method == "get"
]


@pytest.mark.parametrize(("probe", "who"), CASES)
def test_5_a_hidden_object_and_a_missing_one_get_the_same_answer(hidden, who, probe):
    name, method, url, body, kind = next(p for p in probes(hidden) if p[0] == probe)
    client = client_for(hidden["prober"] if who == "prober" else None)
    hidden_value = hidden["league"] if kind == "slug" else hidden[kind]
    missing_value = MISSING_SLUG if kind == "slug" else MISSING_ID
    seen_hidden = answer(client, method, fill(url, hidden_value), fill(body, hidden_value), hidden_value)
    seen_missing = answer(client, method, fill(url, missing_value), fill(body, missing_value), missing_value)
    assert seen_hidden == seen_missing, name
    assert seen_hidden[0] < 500
    assert "Secret" not in seen_hidden[1]
    assert Player.objects.filter(display_name="x").count() == 0
