"""A tournament played at the venue keeps where the draw seated each player: going out clears a player's seat (it
may be given to another), and completing clears them all, yet the finished tournament's page and its API still
show which table and seat each player was drawn to."""

import re
from datetime import timedelta

from django.test import Client

from tournaments import services
from tournaments.models import Registration

from .conftest import START, drawn, reentry_tournament


def _finished_at_the_venue(night, tournament) -> dict[int, tuple[int, int]]:
    """Six players drawn to two tables of three, a balancing move after two go out at table 1's side, everyone
    out but the winner, completed: every seat cleared. Returns the draw (player id -> (table, seat))."""
    drawn(night, tournament, players=6, clock=False)
    draw = {r.player_id: (r.table_number, r.seat_number) for r in Registration.objects.filter(tournament=tournament)}
    services.tournament_clock_start(actor=night.organiser, tournament=tournament)
    by_table = sorted(draw, key=lambda player: draw[player])
    for player_id in by_table[:2]:  # two of table 1 go out: the tables are 1 and 3, so one player moves
        services.tournament_eliminate(
            actor=night.organiser, tournament=tournament, player=night_player(night, player_id)
        )
    assert services.tournament_balance(actor=night.organiser, tournament=tournament)
    for player_id in by_table[2:-1]:
        services.tournament_eliminate(
            actor=night.organiser, tournament=tournament, player=night_player(night, player_id)
        )
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    assert not Registration.objects.filter(tournament=tournament, table_number__isnull=False).exists()
    return draw


def night_player(night, player_id: int):
    return next(player for player in night.players if player.pk == player_id)


def test_the_api_lists_every_drawn_seat_of_a_finished_tournament(night, tournament):
    draw = _finished_at_the_venue(night, tournament)
    answer = Client().get(f"/api/tournaments/{tournament.pk}/").json()
    assert answer["status"] == "finished" and answer["seats"] == []
    assert {row["player"]: (row["table"], row["seat"]) for row in answer["drawn"]} == draw
    assert [(row["table"], row["seat"]) for row in answer["drawn"]] == sorted(draw.values())  # table, then seat
    assert {row["status"] for row in answer["drawn"]} == {"registered", "eliminated"}  # the winner, the rest
    assert sorted(set(draw.values())) == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3)]


def test_the_finished_tournaments_page_shows_each_table_as_drawn(night, tournament):
    draw = _finished_at_the_venue(night, tournament)
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    section = page.split('id="drawn-tables"', 1)[1].split("</section>", 1)[0]
    tables = re.findall(r"<h3>Table (\d+)</h3>\s*<ol[^>]*>(.*?)</ol>", section, re.S)
    assert [number for number, _ in tables] == ["1", "2"]
    names = {player.pk: player.display_name for player in night.players}
    for number, seats in tables:
        listed = re.findall(r"Seat (\d+)</span> ([^<]+?) <span", seats)
        expected = sorted((seat, names[p]) for p, (table, seat) in draw.items() if table == int(number))
        assert [(int(seat), name) for seat, name in listed] == expected
    assert "place 1" in section and "place 6" in section


def test_an_undone_elimination_keeps_the_drawn_seat(night, tournament):
    drawn(night, tournament, players=6)
    first = Registration.objects.filter(tournament=tournament).order_by("table_number", "seat_number").first()
    drawn_at = (first.table_number, first.seat_number)
    services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=first.player)
    first.refresh_from_db()
    assert first.table_number is None and (first.drawn_table, first.drawn_seat) == drawn_at
    services.tournament_eliminate_undo(actor=night.organiser, tournament=tournament)
    first.refresh_from_db()
    assert (first.table_number, first.seat_number) == drawn_at == (first.drawn_table, first.drawn_seat)


def test_before_the_draw_nobody_has_a_drawn_seat(night, tournament):
    services.tournament_register(actor=night.organiser, tournament=tournament, player=night.players[0])
    answer = Client().get(f"/api/tournaments/{tournament.pk}/").json()
    assert answer["drawn"] == [] and answer["seats"] == []


def test_a_late_registrant_is_drawn_where_first_seated_and_a_reentry_keeps_the_first_seat(night):
    tournament = reentry_tournament(night)
    drawn(night, tournament, players=6, clock=False)
    services.tournament_clock_start(actor=night.organiser, tournament=tournament, now=START)
    late = services.tournament_register(
        actor=night.organiser, tournament=tournament, player=night.players[6], now=START + timedelta(minutes=1)
    )
    late.refresh_from_db()
    assert late.table_number is not None
    assert (late.drawn_table, late.drawn_seat) == (late.table_number, late.seat_number)
    first = Registration.objects.get(tournament=tournament, player=night.players[0])
    drawn_at = (first.drawn_table, first.drawn_seat)
    assert drawn_at == (first.table_number, first.seat_number)
    services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=night.players[0])
    services.tournament_rebuy(
        actor=night.organiser,
        tournament=tournament,
        player=night.players[0],
        kind="reentry",
        now=START + timedelta(minutes=5),
    )
    first.refresh_from_db()
    assert first.table_number is not None and (first.drawn_table, first.drawn_seat) == drawn_at
