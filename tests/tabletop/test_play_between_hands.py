"""The host's between-hands forms at a real-cards table: only the steps the rules have, the engine's checks on
each, clear refusals (400/403/409) that write nothing."""

import pytest
from django.test import Client
from django.urls import reverse

from games.tabletop import services
from tests.factories import client_as
from tests.tabletop.helpers import current_due, play_to_reveal, started_table

pytestmark = pytest.mark.django_db


def _step(client: Client, table, data: dict):
    return client.post(reverse("tabletop-do", args=[table.code, "step"]), data, HTTP_HX_REQUEST="true")


def _fragment(client: Client, table) -> str:
    return client.get(reverse("tabletop-fragment", args=[table.code])).content.decode()


def _unchanged(table, before) -> bool:
    table.refresh_from_db()
    return (table.version, table.steps) == before


def test_the_host_sees_only_the_steps_the_rules_have():
    table, host, ann, _ = started_table(preset="casino")
    page = _fragment(client_as(host), table)
    for words in ("Set the levels", "Add on", "Seat them", "They leave", "Close the table"):
        assert words in page, words
    assert "Re-buy" not in page  # nobody is out of credits
    assert "Between hands" not in _fragment(client_as(ann), table)
    # A tournament-like game that ends by itself: no joining, leaving, closing, re-buys or add-ons.
    other, other_host, _, _ = started_table(preset="cantina")
    page = _fragment(client_as(other_host), other)
    assert "Set the levels" in page
    for words in ("Add on", "Seat them", "They leave", "Close the table", "Re-buy"):
        assert words not in page, words


def test_levels_add_ons_and_a_player_joining_from_the_forms():
    table, host, _, _ = started_table(preset="casino")
    client = client_as(host)
    assert _step(client, table, {"step": "add_on", "seat": "1", "amount": "50"}).status_code == 200
    assert (
        _step(client, table, {"step": "levels", "ante": "20", "small_blind": "0", "big_blind": "0"}).status_code == 200
    )
    answer = _step(client, table, {"step": "join", "name": " Cy ", "stack": "80"})
    assert answer.status_code == 200 and "Cy" in answer.content.decode()
    table.refresh_from_db()
    assert table.steps == [
        {"step": "add_on", "seat": 1, "amount": 50},
        {"step": "levels", "ante": 20, "small_blind": 0, "big_blind": 0},
        {"step": "join", "name": "Cy", "stack": 80},
    ]
    game = services.load_game(table)
    assert game.stacks == [100, 150, 100, 80]
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    table.refresh_from_db()
    game = services.load_game(table)
    assert game.game.hand.levels.ante == 20
    # The joined player (a seat row like a seat the host added: no phone) is on the page and the host acts for them.
    page = _fragment(client, table)
    assert "Cy" in page
    assert game.stacks == [80, 130, 80, 60]  # each paid the new ante


def test_a_player_joining_mid_game_gets_a_seat_row_and_an_undo_takes_it_back():
    table, host, ann, _ = started_table(preset="casino")
    services.realtable_step(actor=host, table=table, step={"step": "join", "name": "Cy", "stack": 80})
    seats = {seat.number: seat for seat in table.seats.all()}
    assert sorted(seats) == [0, 1, 2, 3]
    cy = seats[3]
    assert (cy.name, cy.user_id, cy.player_id, cy.guest_token) == ("Cy", None, None, "")
    answer = client_as(host).get(f"/api/tabletop/{table.code}/", HTTP_ACCEPT="application/json").json()
    # Nobody's phone holds it: the host (only) sees its hand-over link's secret (tests/tabletop/test_handover.py).
    assert answer["seats"][3] == {"number": 3, "name": "Cy", "guest": True, "held": False, "handover": cy.handover}
    assert len(cy.handover) >= 20
    assert [row["name"] for row in answer["players"]] == ["hostess", "ann", "Bob", "Cy"]
    # A full seat: dealt in, and the host acts for it; Cy leaves with their stack and comes back to the same seat.
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    table.refresh_from_db()
    assert 3 in services.load_game(table).game.hand.seats
    services.realtable_undo(actor=host, table=table)
    services.realtable_step(actor=host, table=table, step={"step": "leave", "seat": 3})
    services.realtable_step(actor=host, table=table, step={"step": "join", "name": "Cy", "stack": 40})
    assert list(table.seats.values_list("number", "name")) == [(0, "hostess"), (1, "ann"), (2, "Bob"), (3, "Cy")]
    assert table.seats.get(number=3).pk == cy.pk
    # Undoing a join that made the seat takes the row back with it.
    services.realtable_undo(actor=host, table=table)
    assert table.seats.count() == 4  # Cy's seat was made by the first join, which stands
    services.realtable_undo(actor=host, table=table)  # the leave
    services.realtable_undo(actor=host, table=table)  # the first join
    assert table.seats.count() == 3 and not table.seats.filter(name="Cy").exists()
    assert ann.real_seats.get().number == 1


