"""Beside tests/league/test_existence_probes.py (the API's addresses, filters and bodies): every address of the
site and the API that names an event, game, season, membership, player, online table, tournament or league by its
id or slug, walked from the URLconf, so a page, htmx fragment, live stream or API route added later is probed too.
Each is asked (GET, POST and an htmx GET; signed out and by an organiser of another league) with a members-only
league's object and with a missing one: the answers must be the same, and never name the hidden league's things.
"""

import re

import pytest
from django.db import connection
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from games.models import Game
from games.online import services as online
from games.online.models import OnlineTable
from games.services import result_record
from league.models import Event, EventKind, EventStatus, Membership, Player, Role, Season, Visibility
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory, UserFactory
from tournaments import services as tournament_services
from tournaments.models import Tournament

MISSING_ID = 987_654_321
MISSING_SLUG = "no-such-league-here"
# The path segment before an id or slug says what it names (the first such segment in the route).
KINDS = {
    "tournaments/": "tournament",
    "events/": "event",
    "event/": "event",
    "games/": "game",
    "seasons/": "season",
    "members/": "membership",
    "memberships/": "membership",
    "players/": "player",
    "tables/": "table",
    "leagues/": "slug",
}
PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def routes(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


def kind_of(route: str) -> str | None:
    for segment, kind in KINDS.items():
        at = route.find(segment)
        if at >= 0 and PARAMETER.match(route, at + len(segment)):
            return kind
    return None


def address(route: str, value) -> str:
    def fill(match):
        name = match.group(1) or match.group(2)
        return "" if name == "format" else str(value) if name in ("pk", "slug") else "x"

    return "/" + PARAMETER.sub(fill, route).replace("^", "").replace("$", "").replace("\\.", ".").replace("//", "/")


def hidden_world():
    """A members-only league with a season, an event with a game, an online table and a tournament; ids far from
    any count the page prints (so masking an id masks nothing else)."""
    with connection.cursor() as cursor:
        for model in (Event, Game, Season, Membership, Player, OnlineTable, Tournament):
            table = model._meta.db_table
            if connection.vendor == "postgresql":
                cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), 700000)", [table])
            else:  # SQLite, the embedded default: its AUTOINCREMENT counters
                cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
                cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, 700000)", [table])
    league = LeagueFactory(visibility=Visibility.MEMBERS, name="Hushed league")
    season = SeasonFactory(league=league, name="Hushed season")
    event = EventFactory(season=season, name="Hushed night")
    organiser = UserFactory(username="hushed-organiser")
    MembershipFactory(league=league, player=PlayerFactory(user=organiser, display_name="Hushed O"), role=Role.ORGANISER)
    players = [
        MembershipFactory(league=league, player=PlayerFactory(display_name=f"Hushed {i}")).player for i in (1, 2)
    ]
    game = result_record(
        actor=None,
        event=event,
        seats=[{"player": players[0].pk, "final_credits": 900}, {"player": players[1].pk, "final_credits": 0}],
    )
    planned = EventFactory(season=season, name="Hushed online night", status=EventStatus.PLANNED)
    table = online.table_open(actor=organiser, event=planned, name="Hushed table")
    cup = EventFactory(season=season, name="Hushed cup", kind=EventKind.TOURNAMENT)
    tournament = tournament_services.tournament_create(
        actor=organiser, event=cup, structure=[{"big_blind": 10, "small_blind": 5, "length": 10}]
    )
    hidden = {
        "event": event.pk,
        "game": game.pk,
        "season": season.pk,
        "membership": league.memberships.get(player=players[0]).pk,
        "player": players[0].pk,
        "table": table.pk,
        "tournament": tournament.pk,
        "slug": league.slug,
    }
    return hidden, organiser


def seen(client, method: str, url: str, value) -> tuple[int, str]:
    if method == "htmx":
        response = client.get(url, HTTP_HX_REQUEST="true")
    else:
        response = getattr(client, method)(url, {}, format="json")
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = body.decode(errors="replace").replace(url, "<url>")
    text = re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]*"', "", text)
    return response.status_code, text.replace(str(value), "<value>")


@pytest.mark.django_db
def test_every_address_answers_a_hidden_object_as_a_missing_one():
    hidden, organiser = hidden_world()
    prober = UserFactory(username="prober")
    MembershipFactory(league=LeagueFactory(), player=PlayerFactory(user=prober), role=Role.ORGANISER)
    probed = sorted({(route, kind) for route in routes(get_resolver().url_patterns) if (kind := kind_of(route))})
    assert len({kind for _, kind in probed}) == len(set(KINDS.values()))  # every kind has an address here
    assert len(probed) > 80, len(probed)  # the walk found the site's and the API's addresses
    differ = []
    for user in (prober, None):
        client = APIClient()
        if user is not None:
            client.force_login(user)
        for route, kind in probed:
            missing = MISSING_SLUG if kind == "slug" else MISSING_ID
            for method in ("get", "post", "htmx", *(("put", "patch", "delete") if route.startswith("api/") else ())):
                answer = seen(client, method, address(route, hidden[kind]), hidden[kind])
                if answer != seen(client, method, address(route, missing), missing) or "Hushed" in answer[1]:
                    differ.append((user and user.username, method, route, answer[0]))
    assert differ == []
    # The right people still get through: the league's organiser reads what the others may not know exists.
    client = APIClient()
    client.force_login(organiser)
    for url in (f"/events/{hidden['event']}/", f"/leagues/{hidden['slug']}/", f"/tournaments/{hidden['tournament']}/"):
        response = client.get(url)
        assert response.status_code == 200 and "Hushed" in response.content.decode(), url
