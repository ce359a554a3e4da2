"""Re-buys and add-ons at a tournament's real-cards table (issue 25): the chips the tournament books reach the
table before its next deal, once per booking, and a re-buy tournament's table waits for its busted players'
re-buys while the re-buy period lasts (docs/tabletop.md, "Tournament tables")."""

import json

import pytest
from django.db import transaction
from django.utils import timezone

from config.errors import ApplicationError, ConflictError
from games.engine.realcards.due import due
from games.tabletop import services as tabletop
from games.tabletop import tournament as realcards_tables
from games.tabletop.models import RealTable, RealTableStatus
from league.models import AuditEntry, LedgerEntry, LedgerKind
from tests.tabletop.test_tournament_tables import busted_table, eager_tasks, game_of, open_real, play_hand, seated
from tests.tournaments.conftest import STRUCTURE, drawn, rebuy_tournament, signed_in
from tournaments import selectors, services
from tournaments.models import Registration, RegistrationStatus
from tournaments.services.online import rebuy_period_sweep

pytestmark = pytest.mark.django_db
__all__ = ["eager_tasks"]  # the fixture, imported for the tests below


def book(night, tournament, player_id: int, kind: str = "rebuy"):
    return signed_in(night.organiser).post(
        f"/api/tournaments/{tournament.pk}/actions/",
        data=json.dumps({"action": kind, "player": player_id}),
        content_type="application/json",
    )


def ledger(tournament, kind: str) -> list[tuple[int, int]]:
    return list(
        LedgerEntry.objects.filter(event=tournament.event, kind=kind).order_by("pk").values_list("player_id", "amount")
    )


def live(table: RealTable) -> list[int]:
    game = game_of(table).game
    return [
        game.stacks[s] + (game.hand.contributions.get(s, 0) if game.in_hand else 0) for s in range(len(game.stacks))
    ]


def written(table: RealTable) -> tuple:
    table.refresh_from_db()
    return (
        LedgerEntry.objects.count(),
        AuditEntry.objects.count(),
        list(Registration.objects.order_by("pk").values_list("rebuys", "addons", "status")),
        table.version,
        len(table.steps),
    )


def test_a_rebuy_booked_for_a_busted_player_reaches_the_table_at_the_next_deal_once(night):
    tournament, table, players = busted_table(night, winner=1)
    # The table waits for the re-buys instead of ending: nobody else can play, and the page says who may re-buy.
    assert table.status == RealTableStatus.PLAYING and game_of(table).stacks == [0, 300, 0]
    assert table.setup["options"]["end_rule"] == "never"
    assert due(game_of(table))["due"] == "between_hands"
    page = signed_in(night.organiser).get(f"/tabletop/{table.code}/").content.decode()
    names = list(table.seats.order_by("number").values_list("name", flat=True))
    assert "data-waiting-rebuy" in page and f"Waiting to re-buy: {names[0]}, {names[2]}." in page
    # The host's between-hands panel brings no chips and seats nobody: the tournament does.
    assert "tt-between" in page
    for form in ("tt-row tt-rebuy", "tt-row tt-add-on", "tt-row tt-join-mid", "tt-row tt-leave", "Close the table"):
        assert form not in page

    response = book(night, tournament, players[0])
    assert response.status_code == 200, response.content
    again = book(night, tournament, players[0])  # a double submit: the first re-buy's chips are on their way
    assert again.status_code == 200, again.content
    assert ledger(tournament, LedgerKind.REBUY) == [(players[0], 300)]
    assert Registration.objects.get(tournament=tournament, player_id=players[0]).rebuys == 1
    # Booked, not yet at the table: the chips join before the next deal, and the page says so.
    assert game_of(table).stacks == [0, 300, 0]
    page = signed_in(night.organiser).get(f"/tabletop/{table.code}/").content.decode()
    assert f"{names[0]} +300 (re-buy)" in page and "Dealt: done (the chips join first)" in page

    tabletop.realtable_step(actor=night.organiser, table=table, step={"step": "deal"})
    table.refresh_from_db()
    assert table.steps[0 : len(table.steps)][-2:] == [{"step": "rebuy", "seat": 0, "amount": 300}, {"step": "deal"}]
    chips = [change for change in table.changes if change["did"].get("step") == "rebuy"]
    assert len(chips) == 1 and chips[0]["by"] == "the tournament" and isinstance(chips[0]["booking"], int)
    game = game_of(table).game
    assert game.in_hand and sorted(game.hand.seats) == [0, 1]  # the re-bought seat is dealt in; seat 3 is out
    assert live(table) == [300, 300, 0]
    # A retry of the deal (the host undoes it and deals again) brings no chips twice.
    tabletop.realtable_undo(actor=night.organiser, table=table)
    tabletop.realtable_step(actor=night.organiser, table=table, step={"step": "deal"})
    table.refresh_from_db()
    assert [s["step"] for s in table.steps].count("rebuy") == 1 and live(table) == [300, 300, 0]
    # Credits conserved: the table holds the starting stacks and the ledger's re-buys; the clock reads the same.
    assert sum(live(table)) == 3 * 100 + sum(amount for _, amount in ledger(tournament, LedgerKind.REBUY))
    known = selectors.known_stacks(tournament.event_id)
    assert known[players[0]]["stack"] == 300 and known[players[2]]["stack"] == 0
    assert realcards_tables.realcards_place(event_id=tournament.event_id, player_id=players[0])["pending"] is None


