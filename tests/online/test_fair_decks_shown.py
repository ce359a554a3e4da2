"""Fair decks at the table (RULES 1.7): the table page shows the hand's commitment (public: a hash, never the
seed) and each player the entropy their own browser added, never anyone else's; the seeds page's by-hand recipe
is the variant's own (its deck size and canonical order, its dice, its new piles), taken from the engine."""

import random
import re

import pytest
from django.test import Client

from games.engine import Game
from games.engine.shuffle import deck_from_seed, server_seed
from games.engine.variant import get_variant
from games.online import services
from games.online.models import OnlineTable
from tests.league.conftest import league_plays

pytestmark = pytest.mark.django_db


def _page(user, table) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/tables/{table.pk}/").content.decode()


def _between_hands(table, scheduled) -> None:
    while "next_hand" not in scheduled.names():
        scheduled.run(scheduled.last("turn_timeout"))


def test_the_table_page_shows_the_commitment_and_only_my_own_entropy(world, humans, heads_up, scheduled):
    member, organiser = humans[0], world.users["organiser"]
    game = Game.from_json(heads_up.state)
    page = _page(member, heads_up)
    assert f"data-commitment>{game.hand.commitment}</code>" in page
    assert "data-own-entropy" not in page  # nobody added any to the first hand
    _between_hands(heads_up, scheduled)
    services.seat_entropy(actor=member, table=heads_up, value="mine-f00d")
    services.seat_entropy(actor=organiser, table=heads_up, value="theirs-beef")
    heads_up.refresh_from_db()
    between = _page(member, heads_up)
    upcoming = Game.from_json(heads_up.state).next_commitment()
    assert f"data-next-commitment>{upcoming}</code>" in between
    assert "data-own-next-entropy>mine-f00d</code>" in between and "theirs-beef" not in between
    assert scheduled.run(scheduled.last("next_hand")) is True
    heads_up.refresh_from_db()
    game = Game.from_json(heads_up.state)
    assert game.hand.commitment == upcoming
    for user, mine, theirs in ((member, "mine-f00d", "theirs-beef"), (organiser, "theirs-beef", "mine-f00d")):
        page = _page(user, heads_up)
        assert f"data-commitment>{upcoming}</code>" in page
        assert f"data-own-entropy>{mine}</code>" in page and theirs not in page
    watcher = _page(humans[1], heads_up)
    assert f"data-commitment>{upcoming}</code>" in watcher
    assert "mine-f00d" not in watcher and "theirs-beef" not in watcher
    for page in (watcher, _page(member, heads_up)):  # the hash is shown; the seed it hashes never is
        assert game._master not in page and server_seed(game._master, game.hand.number) not in page


@pytest.mark.parametrize("variant", ["coruscant_shift", "corellian_spike", "classic"])
def test_the_seeds_page_gives_each_variants_own_recipe(world, humans, open_table, variant):
    preset = {"coruscant_shift": "better", "corellian_spike": "galaxy_series", "classic": "classic"}[variant]
    league_plays(world, variant, preset)
    table = OnlineTable.objects.get(pk=open_table().pk)
    client = Client()
    client.force_login(humans[0])
    page = client.get(f"/tables/{table.pk}/seeds/").content.decode()
    deck = get_variant(variant).deck()
    assert f"<strong>{len(deck)} cards</strong>" in page
    order = re.search(r"data-canonical-order>([^<]*)</code>", page).group(1).split(" ")
    assert order == [card.code for card in deck]
    # Following the page by hand deals the engine's deck: the canonical order shuffled by random.Random(s).
    for seed in ("5f0c9a", "deadbeef"):
        by_hand = list(order)
        random.Random(seed).shuffle(by_hand)
        assert by_hand == [card.code for card in deck_from_seed(seed, get_variant(variant).deck())]
    assert {"classic": "1 + int(6 * rng.random())", "corellian_spike": "/spike-dice"}.get(
        variant, "rng.choice("
    ) in page
    assert "62 cards shuffled" not in page
