"""The table page once a game is over, and its words: the pot said as paid out, no empty "Your hand" above the reveal,
no stale market, the reveal's description in one piece, a replay link in the game-over box where the replay may be
downloaded; credits pluralised; settings and amounts refused with what is allowed; a casual game's league and event
null in the API as in My games."""

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games.engine import Game
from games.online import services
from games.online.models import OnlineTable, TableStatus
from games.online.views import present
from tests.factories import UserFactory
from tests.league.conftest import client_for

pytestmark = pytest.mark.django_db


def _finished_spike_game(scheduled, host) -> OnlineTable:
    table = services.casual_open(actor=host, variant="corellian_spike", seats=2, hands=1)
    services.table_start(actor=host, table=table)
    for _ in range(2_000):
        table.refresh_from_db()
        if table.status == TableStatus.FINISHED or not scheduled.calls:
            break
        if table.status == TableStatus.PAUSED:
            services.table_resume(actor=host, table=table)
            continue
        scheduled.run(scheduled.calls.pop(0))
    assert table.status == TableStatus.FINISHED
    return table


def test_a_finished_spike_game_is_shown_tidy_and_true_with_its_replay_link(world, scheduled, client):
    host = UserFactory(username="tidy-host")
    table = _finished_spike_game(scheduled, host)
    client.force_login(host)
    page = client.get(reverse("online-table", args=[table.pk])).content.decode()
    game_over = page.split('aria-label="Final standings"', 1)[1]
    assert "Game over" in game_over
    assert "data-pot-paid" in page and "paid out" in page  # the pot was paid: not shown as still on the table
    assert 'aria-label="Your cards"' not in page and "no cards" not in page  # the reveal shows what was kept
    assert 'class="spike-market"' not in page  # the hand's market is gone with the hand
    assert 'class="shown-says"' in page  # "total -2 · Nulrhek" in one piece, not split by the row's wrapping
    replay = reverse("online-replay-download", args=[table.pk])
    assert f'href="{replay}"' in game_over
    assert client.get(replay).status_code == 200  # the link's own permission: whoever watches a finished table


def test_the_replay_link_is_offered_only_once_the_game_is_over(world, heads_up, client):
    client.force_login(world.users["organiser"])
    page = client.get(reverse("online-table", args=[heads_up.pk])).content.decode()
    assert "data-replay-link" not in page
    assert client.get(reverse("online-replay-download", args=[heads_up.pk])).status_code == 409


def _render(state: dict) -> str:
    context = present(state)
    return render_to_string("tables/_table.html", {"s": context, "variant": "coruscant_shift", "csrf_token": "x"})


def test_credits_and_chips_are_pluralised_on_seats_and_in_the_results():
    table = {
        "id": 1,
        "name": "T",
        "league": None,
        "event": None,
        "status": "finished",
        "rules": "Halcyon",
        "preset": "halcyon",
        "buy_in": 10,
        "seat_count": 2,
        "turn_seconds": 30,
        "hands": None,
        "players": ["Ann", "Bob"],
        "version": 3,
        "levels": {"ante": 1, "small_blind": 0, "big_blind": 0, "min_bet": 1},
        "next_levels": None,
        "seconds_left": None,
        "game": None,
    }
    players = [
        {"seat": 0, "name": "Ann", "stack": 1, "chips": {}, "in_hand": True},
        {"seat": 1, "name": "Bob", "stack": 19, "chips": {}, "in_hand": True},
    ]
    view = {
        "variant": "coruscant_shift",
        "hands_played": 1,
        "players": players,
        "hand": None,
        "standings": [{"player": "Bob", "stack": 19, "place": 1}, {"player": "Ann", "stack": 1, "place": 2}],
    }
    seats = [{"engine_seat": s, "you": False, "bot": None, "away": False} for s in (0, 1)]
    page = _render({"table": table, "view": view, "seats": seats, "you": None, "can": {}, "log": []})
    assert "<strong>1</strong> credit<" in page and "<strong>19</strong> credits<" in page
    assert "Ann: 1 credit (place 2)" in page and "Bob: 19 credits (place 1)" in page
    assert "1 credits" not in page


def test_a_tampered_play_now_form_is_told_the_allowed_range(world, client):
    client.force_login(UserFactory(username="tamperer"))
    for field, value, words in (
        ("turn_seconds", "-5", "from 5 to 600; got '-5'"),
        ("turn_seconds", "soon", "from 5 to 600; got 'soon'"),
        ("seats", "12", "from 2 to 8; got '12'"),
        ("hands", "0", "from 1 to 100; got '0'"),
    ):
        answer = client.post(reverse("online-play"), {field: value}, follow=True)
        said = " ".join(str(m) for m in answer.context["messages"])
        assert words in said, (field, value, said)
    assert not OnlineTable.objects.exists()