def test_a_players_own_rebuy_at_a_real_cards_table_reaches_it_as_the_organisers_does(night):
    tournament = rebuy_tournament(night, players=night.players[:3], starting_stack=100)
    table = open_real(night, tournament)
    mine = table.seats.get(player__user=night.member).number
    winner = next(seat for seat in range(3) if seat != mine)
    play_hand(table, night.organiser, winner=winner, all_in={0, 1, 2})
    member = signed_in(night.member)
    # Their tournament page offers the re-buy, linking their real-cards table, as it does for an online table.
    page = member.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "data-my-rebuy" in page and 'data-action="rebuy"' in page
    assert f'href="/tabletop/{table.code}/">real-cards table 1</a>' in page
    response = member.post(f"/tournaments/{tournament.pk}/entry/", {"action": "rebuy"})
    assert response.status_code == 302
    again = member.post(  # a double submit (the API this time): one booking
        f"/api/tournaments/{tournament.pk}/entry/", data={"action": "rebuy"}, content_type="application/json"
    )
    assert again.status_code == 200, again.content
    assert ledger(tournament, LedgerKind.REBUY) == [(table.seats.get(number=mine).player_id, 300)]
    page = member.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Your re-buy of 300 chips joins your stack" in page and 'data-action="rebuy"' not in page
    tabletop.realtable_step(actor=night.organiser, table=table, step={"step": "deal"})
    assert live(table)[mine] == 300


def test_an_add_on_reaches_the_table_once_and_a_second_is_refused_with_nothing_written(night):
    policy = night.league.buy_in_policy
    policy.addon_allowed, policy.addon_amount = True, 50
    policy.save()
    tournament = rebuy_tournament(night, players=night.players[:3], starting_stack=100)
    table = open_real(night, tournament)
    players = seated(tournament)
    play_hand(table, night.organiser, winner=0)  # everyone checks: some chips move, nobody is out
    before = game_of(table).stacks
    assert all(before) and sum(before) == 300
    assert book(night, tournament, players[2], "addon").status_code == 200
    snapshot = written(table)
    refused = book(night, tournament, players[2], "addon")
    assert refused.status_code == 409 and "has had their add-on" in refused.json()["detail"]
    assert written(table) == snapshot

    tabletop.realtable_step(actor=night.organiser, table=table, step={"step": "deal"})
    table.refresh_from_db()
    added = [c for c in table.changes if c["did"].get("step") == "add_on"]
    assert [c["did"] for c in added] == [{"step": "add_on", "seat": 2, "amount": 50}]
    assert added[0]["by"] == "the tournament"
    assert live(table) == [before[0], before[1], before[2] + 50]
    assert sum(live(table)) == 300 + sum(amount for _, amount in ledger(tournament, LedgerKind.ADDON)) == 350


