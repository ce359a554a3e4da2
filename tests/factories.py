"""factory_boy factories for users, players, leagues, seasons, events and memberships; a test client signed in."""

import datetime

import factory
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from league.models import BuyInPolicy, ChipSet, Event, EventStatus, League, Membership, Player, Role, Season


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    display_name = factory.Sequence(lambda n: f"Player {n}")


class BuyInPolicyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = BuyInPolicy

    name = factory.Sequence(lambda n: f"Policy {n}")
    buy_in = 450


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")
    variant = "coruscant_shift"
    preset = "better"
    points_formula = "linear"
    min_players = 2
    chip_set = factory.LazyFunction(lambda: ChipSet.objects.filter(slug="standard").first())
    buy_in_policy = factory.SubFactory(BuyInPolicyFactory)


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    starts_on = datetime.date(2026, 1, 1)


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"Event {n}")
    status = EventStatus.FINISHED
    starts_at = factory.LazyFunction(timezone.now)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    league = factory.SubFactory(LeagueFactory)
    player = factory.SubFactory(PlayerFactory)
    role = Role.PLAYER


def client_as(user=None) -> Client:
    """A test client signed in as `user` (None: anonymous)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client
