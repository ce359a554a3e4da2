"""Re-buys at a re-buy tournament's online tables: a player out of chips re-buys from the table page, their
player view or the API during the re-buy period; the re-buy is booked once and the chips join their stack at
the table's next hand break; the bust is not an elimination while they may re-buy, and when the period ends
whoever is still out of chips is eliminated by the clock task or the next hand's report."""

import json

import pytest

from games.engine import Game
from games.online import services as online
from games.online.models import ChangeKind, ChangeStatus, OnlineTable, SeatChange, TableStatus
from league.models import AuditEntry, LedgerEntry, LedgerKind
from tests.league.conftest import eager_tasks  # noqa: F401 (fixture)
from tournaments import services
from tournaments.models import Registration, RegistrationStatus

from .conftest import rebuy_tournament, shove, signed_in, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def rebuy_night(night, users, online_tables, recorded, eager_tasks, django_capture_on_commit_callbacks):  # noqa: F811
    """A re-buy tournament (re-buys of 300 until level 2 ends, at most 2 each) with two players at one online
    table, played all-in until one of them is out of chips."""
    tournament = rebuy_tournament(night, players=night.players[1:3])
    with django_capture_on_commit_callbacks(execute=True):
        table = online_tables(tournament, 1)[1]
    busted = play_to_a_bust(table, users, recorded, django_capture_on_commit_callbacks)
    return tournament, table, users, busted


def play_to_a_bust(table, users, calls, capture):
    """All-in hands until a player is out of chips; returns that player's name."""
    with capture(execute=True):
        for _ in range(300):
            table.refresh_from_db()
            game = Game.from_json(table.state)
            out = [name for seat, name in enumerate(game.names) if game.stacks[seat] == 0 and seat not in game.left]
            if out and not game.in_hand:
                return out[0]
            if not shove(table, users):
                assert online.next_hand(table_id=table.pk, version=table.version)
    raise AssertionError("nobody went out")


def test_a_bust_in_the_rebuy_period_is_not_an_elimination_and_the_table_waits(rebuy_night):
    tournament, table, _users, busted = rebuy_night
    table.refresh_from_db()
    assert table.status == TableStatus.RUNNING  # not ended: the player out of chips may still re-buy
    registration = Registration.objects.get(tournament=tournament, player__display_name=busted)
    assert registration.status == RegistrationStatus.REGISTERED and registration.place is None
    assert AuditEntry.objects.filter(action="tournament_bust_deferred", data__player=registration.player_id).exists()
    assert not AuditEntry.objects.filter(action="tournament_eliminate").exists()
    assert online.next_hand(table_id=table.pk, version=table.version) is False  # one player with chips: no hand


def test_a_player_out_of_chips_rebuys_through_the_api_once_and_the_chips_join_at_the_hand_break(
    rebuy_night,
    django_capture_on_commit_callbacks,
    recorded,
):
    tournament, table, users, busted = rebuy_night
    registration = Registration.objects.get(tournament=tournament, player__display_name=busted)
    player_id = registration.player_id
    user = users[player_id]
    client = signed_in(user)
    state = client.get(f"/api/tables/{table.pk}/").json()
    assert state["can"]["rebuy"] is True and state["tournament_rebuy"]["offer"] == {"amount": 300}
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-action="rebuy"' in page and "Re-buy (300 credits)" in page

    ledger = LedgerEntry.objects.filter(kind=LedgerKind.REBUY)
    version = state["table"]["version"]
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(
            f"/api/tournaments/{tournament.pk}/entry/", json.dumps({"action": "rebuy"}), content_type="application/json"
        )
        again = client.post(
            f"/api/tournaments/{tournament.pk}/entry/", json.dumps({"action": "rebuy"}), content_type="application/json"
        )
        from_the_table = client.post(f"/api/tables/{table.pk}/rebuy/")
    assert first.status_code == again.status_code == from_the_table.status_code == 200, first.content
    assert ledger.count() == 1 and ledger.get().amount == 300 and ledger.get().player_id == player_id
    registration.refresh_from_db()
    assert registration.rebuys == 1 and registration.status == RegistrationStatus.REGISTERED
    change = SeatChange.objects.get(kind=ChangeKind.REBUY, player_id=player_id)
    assert (change.status, change.stack, change.target_id) == (ChangeStatus.ON_THE_WAY, 300, table.pk)
    state = client.get(f"/api/tables/{table.pk}/").json()
    assert state["can"]["rebuy"] is False and state["tournament_rebuy"]["on_the_way"] == 300
    assert state["table"]["version"] == version + 1  # every viewer's page renders the change once
    assert "joins your stack at the next hand break" in client.get(f"/tables/{table.pk}/").content.decode()

    # The stalled table deals again after the pause: at that hand break the chips join the stack, once.
    _name, args = next(call for call in reversed(recorded) if call[0] == "next_hand")
    with django_capture_on_commit_callbacks(execute=True):
        assert online.next_hand(table_id=args[0], version=args[1]) is True
        assert online.next_hand(table_id=args[0], version=args[1]) is False  # the task again: nothing more
    table.refresh_from_db()
    game = Game.from_json(table.state)
    seat = table.seats.get(player_id=player_id).engine_seat
    assert seat in game.hand.seats
    assert game.stacks[seat] + game.hand.contributions.get(seat, 0) == 300
    change.refresh_from_db()
    assert change.status == ChangeStatus.MADE
    assert ledger.count() == 1
    assert AuditEntry.objects.filter(action="online_table.tournament_rebuy").count() == 1
    assert [r for r in table.results if "rebuy" in r] == [{"rebuy": game.names[seat], "amount": 300}]