def test_refusals_are_clear_and_write_nothing():
    table, host, ann, _ = started_table(preset="casino")
    table.refresh_from_db()
    before = (table.version, list(table.steps))
    # A player is not the host.
    answer = _step(client_as(ann), table, {"step": "add_on", "seat": "1", "amount": "50"})
    assert answer.status_code == 403 and "Only the host may take this step" in answer.content.decode()
    # A re-buy is for a player out of credits.
    answer = _step(client_as(host), table, {"step": "rebuy", "seat": "1", "amount": "50"})
    assert answer.status_code == 400 and "only a player out of credits may re-buy" in answer.content.decode()
    # A name already seated.
    answer = _step(client_as(host), table, {"step": "join", "name": "ann", "stack": "50"})
    assert answer.status_code == 400 and "already seated" in answer.content.decode()
    # Not a number.
    answer = _step(client_as(host), table, {"step": "add_on", "seat": "1", "amount": "lots"})
    assert answer.status_code == 400 and "The amount" in answer.content.decode()
    # An old screen.
    answer = _step(client_as(host), table, {"step": "leave", "seat": "2", "version": str(table.version - 1)})
    assert answer.status_code == 409 and "moved on" in answer.content.decode()
    assert _unchanged(table, before)
    # Mid-hand: between-hands steps wait, and the page offers none.
    services.realtable_step(actor=host, table=table, step={"step": "deal"})
    table.refresh_from_db()
    before = (table.version, list(table.steps))
    assert "Set the levels" not in _fragment(client_as(host), table)
    answer = _step(client_as(host), table, {"step": "levels", "ante": "5", "small_blind": "0", "big_blind": "0"})
    assert answer.status_code == 400 and "levels must wait" in answer.content.decode()
    assert _unchanged(table, before)


def test_a_rebuy_for_a_player_out_of_credits():
    """Ann goes all in against the host and loses; the host's form then offers her a re-buy."""
    table, host, _, _ = started_table(preset="casino")
    client = client_as(host)
    assert _step(client, table, {"step": "leave", "seat": "2"}).status_code == 200  # Bob leaves: heads-up
    passive = ("call", "check", "allin")
    assert (
        play_to_reveal(table, host, bets=lambda seat: ("allin", *passive) if seat == 1 else passive)["due"] == "reveal"
    )
    # The host names himself the winner of every pot.
    for _ in range(4):
        now = current_due(table)
        if now["due"] not in ("reveal", "winners"):
            break
        pots = now.get("or_name_winners") or now.get("pots") or []
        services.realtable_step(actor=host, table=table, step={"step": "winners", "pot": pots[0]["pot"], "seats": [0]})
    table.refresh_from_db()
    assert services.load_game(table).stacks[1] == 0
    page = _fragment(client, table)
    assert "Re-buy" in page
    assert _step(client, table, {"step": "rebuy", "seat": "1", "amount": "100"}).status_code == 200
    table.refresh_from_db()
    assert services.load_game(table).stacks[1] == 100
