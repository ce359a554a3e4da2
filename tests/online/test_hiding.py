"""Hidden information (RULES 1.7): each viewer gets the engine's view for them only, in HTML, JSON,
the event stream and the logs; the saved state (with the master seed) is never served."""

import json
import logging

import pytest
from django.test import Client

from games.engine import Game
from games.online import services
from games.online.models import OnlineSeat, OnlineTable

pytestmark = pytest.mark.django_db


def secrets_of(table: OnlineTable) -> dict:
    """Each seat's cards and the master seed, read from the saved state (which only the server holds)."""
    table.refresh_from_db()
    game = Game.from_json(table.state)
    cards = {seat: set(game.view_for(seat)["cards"]) - {"0"} for seat in range(len(game.names))}
    return {"cards": cards, "master": game._master}


def viewers(world, humans, table) -> dict:
    org_seat = OnlineSeat.objects.get(table=table, player__user=world.users["organiser"]).engine_seat
    mem_seat = OnlineSeat.objects.get(table=table, player__user=humans[0]).engine_seat
    clients = {}
    for name, user in (("seated", humans[0]), ("opponent", world.users["organiser"]), ("spectator", humans[1])):
        client = Client()
        client.force_login(user)
        clients[name] = client
    clients["anonymous"] = Client()
    return {"clients": clients, "seat": {"seated": mem_seat, "opponent": org_seat}}


def close_stream(response) -> None:
    """Close a stream left open through the test client's own wrapper (`_iterator`), which keeps the test's
    database connection open (closing the response directly would close it)."""
    response._iterator.close()


def first_stream_message(client, table) -> dict:
    response = client.get(f"/tables/{table.pk}/events/")
    assert response["Content-Type"] == "text/event-stream"
    try:
        for chunk in response.streaming_content:
            text = chunk.decode()
            if text.startswith("id: "):
                return json.loads(text.split("data: ", 1)[1])
    finally:
        close_stream(response)
    raise AssertionError("the stream sent no state")


def outputs(client, table) -> dict[str, str]:
    return {
        "html": client.get(f"/tables/{table.pk}/").content.decode(),
        "fragment": client.get(f"/tables/{table.pk}/fragment/").content.decode(),
        "api": client.get(f"/api/tables/{table.pk}/").content.decode(),
        "legal": client.get(f"/api/tables/{table.pk}/legal/").content.decode(),
        "lobby": client.get("/api/tables/").content.decode() + client.get("/tables/").content.decode(),
        "events": json.dumps(first_stream_message(client, table)),
        # The finished hands and the seeds: what the table saw, and commitments only while the game runs.
        "hands": client.get(f"/tables/{table.pk}/hands/").content.decode()
        + client.get(f"/tables/{table.pk}/hands/history.json").content.decode()
        + client.get(f"/api/tables/{table.pk}/hands/").content.decode(),
        "replay": client.get(f"/tables/{table.pk}/hands/replay.json").content.decode()
        + client.get(f"/api/tables/{table.pk}/replay/").content.decode(),
        "seeds": client.get(f"/tables/{table.pk}/seeds/").content.decode()
        + client.get(f"/api/tables/{table.pk}/seeds/").content.decode(),
    }


def shown_at_reveals(table: OnlineTable) -> set[str]:
    """Cards the players still in showed at the reveal of each finished hand (never a folded player's)."""
    table.refresh_from_db()
    shown = set()
    for result in table.results:
        folded = set(result.get("folded") or [])
        for name, row in (result.get("showdown") or {}).items():
            if name not in folded:
                shown |= set(row.get("cards") or [])
    return shown


def assert_hidden(world, humans, table) -> None:
    found = secrets_of(table)
    who = viewers(world, humans, table)
    for name, client in who["clients"].items():
        mine = found["cards"].get(who["seat"].get(name), set())
        others = set().union(*(c for s, c in found["cards"].items() if s != who["seat"].get(name))) - mine
        for where, text in outputs(client, table).items():
            assert found["master"] not in text, (name, where)
            # Neither saved text of the engine (the `state` and `history` columns) appears under its key.
            assert '"state":' not in text and '"history":' not in text, (name, where)
            # The hand history shows what finished hands showed at their reveal (public there); nothing else.
            hidden = others - shown_at_reveals(table) if where == "hands" else others
            for code in hidden:
                assert f'data-code="{code}"' not in text and f'"{code}"' not in text, (name, where, code)
            if where in ("html", "fragment", "api", "events") and mine:
                assert any(code in text for code in mine), (name, where)


def passive(view: dict) -> dict:
    """Stay in the hand as cheaply as possible: one card at select, nothing at improve, check or call."""
    verbs = view["legal"]["verbs"]
    if "select" in verbs:
        return {"verb": "select", "cards": view["cards"][:1] if view["hand"]["phase"] == "select" else []}
    return {"verb": "check" if "check" in verbs else "call" if "call" in verbs else verbs[0]}


def test_every_viewer_sees_only_their_own_cards_at_every_phase(world, humans, heads_up):
    from games.online.selectors import table_state

    phases = set()
    for step in range(30):
        heads_up.refresh_from_db()
        game = Game.from_json(heads_up.state)
        phases.add(game.hand.phase)
        assert_hidden(world, humans, heads_up)
        if not game.in_hand:
            break
        for user in (world.users["organiser"], humans[0]):
            view = table_state(heads_up, user=user)["view"]
            if view["legal"]["verbs"]:
                services.table_act(actor=user, table=heads_up, version=heads_up.version, key=f"{step}", **passive(view))
                break
    assert {"select", "betting_1", "improve", "complete"} <= phases, phases


def test_a_selection_is_the_players_own_and_shows_apart_from_the_hand(world, humans, heads_up):
    mem = humans[0]
    client = Client()
    client.force_login(mem)
    cards = json.loads(client.get(f"/api/tables/{heads_up.pk}/").content)["view"]["cards"]
    chosen = cards[:2]
    services.table_act(actor=mem, table=heads_up, verb="select", cards=chosen, version=heads_up.version, key="s")
    html = client.get(f"/tables/{heads_up.pk}/").content.decode()
    selection = html.split('class="cards selection"', 1)[1].split("</div>", 1)[0]
    assert all(f'data-code="{c}"' in selection for c in chosen)
    assert "<kbd>S</kbd> select" in html  # the shortcut of Coruscant Shift's selection, offered here only
    opponent = Client()
    opponent.force_login(world.users["organiser"])
    theirs = opponent.get(f"/tables/{heads_up.pk}/").content.decode()
    assert not any(f'data-code="{c}"' in theirs for c in chosen if c != "0")


def test_no_log_line_shows_a_card(world, humans, heads_up, scheduled, caplog):
    caplog.set_level(logging.DEBUG, logger="games")
    caplog.set_level(logging.INFO)
    found = secrets_of(heads_up)
    for _ in range(3):
        scheduled.run(scheduled.last("turn_timeout"))
    client = Client()
    client.force_login(humans[1])
    client.post(f"/tables/{heads_up.pk}/act/", {"verb": "fold", "version": 0, "key": "x"})
    text = "\n".join(record.getMessage() for record in caplog.records)
    for code in set().union(*found["cards"].values()):
        assert code not in text
    assert found["master"] not in text
