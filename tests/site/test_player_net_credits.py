"""A player's net credits are one figure on their page and in the API: the ledger's, as the chart and the ledger
show them, with the part booked at events not finished yet (a running tournament's buy-in) said as such."""

import re

import pytest
from django.test import Client, TestCase
from django.utils import timezone

from league.models import EventKind, EventStatus, LedgerEntry, LedgerKind, Visibility
from tests.factories import EventFactory
from tests.league.conftest import build_world

pytestmark = pytest.mark.django_db


def test_a_buy_in_into_a_running_freezeout_shows_as_the_same_net_on_the_page_and_in_the_api(db):
    from tournaments import services as tournaments
    from tournaments.demo import demo_structure

    world = build_world(Visibility.PUBLIC)
    organiser, han = world.users["organiser"], world.players[0]
    event = EventFactory(
        season=world.season,
        name="Friday freezeout",
        kind=EventKind.TOURNAMENT,
        status=EventStatus.PLANNED,
        starts_at=timezone.now(),
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament = tournaments.tournament_create(
            actor=organiser, event=event, structure=demo_structure(), starting_stack=450
        )
        tournaments.tournament_register(actor=organiser, tournament=tournament, player=han)

    page = Client().get(f"/players/{han.pk}/").content.decode()
    api = Client().get(f"/api/players/{han.pk}/chip-history/", {"league": world.league.slug}).json()

    paid = LedgerEntry.objects.get(event=event, player=han, kind=LedgerKind.BUY_IN).amount
    net = re.search(r'id="figure-net">([^<]+)<', page).group(1)
    in_play = re.search(r'id="figure-in-play">([^<]+)<', page).group(1)
    assert paid > 0 and api["net_credits"] == api["in_play"] == -paid
    assert net == f"{api['net_credits']:,}"
    assert in_play == f"of which {api['in_play']:,} at events not finished"