def test_a_raise_or_bet_without_an_amount_says_the_amount_is_missing(world, heads_up, humans):
    state = client_for(humans[0]).get(f"/api/tables/{heads_up.pk}/").json()
    game = Game.from_json(OnlineTable.objects.get(pk=heads_up.pk).state)
    seat = game.waiting_for()[0]
    actor = world.users["organiser"] if state["you"]["engine_seat"] != seat else humans[0]
    for verb in ("raise", "bet"):
        body = {"verb": verb, "version": heads_up.version, "key": f"k-{verb}"}
        answer = client_for(actor).post(f"/api/tables/{heads_up.pk}/act/", body, format="json")
        detail = answer.json()["detail"]
        assert answer.status_code == 400 and "needs `amount`" in detail and "None" not in detail, detail


def test_a_casual_games_league_and_event_are_null_in_the_table_as_in_my_games(world):
    host = UserFactory(username="null-host")
    answer = client_for(host).post("/api/tables/casual/", {}, format="json")
    pk = answer.json()["table"]["id"]
    table = client_for(host).get(f"/api/tables/{pk}/").json()["table"]
    row = client_for(host).get("/api/tables/mine/").json()["casual"][0]
    assert (table["league"], table["event"]) == (row["league"], row["event"]) == (None, None)


def test_whole_numbers_sent_as_digits_are_read_alike_across_the_api(world, open_table):
    """DRF's integer fields read "4" as 4 everywhere in the API (opening a league table, a casual one, an amount);
    the casual endpoint is consistent with the rest. A bool or a fraction is refused everywhere."""
    host = UserFactory(username="digits-host")
    assert client_for(host).post("/api/tables/casual/", {"seats": "4"}, format="json").status_code == 201
    league = {"event": world.event.pk, "name": "Digits", "seats": "4"}
    assert client_for(world.users["organiser"]).post("/api/tables/", league, format="json").status_code == 201
    for bad in ({"seats": True}, {"seats": 4.5}, {"seats": "four"}):
        assert client_for(host).post("/api/tables/casual/", bad, format="json").status_code == 400


def test_a_bet_not_yet_called_is_no_side_pot_in_the_api_or_on_the_page(world, humans, heads_up, client):
    """The tester's case: one player bet (or raised), the other (to act, able to call) was shown out of a "side
    pot"."""
    bettor = None
    for step in range(8):  # each keeps one card at the selection (and nothing more at the improve) until a bet is open
        for user in (world.users["organiser"], humans[0]):
            state = client_for(user).get(f"/api/tables/{heads_up.pk}/").json()
            legal = state["view"]["legal"]
            if "bet" in legal["verbs"] or "raise" in legal["verbs"]:
                bettor = user
                break
            if "select" in legal["verbs"]:
                cards = state["view"]["cards"][:1] if state["view"]["hand"]["phase"] == "select" else []
                body = {"verb": "select", "cards": cards, "version": state["table"]["version"], "key": f"s{step}"}
                assert client_for(user).post(f"/api/tables/{heads_up.pk}/act/", body, format="json").status_code == 200
        if bettor is not None:
            break
    assert bettor is not None, state["view"]["hand"]
    verb = "bet" if "bet" in legal["verbs"] else "raise"
    amount = legal["min_bet"] + 1 if verb == "bet" else legal["min_raise_to"]
    body = {"verb": verb, "amount": amount, "version": state["table"]["version"], "key": "b1"}
    assert client_for(bettor).post(f"/api/tables/{heads_up.pk}/act/", body, format="json").status_code == 200
    engine = Game.from_json(OnlineTable.objects.get(pk=heads_up.pk).state)
    assert len(engine.spectator_view()["hand"]["pots"]) == 2  # the engine's settling slices, unchanged
    other = humans[0] if bettor == world.users["organiser"] else world.users["organiser"]
    view = client_for(other).get(f"/api/tables/{heads_up.pk}/").json()["view"]
    assert "call" in view["legal"]["verbs"]
    total = sum(row["contributed"] for row in view["players"])
    assert view["hand"]["pots"] == [{"amount": total, "eligible": [0, 1]}]
    client.force_login(other)
    page = client.get(reverse("online-table", args=[heads_up.pk])).content.decode()
    assert f"Pot <strong>{total}</strong></div>" in page and "side " not in page.split('class="pot"', 1)[1][:80]
