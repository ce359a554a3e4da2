"""The end of a tournament: undo of an elimination, payouts booked through the league's ledger service,
a deal at the final table, league points (knockouts and re-buys included) and the standings task."""

import csv
import io

import pytest

from config.errors import ApplicationError, ConflictError
from league import services as league_services
from league.models import EventResult, EventStatus, LedgerEntry, LedgerKind, Standing
from tournaments import services
from tournaments.models import Registration, RegistrationStatus

from .conftest import START, drawn


def running(night, tournament, count):
    drawn(night, tournament, count, now=START)
    return night.players[:count]


def test_ledger_book_refuses_what_the_league_would_not_accept_and_writes_nothing(night):
    outsider = night.players[0].__class__.objects.create(display_name="Outsider")
    before = LedgerEntry.objects.count()
    cases = [
        ({"kind": LedgerKind.ADJUSTMENT, "amount": 5}, "adjustments go through ledger_adjust"),
        ({"kind": LedgerKind.BUY_IN, "amount": 0}, "non-zero whole number"),
        ({"kind": LedgerKind.PAYOUT, "amount": 5}, "book it as a negative amount"),
        ({"kind": LedgerKind.BUY_IN, "amount": -5}, "book it as a reversal"),
    ]
    for fields, message in cases:
        with pytest.raises(ApplicationError, match=message):
            league_services.ledger_book(actor=night.organiser, event=night.event, player=night.players[0], **fields)
    with pytest.raises(ApplicationError, match="not a member"):
        league_services.ledger_book(
            actor=night.organiser, event=night.event, player=outsider, kind=LedgerKind.BUY_IN, amount=5
        )
    assert LedgerEntry.objects.count() == before


def test_undo_brings_the_latest_eliminated_player_back_to_their_seat(night, tournament):
    players = running(night, tournament, 6)
    seat = Registration.objects.filter(player=players[2]).values_list("table_number", "seat_number").get()
    services.tournament_eliminate(
        actor=night.organiser, tournament=tournament, player=players[1], eliminated_by=players[0]
    )
    services.tournament_eliminate(
        actor=night.organiser, tournament=tournament, player=players[2], eliminated_by=players[0]
    )
    back = services.tournament_eliminate_undo(actor=night.organiser, tournament=tournament)
    assert back.player == players[2] and back.status == RegistrationStatus.REGISTERED and back.place is None
    assert (back.table_number, back.seat_number) == seat
    assert Registration.objects.get(player=players[1]).place == 6


def test_completing_books_every_prize_once_and_the_event_ledger_sums_to_zero(night, tournament):
    players = running(night, tournament, 6)
    for out in players[5:0:-1]:
        services.tournament_eliminate(
            actor=night.organiser, tournament=tournament, player=out, eliminated_by=players[0]
        )
    assert services.payout_table(tournament) == [1350, 810, 540]  # 50/30/20 of 2,700
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    payouts = dict(
        LedgerEntry.objects.filter(event=night.event, kind=LedgerKind.PAYOUT).values_list("player_id", "amount")
    )
    assert payouts == {players[0].pk: -1350, players[1].pk: -810, players[2].pk: -540}
    assert sum(LedgerEntry.objects.filter(event=night.event).values_list("amount", flat=True)) == 0
    night.event.refresh_from_db()
    assert night.event.status == EventStatus.FINISHED
    with pytest.raises(ConflictError, match="already complete"):
        services.tournament_complete(actor=night.organiser, tournament=tournament)
    assert LedgerEntry.objects.filter(event=night.event, kind=LedgerKind.PAYOUT).count() == 3


def test_points_come_from_the_places_with_knockouts_through_the_leagues_formula(night, tournament):
    night.league.points_formula = "custom"
    night.league.points_parameters = {"expression": "players - place + 1 + 2 * knockouts"}
    night.league.save()
    players = running(night, tournament, 4)
    services.tournament_eliminate(
        actor=night.organiser, tournament=tournament, player=players[3], eliminated_by=players[1]
    )
    services.tournament_eliminate(
        actor=night.organiser, tournament=tournament, player=players[2], eliminated_by=players[1]
    )
    services.tournament_eliminate(
        actor=night.organiser, tournament=tournament, player=players[1], eliminated_by=players[0]
    )
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    results = {r.player_id: (r.place, r.knockouts) for r in EventResult.objects.filter(event=night.event)}
    assert results == {players[0].pk: (1, 1), players[1].pk: (2, 2), players[2].pk: (3, 0), players[3].pk: (4, 0)}
    league_services.standings_recompute(league_id=night.league.pk)
    points = dict(Standing.objects.filter(league=night.league, season=None).values_list("player_id", "points"))
    assert points[players[0].pk] == 4 + 2 and points[players[1].pk] == 3 + 4 and points[players[3].pk] == 1


def test_a_deal_shares_the_prizes_left_by_icm_and_places_follow_the_stacks(night, tournament):
    players = running(night, tournament, 6)
    for out in players[5:2:-1]:
        services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=out)
    stacks = {players[0].pk: 500, players[1].pk: 1500, players[2].pk: 700}
    with pytest.raises(ApplicationError, match="every player still in"):
        services.tournament_deal(actor=night.organiser, tournament=tournament, method="icm", stacks={players[0].pk: 5})
    deal = services.tournament_deal(actor=night.organiser, tournament=tournament, method="icm", stacks=stacks)
    assert sum(deal["amounts"].values()) == 2700
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    places = dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "place"))
    assert [places[p.pk] for p in players[:3]] == [3, 1, 2]
    prizes = dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "prize"))
    assert {str(k): v for k, v in prizes.items() if v} == deal["amounts"]


def test_a_tournaments_net_credits_reach_the_charts_as_they_reach_the_standings(night, tournament):
    """A tournament books no hands, only buy-ins and prizes: every chart of net credits (the player page's, the
    player's and the league's API) ends where the standings' net credits are, for the winner and the rest."""
    from league import pages, selectors

    players = running(night, tournament, 6)
    for out in players[5:0:-1]:
        services.tournament_eliminate(
            actor=night.organiser, tournament=tournament, player=out, eliminated_by=players[0]
        )
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    nets = {r.player_id: r.credits_out - r.credits_in for r in EventResult.objects.filter(event=night.event)}
    assert nets[players[0].pk] == 1350 - tournament.starting_stack and nets[players[5].pk] == -tournament.starting_stack
    season = selectors.chip_history_for_season(league=night.league, season=None)
    assert {row["player"]: row["points"][-1]["net_credits"] for row in season} == nets
    for player in players:
        mine = selectors.chip_history_for_player(player=player, league=night.league, season=None)
        assert mine["net_credits"] == nets[player.pk] == mine["cumulative"][-1]["net_credits"]
        page = pages.credits_over_time(player=player, league_ids=[night.league.pk], season=None)
        assert page[-1]["cumulative"] == nets[player.pk]
    # The ledger's CSV ends at the same net credits; a tournament's chips are no stack of credits (left blank).
    from django.test import Client

    csv_text = Client().get(f"/api/players/{players[0].pk}/ledger/csv/?league={night.league.slug}").content.decode()
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    assert int(rows[-1]["net_after"]) == nets[players[0].pk] and {row["stack_after"] for row in rows} == {""}
