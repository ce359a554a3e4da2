"""The big screen of a real-cards table: public information only (no button, no form, no seed before the end, no
card before it is shown, no guest secret, no log of who tapped), open to anyone with the code, live."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.tabletop import services
from games.words import codes_in
from tests.factories import client_as
from tests.tabletop.helpers import current_due, play_to_reveal, started_table

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style|svg)[^>]*>.*?</\1>", " ", html, flags=re.S))


def _screen(client: Client, table) -> str:
    answer = client.get(reverse("tabletop-screen", args=[table.code]))
    assert answer.status_code == 200
    return answer.content.decode()


def test_anyone_with_the_code_sees_the_table_in_large_type_and_nothing_to_press():
    table, host, ann, bob = started_table(has_dice=False)
    play_to_reveal(table, host)
    table.refresh_from_db()
    for client in (Client(), client_as(ann), client_as(host)):
        html = _screen(client, table)
        assert "<form" not in html and "<button" not in html and "<input" not in html
        text = _text(html)
        assert "Now: Show the hands still in" in text
        assert "hostess" in text and "ann" in text and "Bob" in text and "dealer" in text
        assert "Pot" in text
        assert table.master not in html and bob not in html  # the seed, the guest's secret
        assert codes_in(text) == []  # no card anywhere before it is shown
        assert "The log" not in text  # nor who tapped what
    # The host's table page links to it; a player's does not need to.
    assert (
        reverse("tabletop-screen", args=[table.code])
        in client_as(host).get(reverse("tabletop-table", args=[table.code])).content.decode()
    )
    assert (
        reverse("tabletop-screen", args=[table.code])
        not in client_as(ann).get(reverse("tabletop-fragment", args=[table.code])).content.decode()
    )


def test_whose_turn_the_bet_to_match_and_the_last_result_with_why():
    table, host, _, _ = started_table()
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 0, "suit": "circle"}})
    text = _text(_screen(Client(), table))
    assert "Now: Waiting for ann" in text and "to act" in text
    play_to_reveal_rest = [
        {"step": "reveal", "seat": 0, "cards": ["+1c", "+2c"]},
        {"step": "reveal", "seat": 1, "cards": ["-5s", "+9t"]},
        {"step": "reveal", "seat": 2, "cards": ["0", "-10t"]},
    ]
    table.refresh_from_db()
    for _ in range(40):
        now = current_due(table)
        if now["due"] != "act":
            break
        seat = now["seats"][0]
        verbs = now["choices"][seat]["verbs"]
        if "select" in verbs:
            step = {"verb": "select", "count": 0 if now["phase"] == "improve" else 2}
        elif seat == 1 and "bet" in verbs:
            step = {"verb": "bet", "amount": now["choices"][seat]["min_bet"]}
            services.realtable_step(actor=host, table=table, step={"step": "act", "seat": seat, **step})
            text = _text(_screen(Client(), table))
            assert "Bet to match" in text  # ann's bet is what the others must match
            continue
        else:
            step = {"verb": "check" if "check" in verbs else "call"}
        services.realtable_step(actor=host, table=table, step={"step": "act", "seat": seat, **step})
    for step in play_to_reveal_rest:
        services.realtable_step(actor=host, table=table, step=step)
    text = _text(_screen(Client(), table))
    assert "Hand 1: why the pots went where they did" in text
    assert "+1 circle" in text  # cards shown at the reveal are public, in words
    assert codes_in(text) == []


def test_the_seed_appears_on_the_screen_only_once_the_game_is_over():
    table, host, _, _ = started_table(has_dice=False)
    play_to_reveal(table, host)
    assert table.master not in _screen(Client(), table)
    services.realtable_finish(actor=host, table=table)
    assert table.master in _screen(Client(), table)


@pytest.mark.django_db(transaction=True)  # the stream reads on its own, outside the test's transaction
def test_the_screen_stream_sends_the_screen_and_nothing_hidden():
    table, host, ann, _ = started_table(has_dice=False)
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    services.realtable_step(actor=host, table=table, step={"step": "dice", "by": "site"})
    table.refresh_from_db()
    answer = Client().get(reverse("tabletop-screen-events", args=[table.code]))
    assert answer["Content-Type"] == "text/event-stream"
    chunks = iter(answer.streaming_content)
    assert next(chunks).startswith(b"retry:")
    message = next(chunks).decode()
    assert message.startswith(f"id: {table.version}\n") and "tt-screen" in message
    assert "<form" not in message and table.master not in message
    services.realtable_step(actor=ann, table=table, step={"step": "act", "seat": 1, "verb": "select", "count": 2})
    table.refresh_from_db()
    message = next(chunks).decode()
    answer._iterator.close()
    assert message.startswith(f"id: {table.version}\n") and "<form" not in message


def test_a_bet_not_yet_called_is_a_bet_not_a_side_pot():
    """As at an online table (`games.history.pots_in_play`): the seats still to act can win every pot."""
    from games.tabletop.present import table_view

    table, host, _, _ = started_table()
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    services.realtable_step(actor=host, table=table, step={"step": "dice", "dice": {"number": 0, "suit": "circle"}})
    table.refresh_from_db()
    for _ in range(40):
        now = current_due(table)
        assert now["due"] == "act"
        seat = now["seats"][0]
        verbs = now["choices"][seat]["verbs"]
        if "bet" in verbs:
            step = {"verb": "bet", "amount": now["choices"][seat]["min_bet"]}
            services.realtable_step(actor=host, table=table, step={"step": "act", "seat": seat, **step})
            break
        step = {"verb": "select", "count": 0 if now["phase"] == "improve" else 2} if "select" in verbs else {}
        step = step or {"verb": "check" if "check" in verbs else "call"}
        services.realtable_step(actor=host, table=table, step={"step": "act", "seat": seat, **step})
    table.refresh_from_db()
    view = table_view(table, host=True, mine=None)
    assert len(view["pots"]) == 1 and len(view["pots"][0]["eligible"]) == 3, view["pots"]
