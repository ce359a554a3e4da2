"""A buy-in that sets the stake (a "Standard stake" policy of 450 over a preset of 100) is one number everywhere: the
table's options, the seats' stacks, the replay document, the game page's and the league page's rules lines."""

import pytest
from django.urls import reverse

from games.engine import Game
from games.engine.replay import play_replay, replay_game
from games.models import Game as LeagueGame
from tests.factories import BuyInPolicyFactory
from tests.online.test_credits_at_the_end import _play_to_the_end

pytestmark = pytest.mark.django_db


def test_a_spike_league_with_a_standard_stake_starts_everyone_at_450_everywhere(world, scheduled, client):
    policy = BuyInPolicyFactory(name="Stake of 450", buy_in=450)
    world.league.buy_in_policy = policy
    world.league.save()
    world.season.buy_in_policy = None
    world.season.save()
    people = [world.users["organiser"], world.users["member"]]
    table = _play_to_the_end(
        world, scheduled, "corellian_spike", "galaxy_series", seats=3, hands=2, kind="sensible", people=people
    )
    assert table.buy_in == 450 and table.options["starting_stack"] == 450
    assert Game.from_json(table.state).starting_stacks == [450, 450, 450]
    league_game = LeagueGame.objects.get(pk=table.game_id)
    document = league_game.replay_document
    assert document["options"]["starting_stack"] == 450
    assert all(seat.get("stack", 450) == 450 for seat in document["seats"])
    # The replay still loads and verifies, to the same final stacks.
    replayed = replay_game(document, verify=True)
    assert replayed.stacks == Game.from_json(table.state).stacks
    assert play_replay(document)
    page = client.get(reverse("game-detail", args=[league_game.pk])).content.decode()
    assert "450 credits each" in page and "100 credits each" not in page
    league_page = client.get(reverse("league-detail", args=[world.league.slug])).content.decode()
    assert "100 credits each (the buy-in sets the stake: 450 credits each at online tables)" in league_page


def test_a_stake_the_engine_refuses_is_a_clear_error_and_opens_nothing(world, open_table):
    from config.errors import ApplicationError
    from games.online.models import OnlineTable

    world.league.buy_in_policy = BuyInPolicyFactory(name="Huge", buy_in=10**9)
    world.league.save()
    with pytest.raises(ApplicationError) as refused:
        open_table(seats=3)
    assert "starting_stack" in str(refused.value) or "buy-in" in str(refused.value).lower()
    assert not OnlineTable.objects.exists()
