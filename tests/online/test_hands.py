"""A table's hand history while it runs and after: every finished hand opened and stepped through with
only what the table saw, downloads (public history any time, sabacc-replay/2 once the seeds are revealed)
and the seed page checking every hand against its commitment."""

import hashlib
import json

import pytest
from django.test import Client

from games.engine import Game
from games.engine.fairness import verify_game
from games.engine.replay import play_replay
from games.models import Game as LeagueGame
from games.online import services
from tests.league.conftest import client_for
from tests.online.conftest import to_next_hand_pause

pytestmark = pytest.mark.django_db
SECRET_KEYS = {"deck", "server_seed", "seed", "reshuffles", "state", "history"}


def keys_in(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


@pytest.fixture
def cash_heads_up(world, humans, open_table, scheduled):
    """A casino table of two players with two finished hands and the third being played."""
    org = world.users["organiser"]
    table = open_table(seats=2, preset="casino")
    for user in (org, humans[0]):
        services.seat_take(actor=user, table=table)
    services.table_start(actor=org, table=table)
    table.refresh_from_db()
    for _ in range(2):
        to_next_hand_pause(table, scheduled)
        for seat in table.seats.filter(away=True).select_related("player__user"):
            services.seat_return(actor=seat.player.user, table=table)  # so that the next hand waits for them
        assert scheduled.run(scheduled.last("next_hand")) is True
    table.refresh_from_db()
    return table


def test_finished_hands_are_stepped_through_while_the_table_runs_with_public_information_only(
    world, humans, cash_heads_up
):
    viewer = Client()
    viewer.force_login(humans[1])  # a spectator member
    game = Game.from_json(cash_heads_up.state)
    assert game.in_hand and game.hands_played == 2
    page = viewer.get(f"/tables/{cash_heads_up.pk}/hands/")
    html = page.content.decode()
    assert page.status_code == 200 and "Hand 1 of 2" in html  # the hand being played is not there
    step = viewer.get(f"/tables/{cash_heads_up.pk}/hands/?hand=2&step=3", HTTP_HX_REQUEST="true")
    assert step.status_code == 200 and "Hand 2 of 2" in step.content.decode() and "Step 3 of" in step.content.decode()
    assert "<html" not in step.content.decode()  # htmx gets the stepper alone
    history = viewer.get(f"/tables/{cash_heads_up.pk}/hands/history.json").json()
    assert [hand["number"] for hand in history["hands"]] == [1, 2]
    assert not keys_in(history) & SECRET_KEYS
    for hand in history["hands"]:
        result = hand["result"]
        assert not set(result["showdown"]) & set(result["folded"])  # folded hands are never shown
    one = viewer.get(f"/tables/{cash_heads_up.pk}/hands/history.json?hand=2").json()
    assert [hand["number"] for hand in one["hands"]] == [2]
    assert viewer.get(f"/tables/{cash_heads_up.pk}/hands/history.json?hand=9").status_code == 400
    # The replay holds the decks: not while the game runs (the page says why), page and API alike.
    for url in (f"/tables/{cash_heads_up.pk}/hands/replay.json", f"/tables/{cash_heads_up.pk}/hands/1/replay.json"):
        refused = viewer.get(url)
        assert refused.status_code == 409 and "folded" in refused.json()["detail"]
    assert "published when the game ends" in html and "replay.json" not in html
    api = client_for(humans[1])
    assert api.get(f"/api/tables/{cash_heads_up.pk}/replay/").status_code == 409
    assert api.get(f"/api/tables/{cash_heads_up.pk}/hands/").json()["hands"] == history["hands"]
    seeds = api.get(f"/api/tables/{cash_heads_up.pk}/seeds/").json()
    assert not seeds["over"] and [h["number"] for h in seeds["hands"]] == [1, 2]
    assert all(h["commitment"] and h["server_seed"] is None and h["seed"] is None for h in seeds["hands"])
    seeds_page = viewer.get(f"/tables/{cash_heads_up.pk}/seeds/").content.decode()
    assert "still running" in seeds_page and seeds["hands"][0]["commitment"] in seeds_page
    assert game._master not in seeds_page and game._master not in json.dumps(seeds)


def test_after_the_end_the_replay_downloads_and_every_hand_checks_against_its_commitment(
    world, humans, cash_heads_up, scheduled
):
    to_next_hand_pause(cash_heads_up, scheduled)
    services.table_close(actor=world.users["organiser"], table=cash_heads_up)
    cash_heads_up.refresh_from_db()
    anyone = Client()  # the league is public: anyone may check the decks
    response = anyone.get(f"/tables/{cash_heads_up.pk}/hands/replay.json")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    document = response.json()
    assert document["format"] == "sabacc-replay/2" and len(document["hands"]) == 3
    assert verify_game(document)
    league_game = LeagueGame.objects.get(pk=cash_heads_up.game_id)
    assert play_replay(document)["stacks"] == league_game.replay_result["stacks"]
    missing = anyone.get(f"/tables/{cash_heads_up.pk}/hands/9/replay.json")
    assert missing.status_code == 400 and "hands 1 to 3" in missing.json()["detail"]
    assert client_for(None).get(f"/api/tables/{cash_heads_up.pk}/replay/?hand=x").status_code == 400
    upto = anyone.get(f"/tables/{cash_heads_up.pk}/hands/1/replay.json").json()
    assert len(upto["hands"]) == 1
    assert play_replay(upto)["hands"][0] == play_replay(document)["hands"][0]
    seeds = client_for(None).get(f"/api/tables/{cash_heads_up.pk}/seeds/").json()
    assert seeds["over"] and seeds["verified"] and len(seeds["hands"]) == 3
    for hand in seeds["hands"]:
        assert hashlib.sha256(hand["server_seed"].encode()).hexdigest() == hand["commitment"] and hand["verified"]
    page = anyone.get(f"/tables/{cash_heads_up.pk}/seeds/").content.decode()
    assert "all 3 decks" in page and seeds["hands"][2]["server_seed"] in page
    hands_page = anyone.get(f"/tables/{cash_heads_up.pk}/hands/").content.decode()
    assert "Hand 1 of 3" in hands_page and f"/tables/{cash_heads_up.pk}/hands/replay.json" in hands_page


def test_a_tampered_replay_is_what_the_seed_check_catches(world, humans, cash_heads_up, scheduled):
    """The check is real: the same report on a document whose deck was changed finds the hand."""
    from games.engine.fairness import game_problems

    to_next_hand_pause(cash_heads_up, scheduled)
    services.table_close(actor=world.users["organiser"], table=cash_heads_up)
    document = Client().get(f"/tables/{cash_heads_up.pk}/hands/replay.json").json()
    deck = document["hands"][1]["deck"]
    other = next(i for i, code in enumerate(deck) if code != deck[0])
    deck[0], deck[other] = deck[other], deck[0]
    assert any(p.startswith("Hand 2:") for p in game_problems(document))


def test_the_history_of_a_members_only_league_is_not_shown_to_outsiders(world, cash_heads_up):
    world.league.visibility = "members"
    world.league.save()
    outsider = Client()
    outsider.force_login(world.users["outsider"])
    for url in ("hands/", "hands/history.json", "hands/replay.json", "seeds/"):
        assert outsider.get(f"/tables/{cash_heads_up.pk}/{url}").status_code == 404
