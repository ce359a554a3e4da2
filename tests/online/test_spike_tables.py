"""Online tables of Corellian Spike: opened with the league's variant, played through `table_act` with the
card verbs, the table page drawing the market and the Sabacc pot, the finished game landing in the league."""

import pytest
from django.test import Client

from config.errors import ApplicationError
from games.online import services
from games.online.selectors import table_state
from tests.league.conftest import league_plays
from tests.online.conftest import start_heads_up
from tests.online.helpers import assert_the_game_landed_in_the_league, bots_play_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def spike_league(world):
    return league_plays(world, "corellian_spike", "galaxy_series")


def test_a_table_opens_with_the_leagues_variant_and_a_preset_of_it(spike_league, humans, open_table, scheduled):
    table = open_table(seats=3, preset="cantina_spike")
    assert table.variant == "corellian_spike" and table.preset == "cantina_spike"
    assert table.options["market"] == "discard_pile"
    with pytest.raises(ApplicationError, match="not allowed"):
        open_table(preset="cantina")


def test_a_corellian_spike_game_is_played_online_and_lands_in_the_league(
    spike_league, humans, open_table, scheduled, django_capture_on_commit_callbacks
):
    world = spike_league
    # Three hands keep the test short; the game then ends by the hands limit.
    world.league.option_overrides = {"hands": 3}
    world.league.save()
    table = start_heads_up(world, humans, open_table)
    users = [world.users["organiser"], humans[0]]
    with django_capture_on_commit_callbacks(execute=True):
        seen = bots_play_to_the_end(table, users, scheduled)
    # Both kinds of turn were played online (which verbs, in three hands, depends on the game's random seed).
    assert seen & {"stand", "draw", "trade", "buy", "spike"}
    assert seen & {"check", "call", "bet", "raise", "fold", "allin"}
    assert_the_game_landed_in_the_league(table, "corellian_spike")


def test_card_verbs_need_their_fields_and_wrong_ones_change_nothing(spike_league, humans, open_table, scheduled):
    world = spike_league
    table = start_heads_up(world, humans, open_table)
    state = table_state(table, user=world.users["organiser"])
    actor = world.users["organiser"] if state["view"]["legal"]["verbs"] else humans[0]
    with pytest.raises(ApplicationError, match="Trade needs `card`"):
        services.table_act(actor=actor, table=table, verb="trade", source="deck", version=table.version, key="a")
    with pytest.raises(ApplicationError, match="there is no Gunner in round 1"):
        services.table_act(actor=actor, table=table, verb="buy", source="gunner", version=table.version, key="b")
    version = table.version
    services.table_act(actor=actor, table=table, verb="buy", source="pilot", version=version, key="c")
    table.refresh_from_db()
    assert table.version > version


def test_the_table_page_draws_the_market_and_the_sabacc_pot(spike_league, humans, open_table, scheduled):
    world = spike_league
    table = start_heads_up(world, humans, open_table)
    client = Client()
    client.force_login(world.users["organiser"])
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'class="spike-market"' in page and "Sabacc pot" in page and "Pilot" in page


def test_the_api_takes_the_card_verbs(spike_league, humans, open_table, scheduled):
    from tests.league.conftest import client_for

    world = spike_league
    table = start_heads_up(world, humans, open_table)
    for user in (world.users["organiser"], humans[0]):
        client = client_for(user)
        legal = client.get(f"/api/tables/{table.pk}/legal/").json()
        if legal["legal"]["verbs"]:
            break
    assert legal["legal"]["verbs"][:2] == ["stand", "draw"] and legal["legal"]["buy_from"] == {"pilot": 1}
    url = f"/api/tables/{table.pk}/act/"
    bad = client.post(url, {"verb": "buy", "source": "moon", "version": legal["version"], "key": "x"}, format="json")
    assert bad.status_code == 400
    card = legal["legal"]["cards"][0]
    body = {"verb": "trade", "card": card, "source": "pilot", "version": legal["version"], "key": "t1"}
    answer = client.post(url, body, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["applied"] and card not in answer.json()["state"]["view"]["cards"]


def test_the_draw_button_says_its_price_in_credits_as_the_from_list_does(spike_league, humans, open_table, scheduled):
    """ "Draw (2)" read as two cards: a paid blind draw says "Draw (costs 2 credits)", as "From" says a price."""
    world = spike_league
    world.league.option_overrides = {"gain_cost": 2}
    world.league.save()
    table = start_heads_up(world, humans, open_table)
    for user in (world.users["organiser"], humans[0]):
        legal = table_state(table, user=user)["view"]["legal"]
        if "draw" in legal["verbs"]:
            break
    assert legal["draw_cost"] == 2 and legal["trade_from"]["deck"] == 0, legal
    client = Client()
    client.force_login(user)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'value="draw" data-key="d">Draw (costs 2 credits)</button>' in page, page
    assert "Draw (2)" not in page
    assert '<option value="deck">Draw pile, unseen: free</option>' in page


def test_the_clock_stands_spikes_the_first_card_and_checks_or_folds():
    from games.engine.bots import apply_decision
    from tests.engine.spike.helpers import new_game, start

    game = new_game()
    start(game, ["+1c", "+2c"], ["+3c", "+4c"], then=["+5c", "+6c", "+7c", "+8c", "+9c"], dice=(6, 6))
    verbs = []
    while game.in_hand:
        seat = game.waiting_for()[0]
        decision = services.default_decision(game, seat)
        verbs.append(decision.verb)
        apply_decision(game, seat, decision)
    rounds_1_and_2 = ["stand", "stand", "check", "check"] * 2
    assert verbs == [*rounds_1_and_2, "spike", "spike", "stand", "stand", "check", "check"]


def test_the_trade_forms_from_list_says_each_source_costs_credits_not_a_count(
    spike_league, humans, open_table, scheduled
):
    """ "From: Pilot (1)" read as one card there: each source says its price in credits ("free" at 0)."""
    world = spike_league
    table = start_heads_up(world, humans, open_table)
    for user in (world.users["organiser"], humans[0]):
        legal = table_state(table, user=user)["view"]["legal"]
        if "trade" in legal["verbs"]:
            break
    client = Client()
    client.force_login(user)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    prices = legal["trade_from"]
    assert prices, legal
    for source, price in prices.items():
        name = "Draw pile, unseen" if source == "deck" else source.capitalize()
        worded = "free" if price == 0 else f"costs {price} credit{'' if price == 1 else 's'}"
        assert f'<option value="{source}">{name}: {worded}</option>' in page, page
        assert f"{name} ({price})" not in page
