"""List endpoints read a page in a fixed number of queries however many rows it holds (no N+1)."""

import datetime

import pytest
from django.utils import timezone

from games.models import Table
from games.services import result_record
from league.services import ledger_adjust
from tests.factories import EventFactory, MembershipFactory, SeasonFactory
from tests.league.conftest import client_for, forget_viewer


def fill(world, rows: int) -> None:
    """More seasons, events with tables, games and ledger lines: several rows in every list."""
    organiser = world.users["organiser"]
    for index in range(rows):
        season = SeasonFactory(league=world.league, starts_on=datetime.date(2025, 1, 1 + index))
        event = EventFactory(season=season, starts_at=timezone.now())
        Table.objects.create(event=event, name=f"Table {index}", number=1)
        Table.objects.create(event=event, name=f"Table {index}b", number=2)
        han, lando = world.players[index % 4], world.players[4 + index % 4]
        result_record(
            actor=organiser,
            event=event,
            seats=[{"player": han.pk, "final_credits": 900}, {"player": lando.pk, "final_credits": 0}],
        )
        ledger_adjust(actor=organiser, event=event, player=han, amount=5, reason="recount")
        MembershipFactory(league=world.league)


@pytest.mark.parametrize("user", ["member", "anonymous", "admin"])
@pytest.mark.parametrize(
    ("url", "queries"),
    [
        ("/api/seasons/", 2),  # count, page with league and buy-in policy joined
        ("/api/events/", 5),  # count, page, tables of the page's events, their online and real-cards tables
        ("/api/memberships/", 2),  # count, page with players and leagues joined
        ("/api/ledger/", 2),  # count, page with players, authors and events joined
        ("/api/games/", 3),  # count, page, seats with their players
        ("/api/players/", 2),  # count, page
    ],
)
def test_list_query_counts_do_not_grow_with_rows(world, django_assert_num_queries, url, queries, user):
    client = client_for(world.users[user])
    if url == "/api/players/" and user == "member":
        queries += 1  # their league roles, once: whether they answer for a guest, so see its claim code
    fill(world, 2)
    forget_viewer(world.users[user])
    with django_assert_num_queries(queries):
        few = client.get(url).json()["count"]
    fill(world, 4)
    forget_viewer(world.users[user])
    with django_assert_num_queries(queries):
        many = client.get(url).json()["count"]
    assert many > few