def test_the_table_waits_during_the_rebuy_period_and_ends_once_it_closes(
    night, eager_tasks, django_capture_on_commit_callbacks
):
    tournament, table, players = busted_table(night, on_commit=django_capture_on_commit_callbacks)
    assert table.status == RealTableStatus.PLAYING and not game_of(table).game.over
    assert AuditEntry.objects.filter(action="tournament_bust_deferred").count() == 2
    # The host may not deal a hand nobody can play (the engine says why), nor end the table while chips come.
    with pytest.raises(ApplicationError, match="at least two players with credits"):
        tabletop.realtable_step(actor=night.organiser, table=table, step={"step": "deal"})
    assert book(night, tournament, players[2]).status_code == 200
    with pytest.raises(ConflictError, match="on their way to this table"):
        tabletop.realtable_finish(actor=night.organiser, table=table)
    # Seat 3 re-bought and plays on; seat 1 goes out again, with no re-buy; the period ends.
    with django_capture_on_commit_callbacks(execute=True):
        play_hand(table, night.organiser, winner=1, all_in={1, 2})
    table.refresh_from_db()
    assert table.status == RealTableStatus.PLAYING and game_of(table).stacks == [0, 600, 0]
    services.tournament_clock_move(actor=night.organiser, tournament=tournament, levels=3)  # the period is over
    tournament.refresh_from_db()
    with transaction.atomic():
        swept = rebuy_period_sweep(tournament, now=timezone.now())
    assert len(swept) == 2
    table.refresh_from_db()
    assert table.status == RealTableStatus.FINISHED and game_of(table).stacks == [0, 600, 0]
    assert table.changes[-1]["did"] == {"step": "close"} and table.changes[-1]["by"] == "the tournament"
    out = Registration.objects.filter(tournament=tournament, status=RegistrationStatus.ELIMINATED)
    assert sorted(r.player_id for r in out) == sorted([players[0], players[2]])
    # Again: nothing more.
    with transaction.atomic():
        assert rebuy_period_sweep(tournament, now=timezone.now()) == []
        assert realcards_tables.realtables_settle(event_id=tournament.event_id) == []


def test_refusals_write_nothing(night):
    tournament, table, players = busted_table(night, winner=1)
    snapshot = written(table)
    # A re-buy for a player still holding chips at the table: its stack is known there.
    refused = book(night, tournament, players[1])
    assert (
        refused.status_code == 409
        and f"still has 300 chips at real-cards table 1 ({table.code})" in (refused.json()["detail"])
    )
    # The host may not bring chips to a tournament's table themselves: they are the tournament's.
    with pytest.raises(ApplicationError, match="re-buys, add-ons"):
        tabletop.realtable_step(actor=night.organiser, table=table, step={"step": "rebuy", "seat": 0, "amount": 300})
    # Chips for a player at no real-cards table in play.
    with pytest.raises(ConflictError, match="sits at no real-cards table"), transaction.atomic():
        realcards_tables.realtable_chips_queue(
            actor=night.organiser,
            event_id=tournament.event_id,
            player_id=night.players[5].pk,
            amount=300,
            kind="rebuy",
        )
    assert written(table) == snapshot


def test_an_add_on_for_a_player_at_a_table_whose_rules_take_no_chips_is_refused_with_nothing_written(night):
    # A freezeout opened before its buy-in policy allowed add-ons plays to its last player (no chips between hands).
    tournament = services.tournament_create(
        actor=night.organiser, event=night.event, structure=STRUCTURE, seats_per_table=4, late_registration_level=2
    )
    tournament = drawn(night, tournament, 3)
    table = open_real(night, tournament)
    assert table.setup["options"].get("end_rule") != "never"
    policy = night.league.buy_in_policy
    policy.addon_allowed, policy.addon_amount = True, 5
    policy.save()
    snapshot = written(table)
    refused = book(night, tournament, seated(tournament)[0], "addon")
    assert refused.status_code == 409 and "its rules take no chips between hands" in refused.json()["detail"]
    assert written(table) == snapshot
