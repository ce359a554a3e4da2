"""The organiser's list pages read a fixed number of queries however many leagues, members, events and
games there are (no N+1)."""

import pytest
from django.conf import settings

from games.services import result_record, table_create
from league.models import EventStatus, Role
from league.services import event_create
from tests.factories import EventFactory, LeagueFactory, MembershipFactory, PlayerFactory, SeasonFactory
from tests.manage.conftest import page_client, real_table_row

pytestmark = pytest.mark.django_db


def grow(world, times: int, start: int = 0) -> None:
    """More of everything the list pages show: leagues organised, seasons, events, members, games, tables."""
    organiser = world.users["organiser"]
    for n in range(start, start + times):
        league = LeagueFactory()
        MembershipFactory(league=league, player=organiser.player, role=Role.ORGANISER)
        EventFactory(season=SeasonFactory(league=league))
        season = SeasonFactory(league=world.league)
        event_create(actor=organiser, season=season, name=f"Extra {n}", starts_at=world.event.starts_at)
        MembershipFactory(league=world.league, player=PlayerFactory(display_name=f"Guest {n}"))
        MembershipFactory(league=world.league, player=PlayerFactory(user=None), role=Role.ORGANISER)
        table_create(actor=organiser, event=world.event, name=f"Table {n}", number=n + 1)
        real_table_row(host=organiser, event=world.event, code=f"RQC{n:03d}")  # listed on the event's page
        a, b = world.players[n % 4], world.players[4 + n % 4]
        result_record(
            actor=organiser,
            event=world.event,
            seats=[{"player": a.pk, "final_credits": 900}, {"player": b.pk, "final_credits": 0}],
        )


# Counted with the session read from the database; with Redis (`cached_db`, config.sessions) it comes from the
# cache, one query fewer.
PAGES = {
    "dashboard": (lambda w: "/manage/", 6),
    "league": (lambda w: f"/manage/leagues/{w.league.slug}/", 8),
    "seasons": (lambda w: f"/manage/leagues/{w.league.slug}/seasons/", 6),
    "members": (lambda w: f"/manage/leagues/{w.league.slug}/members/", 5),
    # 16: its list of every table is the public page's (games.pages.event_tables: the games with their seats, the
    # results tables, the online and the real-cards tables, one query each), and the online and real-cards tables
    # still in play (the event runs: its open real-cards tables keep it running when a result is entered by hand)
    "event": (lambda w: f"/manage/events/{w.event.pk}/", 16),
}


@pytest.mark.parametrize("page", list(PAGES))
def test_list_pages_read_a_pinned_number_of_queries(world, page, django_assert_num_queries):
    url, expected = PAGES[page]
    expected -= 0 if settings.SESSION_ENGINE.endswith(".db") else 1
    world.event.status = EventStatus.RUNNING
    world.event.save()
    grow(world, 1)
    client = page_client(world.users["organiser"])
    with django_assert_num_queries(expected):
        assert client.get(url(world)).status_code == 200
    grow(world, 3, start=1)
    with django_assert_num_queries(expected):
        assert client.get(url(world)).status_code == 200