def test_a_rebuy_from_the_table_page_and_one_refused_after_the_period(
    rebuy_night,
    django_capture_on_commit_callbacks,
):
    tournament, table, users, busted = rebuy_night
    client = signed_in(users[Registration.objects.get(tournament=tournament, player__display_name=busted).player_id])
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'data-action="rebuy"' in page and "Re-buy (300 chips)" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/tables/{table.pk}/rebuy/")
    assert response.status_code == 302
    assert LedgerEntry.objects.filter(kind=LedgerKind.REBUY).count() == 1

    # The clock moves past level 2: the period is over. A re-buy is refused with the reason, nothing written.
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_clock_move(actor=night_organiser(tournament), tournament=tournament, levels=2)
    before = snapshot()
    changes = list(SeatChange.objects.values())
    refused = client.post(
        f"/api/tournaments/{tournament.pk}/entry/", json.dumps({"action": "rebuy"}), content_type="application/json"
    )
    assert refused.status_code == 409 and "re-buy period is over" in refused.json()["detail"]
    assert snapshot() == before and list(SeatChange.objects.values()) == changes


def night_organiser(tournament):
    from league.models import Membership, Role

    return Membership.objects.filter(league=tournament.event.season.league, role=Role.ORGANISER).first().player.user


def test_players_still_out_of_chips_when_the_period_ends_are_eliminated_by_the_clock(
    rebuy_night,
    django_capture_on_commit_callbacks,
):
    tournament, table, _users, busted = rebuy_night
    registration = Registration.objects.get(tournament=tournament, player__display_name=busted)
    winner = Registration.objects.exclude(pk=registration.pk).get(tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_clock_move(actor=night_organiser(tournament), tournament=tournament, levels=2)
        services.tournament_clock_tick(tournament_id=tournament.pk)  # the clock task (a repeat changes nothing)
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.ELIMINATED and registration.place == 2
    assert registration.eliminated_by_id == winner.player_id
    entry = AuditEntry.objects.get(action="tournament_eliminate")
    assert entry.data["source"] == "rebuy_period_over"
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED  # the table that waited for the re-buy ends
    assert OnlineTable.objects.get(pk=table.pk).game.status == "finished"


def test_a_player_with_no_rebuy_left_is_eliminated_at_once_in_the_period(night, recorded):
    tournament = rebuy_tournament(night, players=night.players[:3], max_rebuys=1)
    spent, fresh = night.players[0], night.players[1]
    services.tournament_rebuy(actor=night.organiser, tournament=tournament, player=spent, kind="rebuy", stack=0)
    busts = [
        {"player_id": spent.pk, "knocked_out_by": night.players[2].pk, "stack": 40},
        {"player_id": fresh.pk, "knocked_out_by": night.players[2].pk, "stack": 50},
    ]
    done = services.tournament_online_busts(event_id=night.event.pk, table_id=1, hand=4, busts=busts)
    assert [Registration.objects.get(pk=pk).player_id for pk in done] == [spent.pk]
    assert Registration.objects.get(tournament=tournament, player=fresh).status == RegistrationStatus.REGISTERED
    assert services.tournament_online_busts(event_id=night.event.pk, table_id=1, hand=4, busts=busts) == []


def test_after_the_period_the_next_hands_report_eliminates_those_still_out(rebuy_night):
    tournament, table, _users, busted = rebuy_night
    # The period ends with the clock's move, but its task has not run (a worker down): the next report from a
    # table's hand break eliminates the player still out of chips.
    services.tournament_clock_move(actor=night_organiser(tournament), tournament=tournament, levels=2)
    registration = Registration.objects.get(tournament=tournament, player__display_name=busted)
    assert registration.status == RegistrationStatus.REGISTERED
    done = services.tournament_online_busts(event_id=tournament.event_id, table_id=table.pk, hand=999, busts=[])
    assert done == [registration.pk]
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.ELIMINATED and registration.place == 2
    assert services.tournament_online_busts(event_id=tournament.event_id, table_id=table.pk, hand=999, busts=[]) == []
    assert AuditEntry.objects.filter(action="tournament_eliminate").count() == 1


def test_an_add_on_booked_in_the_control_room_reaches_the_players_online_stack(
    rebuy_night,
    django_capture_on_commit_callbacks,
    recorded,
):
    tournament, table, _users, busted = rebuy_night
    policy = tournament.event.season.league.buy_in_policy
    policy.addon_allowed, policy.addon_amount = True, 200
    policy.save()
    winner = Registration.objects.exclude(player__display_name=busted).get(tournament=tournament)
    table.refresh_from_db()
    seat = table.seats.get(player_id=winner.player_id).engine_seat
    held = Game.from_json(table.state).stacks[seat]
    organiser = signed_in(night_organiser(tournament))
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser.post(
            f"/manage/tournaments/{tournament.pk}/", {"action": "addon", "player": str(winner.player_id)}
        )
    assert response.status_code == 302
    assert LedgerEntry.objects.filter(kind=LedgerKind.ADDON, player_id=winner.player_id).count() == 1
    _name, args = next(call for call in reversed(recorded) if call[0] == "next_hand")
    online.next_hand(table_id=args[0], version=args[1])
    table.refresh_from_db()
    assert Game.from_json(table.state).stacks[seat] == held + 200
    assert SeatChange.objects.get(kind=ChangeKind.ADDON).status == ChangeStatus.MADE
