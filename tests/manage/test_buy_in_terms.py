"""A buy-in policy is shown by what it costs (buy-in, re-buys and their cap, add-on), not its name alone: on the
league page, the organiser's league page, the result form and the policy choices of the league, season and event
forms, so an organiser picks one knowing what it charges."""

import pytest
from django.test import Client
from django.urls import reverse

from league.models import BuyInPolicy

pytestmark = pytest.mark.django_db

TERMS = "350 credits, re-buys of 350 (at most 2), add-on of 200"


@pytest.fixture
def home_stake(world):
    policy = BuyInPolicy.objects.create(
        name="Home stake",
        buy_in=350,
        rebuys_allowed=True,
        max_rebuys=2,
        rebuy_amount=350,
        addon_allowed=True,
        addon_amount=200,
    )
    world.league.buy_in_policy = policy
    world.league.save(update_fields=["buy_in_policy"])
    return policy


def test_the_terms_in_words():
    assert BuyInPolicy(buy_in=1500).terms == "1,500 credits"
    assert BuyInPolicy(buy_in=450, rebuys_allowed=True, rebuy_amount=450).terms == "450 credits, re-buys of 450"


def test_the_pages_show_what_the_buy_in_costs(world, home_stake, organiser_client):
    league = Client().get(reverse("league-detail", args=[world.league.slug])).content.decode()
    assert f"<dt>Buy-in</dt><dd>{TERMS}</dd>" in league
    hub = organiser_client.get(reverse("manage-league", args=[world.league.slug])).content.decode()
    assert f"Home stake: {TERMS}" in hub
    entry = organiser_client.get(reverse("manage-result-entry", args=[world.event.pk])).content.decode()
    assert f"buy-in policy Home stake: {TERMS}." in entry


@pytest.mark.parametrize(
    "url",
    [
        lambda world: reverse("manage-league-edit", args=[world.league.slug]),
        lambda world: reverse("manage-seasons", args=[world.league.slug]),
        lambda world: reverse("manage-event-create", args=[world.league.slug]),
    ],
)
def test_the_forms_offer_each_policy_with_its_terms(world, home_stake, organiser_client, url):
    page = organiser_client.get(url(world)).content.decode()
    assert f">Home stake: {TERMS}</option>" in page


def test_the_chip_set_choices_show_their_chips_and_say_where_sets_come_from(world, organiser_client):
    from league.models import ChipSet

    chips = ChipSet.objects.create(name="Tens and thousands", slug="tens-thousands")
    chips.denominations.create(name="Blue", value=10)
    chips.denominations.create(name="Red", value=1000)
    league_form = organiser_client.get(reverse("manage-league-edit", args=[world.league.slug])).content.decode()
    assert ">Tens and thousands: chips of 1,000, 10</option>" in league_form
    assert "a site admin adds chip sets and their values in the admin" in league_form
    assert "a site admin adds buy-in policies in the admin" in league_form
    event_form = organiser_client.get(reverse("manage-event-create", args=[world.league.slug])).content.decode()
    assert ">Tens and thousands: chips of 1,000, 10</option>" in event_form
