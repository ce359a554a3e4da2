"""A player's net credits are one figure on their page and in the API: the ledger's, as the chart and the ledger
show them, with the part booked at events not finished yet (a running tournament's buy-in) said as such."""

import re

import pytest
from django.test import Client, TestCase

from league.models import LedgerEntry, LedgerKind

pytestmark = pytest.mark.django_db


def test_a_buy_in_into_a_running_freezeout_shows_as_the_same_net_on_the_page_and_in_the_api(world, friday_freezeout):
    from tournaments import services as tournaments

    organiser, han = world.users["organiser"], world.players[0]  # a public league's world
    tournament, event = friday_freezeout, friday_freezeout.event
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournaments.tournament_register(actor=organiser, tournament=tournament, player=han)

    page = Client().get(f"/players/{han.pk}/").content.decode()
    api = Client().get(f"/api/players/{han.pk}/chip-history/", {"league": world.league.slug}).json()

    paid = LedgerEntry.objects.get(event=event, player=han, kind=LedgerKind.BUY_IN).amount
    net = re.search(r'id="figure-net">([^<]+)<', page).group(1)
    in_play = re.search(r'id="figure-in-play">([^<]+)<', page).group(1)
    assert paid > 0 and api["net_credits"] == api["in_play"] == -paid
    assert net == f"{api['net_credits']:,}"
    assert in_play == f"of which {api['in_play']:,} at events not finished"
