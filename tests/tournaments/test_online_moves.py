"""Balancing between running online tables: the player leaves one table with their stack and joins the other
between hands, once, through the control room and the API; refused mid-hand, writing nothing."""

import json

import pytest

from games.engine import Game
from games.online import services as online
from games.online import tasks as online_tasks
from games.online.models import ChangeStatus, OnlineSeat, OnlineTable, SeatChange, TableStatus
from games.online.services import moves as online_tournament
from games.online.services import seat_move
from league.models import AuditEntry, LedgerEntry
from tests.factories import UserFactory
from tournaments import selectors, services
from tournaments.models import Registration

from .conftest import drawn, finish_hand, next_hand, signed_in


@pytest.fixture
def two_tables(night, tournament, users, online_tables):
    """Two running online tables (of four and three players), each dealing its first hand."""
    drawn(night, tournament, players=7)
    return online_tables(tournament, 1, 2)


def test_a_player_moves_between_running_online_tables_between_hands_once(night, tournament, two_tables, users):
    tables = two_tables
    assert sorted(t.seats.count() for t in tables.values()) == [3, 4]
    big, small = (1, 2) if tables[1].seats.count() == 4 else (2, 1)
    # The balancing rule seats a player of the bigger table at the smaller one (as `tournament_balance` does).
    mover = Registration.objects.filter(tournament=tournament, table_number=big).order_by("seat_number").last()
    Registration.objects.filter(pk=mover.pk).update(table_number=small, seat_number=9)
    organiser = signed_in(night.organiser)
    url = f"/manage/tournaments/{tournament.pk}/"
    page = organiser.get(url).content.decode()
    assert 'data-action="move-online"' in page and f"{mover.player.display_name}: online table {big}" in page

    # Mid-hand: the move waits for the hand to end (listed, cancellable); no table changes yet.
    before = (list(OnlineTable.objects.values("pk", "version", "state")), list(OnlineSeat.objects.values()))
    response = organiser.post(url, {"action": "move_online", "section": "seating"})
    assert response.status_code == 302
    assert (list(OnlineTable.objects.values("pk", "version", "state")), list(OnlineSeat.objects.values())) == before
    change = SeatChange.objects.get(player_id=mover.player_id)
    assert change.status == ChangeStatus.WAITING
    page = organiser.get(url).content.decode()
    assert "waiting for the hand to end" in page and f'data-action="cancel-online-move-{change.pk}"' in page
    assert 'data-action="move-online"' not in page  # not listed twice
    # Cancelled (so the organiser can make it between hands by hand below): listed to make again.
    assert (
        organiser.post(url, {"action": "cancel_online_move", "move": str(change.pk), "section": "seating"}).status_code
        == 302
    )
    change.refresh_from_db()
    assert change.status == ChangeStatus.CANCELLED
    assert 'data-action="move-online"' in organiser.get(url).content.decode()
    again = organiser.post(url, {"action": "cancel_online_move", "move": str(change.pk), "section": "seating"})
    assert again.status_code == 409 and "cancelled already" in again.content.decode()

    # Between hands at both tables, the API makes it: the stack goes with the player.
    for table in tables.values():
        finish_hand(table, users)
    stack = selectors.player_stacks(tournament)[mover.player_id]
    chips = sum(selectors.player_stacks(tournament).values())
    api = signed_in(night.organiser)
    answer = api.post(
        f"/api/tournaments/{tournament.pk}/actions/",
        json.dumps({"action": "move_online"}),
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    source, target = OnlineTable.objects.get(pk=tables[big].pk), OnlineTable.objects.get(pk=tables[small].pk)
    assert source.seats.get(player_id=mover.player_id).left
    arrived = target.seats.get(player_id=mover.player_id)
    assert not arrived.left
    assert Game.from_json(target.state).stacks[arrived.engine_seat] == stack
    assert selectors.player_stacks(tournament)[mover.player_id] == stack
    assert sum(selectors.player_stacks(tournament).values()) == chips  # no chip lost or made
    assert source.status == target.status == TableStatus.RUNNING

    # Shown done; asking again moves nobody twice (refused: nothing to move), and the service says made.
    page = organiser.get(url).content.decode()
    assert "data-online-moves-done" in page and f"{mover.player.display_name}: table {big} → table {small}" in page
    assert 'data-action="move-online"' not in page
    versions = list(OnlineTable.objects.order_by("pk").values_list("version", flat=True))
    again = organiser.post(url, {"action": "move_online", "section": "seating"})
    assert again.status_code == 409 and "No player waits to move" in again.content.decode()
    assert list(OnlineTable.objects.order_by("pk").values_list("version", flat=True)) == versions
    assert (
        seat_move(actor=night.organiser, source_id=source.pk, target_id=target.pk, player_id=mover.player_id)
        == "already"
    )


def test_only_organisers_move_players_between_online_tables(night, tournament, two_tables):
    response = signed_in(night.member).post(
        f"/api/tournaments/{tournament.pk}/actions/",
        json.dumps({"action": "move_online"}),
        content_type="application/json",
    )
    assert response.status_code == 403


@pytest.fixture
def mid_hand_move(night, tournament, two_tables):
    """Two running tables mid-hand and a player the tournament seats at the other one, asked to move: waiting."""
    tables = two_tables
    big, small = (1, 2) if tables[1].seats.count() == 4 else (2, 1)
    mover = Registration.objects.filter(tournament=tournament, table_number=big).order_by("seat_number").last()
    Registration.objects.filter(pk=mover.pk).update(table_number=small, seat_number=9)
    outcome = services.tournament_online_moves(actor=night.organiser, tournament=tournament)
    assert outcome["made"] == [] and [m["player"] for m in outcome["waiting"]] == [mover.player_id]
    return tables[big], tables[small], mover


def test_a_move_refused_mid_hand_is_made_at_the_hand_breaks_once(night, tournament, mid_hand_move, users):
    source, target, mover = mid_hand_move
    chips = sum(selectors.player_stacks(tournament).values())
    organiser = signed_in(night.organiser)
    url = f"/manage/tournaments/{tournament.pk}/"

    # The source's hand ends: the player leaves with their stack at once, not after the pause (their new table
    # may deal meanwhile). The target is still in its hand, so they are on their way and sit down at the
    # target's hand break.
    finish_hand(source, users)
    seat = source.seats.get(player_id=mover.player_id)
    stack = seat.left_with
    assert stack > 0
    change = SeatChange.objects.get(player_id=mover.player_id)
    assert seat.left and (change.status, change.stack) == (ChangeStatus.ON_THE_WAY, stack)
    assert next_hand(source) is True  # the source deals its next hand without them
    source.refresh_from_db()
    dealt = Game.from_json(source.state).hand.seats
    assert seat.engine_seat not in dealt and len(dealt) == source.seats.filter(left=False).count()
    assert not target.seats.filter(player_id=mover.player_id).exists()
    assert selectors.player_stacks(tournament)[mover.player_id] == stack  # counted while on the way
    assert sum(selectors.player_stacks(tournament).values()) == chips
    page = organiser.get(url).content.decode()
    assert f"joins table {target.tournament_table} when its hand ends" in page
    refused = organiser.post(url, {"action": "cancel_online_move", "move": str(change.pk), "section": "seating"})
    assert refused.status_code == 409 and "cannot be cancelled now" in refused.content.decode()

    finish_hand(target, users)
    assert next_hand(target) is True
    change.refresh_from_db()
    assert change.status == ChangeStatus.MADE
    arrived = OnlineTable.objects.get(pk=target.pk).seats.get(player_id=mover.player_id)
    game = Game.from_json(OnlineTable.objects.get(pk=target.pk).state)
    assert not arrived.left and arrived.engine_seat in game.hand.seats  # dealt into the hand just started
    assert selectors.player_stacks(tournament)[mover.player_id] == stack
    assert sum(selectors.player_stacks(tournament).values()) == chips

    # The tasks again (a repeat, or a late one): nothing moves twice.
    audits = AuditEntry.objects.filter(action="online_table.tournament_move").count()
    assert AuditEntry.objects.get(action="online_table.tournament_move").data == {
        "event": night.event.pk,
        "player": mover.player_id,
        "from": source.pk,
        "to": target.pk,
        "from_table": source.tournament_table,
        "to_table": target.tournament_table,
        "stack": stack,
    }
    versions = list(OnlineTable.objects.order_by("pk").values_list("version", flat=True))
    for table in (source, target):
        assert online.next_hand(table_id=table.pk, version=table.version) is False
    assert list(OnlineTable.objects.order_by("pk").values_list("version", flat=True)) == versions
    assert AuditEntry.objects.filter(action="online_table.tournament_move").count() == audits == 1
    assert OnlineSeat.objects.filter(player_id=mover.player_id, left=False).count() == 1
    page = organiser.get(url).content.decode()
    assert f"{mover.player.display_name}: table {source.tournament_table} → table {target.tournament_table}" in page


def test_a_waiting_move_is_made_as_the_source_hand_ends_and_the_target_deals_them_in(mid_hand_move, users):
    source, target, mover = mid_hand_move
    finish_hand(target, users)  # the target waits for its next hand (between hands)
    finish_hand(source, users)  # the source's hand ends: its pause has not run out, its next hand not dealt
    assert SeatChange.objects.get(player_id=mover.player_id).status == ChangeStatus.MADE
    target.refresh_from_db()
    arrived = target.seats.get(player_id=mover.player_id, left=False)
    assert Game.from_json(target.state).between_hands  # joined between hands, before its next hand
    # The target deals first (the source is still in its pause): the player is in that hand, and in no other.
    assert next_hand(target) is True
    target.refresh_from_db()
    assert arrived.engine_seat in Game.from_json(target.state).hand.seats
    assert next_hand(source) is True
    assert OnlineSeat.objects.filter(player_id=mover.player_id, left=False).count() == 1


def test_a_player_leaving_while_their_new_table_is_busy_sits_down_by_the_seat_changes_task(
    mid_hand_move, users, recorded, monkeypatch
):
    source, target, mover = mid_hand_move
    finish_hand(target, users)
    # The target's row is locked by someone else at the moment the source's hand ends (a hand break never waits
    # for a second table's lock): the player leaves, on their way, and a task looks at the target after commit.
    with monkeypatch.context() as busy:
        busy.setattr(online_tournament, "_lock_other", lambda current_id, other_id: None)
        finish_hand(source, users)
    change = SeatChange.objects.get(player_id=mover.player_id)
    assert change.status == ChangeStatus.ON_THE_WAY
    assert ("seat_changes", [target.pk]) in recorded
    target.refresh_from_db()
    version = target.version
    assert online_tasks.seat_changes(target.pk) is True
    change.refresh_from_db()
    target.refresh_from_db()
    assert change.status == ChangeStatus.MADE and target.version > version
    assert target.seats.filter(player_id=mover.player_id, left=False).exists()
    assert ("next_hand", [target.pk, target.version]) in recorded  # its next hand deals them in
    assert online_tasks.seat_changes(target.pk) is False  # a repeat changes nothing
    assert next_hand(target) is True
    target.refresh_from_db()
    arrived = target.seats.get(player_id=mover.player_id, left=False)
    assert arrived.engine_seat in Game.from_json(target.state).hand.seats
    assert online_tasks.seat_changes(target.pk) is False  # mid-hand: nothing to do


def test_a_waiting_move_no_longer_needed_is_dropped_with_an_audit_line(night, tournament, mid_hand_move, users):
    source, target, mover = mid_hand_move
    # The organiser seats the player back at their table before the hand ends (the tables balanced otherwise).
    Registration.objects.filter(pk=mover.pk).update(table_number=source.tournament_table, seat_number=9)
    finish_hand(source, users)
    assert next_hand(source) is True
    change = SeatChange.objects.get(player_id=mover.player_id)
    assert change.status == ChangeStatus.DROPPED and f"at table {source.tournament_table} now" in change.note
    assert source.seats.filter(player_id=mover.player_id, left=False).exists()
    dropped = AuditEntry.objects.get(action="online_table.tournament_move_dropped")
    assert dropped.data == {
        "event": night.event.pk,
        "player": mover.player_id,
        "from": source.pk,
        "to": target.pk,
        "from_table": source.tournament_table,
        "to_table": target.tournament_table,
        "reason": f"Not moved: the tournament seats them at table {source.tournament_table} now.",
    }
    page = signed_in(night.organiser).get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert "dropped" in page and "Not moved:" in page


def test_a_waiting_move_is_cancelled_through_the_api(night, tournament, mid_hand_move, users):
    source, target, mover = mid_hand_move
    change = SeatChange.objects.get(player_id=mover.player_id)
    api = signed_in(night.organiser)
    detail = api.get(f"/api/tournaments/{tournament.pk}/").json()
    assert detail["online_moves"]["waiting"][0] | {} == {
        "id": change.pk,
        "player": mover.player_id,
        "name": mover.player.display_name,
        "from_table": source.tournament_table,
        "to_table": target.tournament_table,
        "status": "waiting",
    }
    assert detail["online_moves"]["to_make"] == []
    refused = signed_in(night.member).post(
        f"/api/tournaments/{tournament.pk}/actions/",
        json.dumps({"action": "cancel_online_move", "move": change.pk}),
        content_type="application/json",
    )
    assert refused.status_code == 403
    answer = api.post(
        f"/api/tournaments/{tournament.pk}/actions/",
        json.dumps({"action": "cancel_online_move", "move": change.pk}),
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    finish_hand(source, users)
    assert next_hand(source) is True
    assert source.seats.filter(player_id=mover.player_id, left=False).exists()  # the cancelled move is not made
    assert SeatChange.objects.get(pk=change.pk).status == ChangeStatus.CANCELLED


@pytest.mark.parametrize(("variant", "preset"), [("corellian_spike", "galaxy_series"), ("classic", "classic")])
def test_players_move_between_corellian_spike_and_classic_online_tables(
    night, tournament, users, online_tables, variant, preset
):
    night.league.variant, night.league.preset, night.league.option_overrides = variant, preset, {}
    night.league.save()
    drawn(night, tournament, players=7)
    tables = online_tables(tournament, 1, 2)
    big, small = (1, 2) if tables[1].seats.count() == 4 else (2, 1)
    source, target = tables[big], tables[small]
    assert source.variant == target.variant == variant
    assert source.options["end_rule"] == "never"  # the tournament, not the engine, ends its tables
    # Calm bets (no raise, no all-in), so both tables still run after their first hand whatever the deals: with
    # the bots' all-ins, one player now and then took a whole table's chips in it, and nobody could move there.
    for table in (source, target):
        finish_hand(table, users, calm=True)
    # The balancing moves the big table's chip leader (never out of chips) to the small table, between hands.
    source.refresh_from_db()
    game = Game.from_json(source.state)
    leader = max(source.seats.all(), key=lambda seat: game.stacks[seat.engine_seat])
    stack = game.stacks[leader.engine_seat]
    Registration.objects.filter(tournament=tournament, player_id=leader.player_id).update(
        table_number=small, seat_number=9
    )
    outcome = services.tournament_online_moves(actor=night.organiser, tournament=tournament)
    assert [m["player"] for m in outcome["made"]] == [leader.player_id]
    target.refresh_from_db()
    arrived = target.seats.get(player_id=leader.player_id, left=False)
    game = Game.from_json(target.state)
    assert game.names[arrived.engine_seat] == arrived.name
    assert game.stacks[arrived.engine_seat] == stack == selectors.player_stacks(tournament)[leader.player_id]
    assert next_hand(target) is True
    target.refresh_from_db()
    assert arrived.engine_seat in Game.from_json(target.state).hand.seats


def test_nobody_takes_or_leaves_a_seat_at_a_tournaments_table_by_themselves(night, tournament, two_tables, users):
    tables = two_tables
    table = tables[1]
    seated = table.seats.filter(left=False).first()
    stranger = UserFactory()
    stranger_player = night.players[-1]  # a member of the league, not in the tournament
    stranger_player.user = stranger
    stranger_player.save()
    before = (list(OnlineTable.objects.values()), list(OnlineSeat.objects.values()), LedgerEntry.objects.count())
    for user, what, message in (
        (stranger, "join", "The tournament seats the players"),
        (users[seated.player_id], "leave", "cannot leave a tournament's table"),
    ):
        response = signed_in(user).post(f"/api/tables/{table.pk}/{what}/")
        assert response.status_code == 409 and message in response.json()["detail"], response.content
    assert (
        list(OnlineTable.objects.values()),
        list(OnlineSeat.objects.values()),
        LedgerEntry.objects.count(),
    ) == before
    state = signed_in(users[seated.player_id]).get(f"/api/tables/{table.pk}/").json()
    assert state["can"]["leave"] is False and state["can"]["sit"] is False


def test_a_table_left_with_one_player_by_a_waiting_move_ends_when_its_hand_ends(
    night, tournament, users, online_tables
):
    drawn(night, tournament, players=5)  # tables of three and two
    tables = online_tables(tournament, 1, 2)
    small, big = sorted(tables.values(), key=lambda t: t.seats.count())
    assert small.seats.count() == 2
    mover = small.seats.order_by("number").first()
    Registration.objects.filter(tournament=tournament, player_id=mover.player_id).update(
        table_number=big.tournament_table, seat_number=9
    )
    outcome = services.tournament_online_moves(actor=night.organiser, tournament=tournament)
    assert outcome["made"] == [] and len(outcome["waiting"]) == 1
    finish_hand(small, users)  # the hand ends: the player leaves at once, and the table is over
    small.refresh_from_db()
    assert next_hand(small) is False
    assert small.status == TableStatus.FINISHED
    assert small.game.status == "finished"
    assert SeatChange.objects.get(player_id=mover.player_id).status in (ChangeStatus.ON_THE_WAY, ChangeStatus.MADE)
