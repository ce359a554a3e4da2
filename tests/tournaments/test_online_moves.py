"""Balancing between running online tables: the player leaves one table with their stack and joins the other
between hands, once, through the control room and the API; refused mid-hand, writing nothing."""

import json
import random
import uuid

from games.engine import Game
from games.engine.bots import SensibleBot
from games.online import services as online
from games.online.models import OnlineSeat, OnlineTable, TableStatus
from games.online.tournament import seat_move
from tests.factories import UserFactory
from tournaments import selectors, services
from tournaments.models import Registration

from .test_online_play import drawn, recorded, signed_in  # noqa: F401 (fixture)


def _users(tournament) -> dict:
    users = {}
    for registration in Registration.objects.filter(tournament=tournament).select_related("player"):
        player = registration.player
        if player.user_id is None:
            player.user = UserFactory()
            player.save()
        users[player.pk] = player.user
    return users


def _finish_hand(table: OnlineTable, users: dict) -> None:
    """Play the table's hand to its end: each awaited player checks or calls when they can, else as a bot."""
    for _ in range(200):
        table.refresh_from_db()
        game = Game.from_json(table.state)
        if not game.in_hand:
            return
        seat = game.waiting_for()[0]
        verbs = game.legal_actions(seat).verbs
        decision = SensibleBot(random.Random(table.version)).decide(game.view_for(seat))
        verb = "check" if "check" in verbs else "call" if "call" in verbs else decision.verb
        player = OnlineSeat.objects.get(table=table, engine_seat=seat, left=False).player_id
        online.table_act(
            actor=users[player],
            table=table,
            verb=verb,
            cards=list(decision.cards) if verb == "select" else None,
            version=table.version,
            key=uuid.uuid4().hex,
        )
    raise AssertionError("the hand did not end")


def _two_running_tables(night, tournament):
    drawn(night, tournament, players=7)  # tables of four and three
    users = _users(tournament)
    tables = {}
    for number in (1, 2):
        table = services.tournament_online_table_open(actor=night.organiser, tournament=tournament, table_number=number)
        online.table_start(actor=night.organiser, table=table)
        tables[number] = table
    return tables, users


def test_a_player_moves_between_running_online_tables_between_hands_once(night, tournament, recorded):  # noqa: F811
    tables, users = _two_running_tables(night, tournament)
    assert sorted(t.seats.count() for t in tables.values()) == [3, 4]
    big, small = (1, 2) if tables[1].seats.count() == 4 else (2, 1)
    # The balancing rule seats a player of the bigger table at the smaller one (as `tournament_balance` does).
    mover = Registration.objects.filter(tournament=tournament, table_number=big).order_by("seat_number").last()
    Registration.objects.filter(pk=mover.pk).update(table_number=small, seat_number=9)
    organiser = signed_in(night.organiser)
    url = f"/manage/tournaments/{tournament.pk}/"
    page = organiser.get(url).content.decode()
    assert 'data-action="move-online"' in page and f"{mover.player.display_name}: online table {big}" in page

    # Mid-hand: refused beside the form, nothing written; the move stays to make.
    before = (list(OnlineTable.objects.values("pk", "version", "state")), list(OnlineSeat.objects.values()))
    response = organiser.post(url, {"action": "move_online", "section": "seating"})
    assert response.status_code == 409
    assert "hand break" in response.content.decode()
    assert (list(OnlineTable.objects.values("pk", "version", "state")), list(OnlineSeat.objects.values())) == before

    # Between hands at both tables, the API makes it: the stack goes with the player.
    for table in tables.values():
        _finish_hand(table, users)
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
        seat_move(actor=night.organiser, source_id=source.pk, target_id=target.pk, player_id=mover.player_id) is False
    )


def test_only_organisers_move_players_between_online_tables(night, tournament, recorded):  # noqa: F811
    _two_running_tables(night, tournament)
    response = signed_in(night.member).post(
        f"/api/tournaments/{tournament.pk}/actions/",
        json.dumps({"action": "move_online"}),
        content_type="application/json",
    )
    assert response.status_code == 403
