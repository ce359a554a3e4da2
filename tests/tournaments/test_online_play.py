"""A tournament played on online tables: the control room (page and API) opens a table for its seated players
at the level in force, and a player who runs out of chips there is eliminated once, the knockout credited."""

from rest_framework.test import APIClient

from games.engine import Game
from games.online import services as online
from games.online.models import OnlineTable, TableStatus
from league.models import AuditEntry, LedgerEntry
from tests.league.conftest import eager_tasks  # noqa: F401 (fixture)
from tournaments import services
from tournaments.models import Format, Registration, RegistrationStatus
from tournaments.services.online import tournament_online_busts

from .conftest import drawn, play_out, signed_in, snapshot


def test_the_control_room_opens_an_online_table_for_a_tables_seated_players(night, tournament):
    drawn(night, tournament)
    organiser = signed_in(night.organiser)
    url = f"/manage/tournaments/{tournament.pk}/"
    page = organiser.get(url).content.decode()
    assert 'data-action="open-online-1"' in page
    ledger = LedgerEntry.objects.count()
    response = organiser.post(url, {"action": "open_online", "table": "1", "section": "online"})
    assert response.status_code == 302
    table = OnlineTable.objects.get(event=night.event)
    assert table.tournament_table == 1 and table.status == TableStatus.OPEN
    seated = Registration.objects.filter(tournament=tournament, table_number=1).order_by("seat_number")
    assert [s.player_id for s in table.seats.order_by("number")] == [r.player_id for r in seated]
    assert (table.options["small_blind"], table.options["big_blind"], table.options["ante"]) == (5, 10, 0)
    assert table.options["escalation"] == "none" and table.options["rebuys"] is False
    assert table.buy_in == tournament.starting_stack
    assert LedgerEntry.objects.count() == ledger  # tournament chips: the tournament booked the buy-ins
    assert f'href="/tables/{table.pk}/"' in organiser.get(url).content.decode()

    # Asking again is refused beside the form, and writes nothing.
    before = snapshot()
    again = organiser.post(url, {"action": "open_online", "table": "1", "section": "online"})
    assert again.status_code == 409 and "already has an online table" in again.content.decode()
    assert snapshot() == before


def test_the_api_opens_the_same_table_with_the_same_permission_check(night, tournament):
    drawn(night, tournament)
    url = f"/api/tournaments/{tournament.pk}/actions/"
    before = snapshot()
    member = APIClient()
    member.force_authenticate(night.member)
    refused = member.post(url, {"action": "open_online", "table": 1}, format="json")
    assert refused.status_code == 403 and "organisers" in refused.json()["detail"]
    assert snapshot() == before
    organiser = APIClient()
    organiser.force_authenticate(night.organiser)
    wrong = organiser.post(url, {"action": "open_online", "table": 7}, format="json")
    assert wrong.status_code == 400 and "Table 7 has nobody seated; the tables are 1" in wrong.json()["detail"]
    missing = organiser.post(url, {"action": "open_online"}, format="json")
    assert missing.status_code == 400 and "The table must be a whole number" in missing.json()["detail"]
    assert snapshot() == before
    ok = organiser.post(url, {"action": "open_online", "table": 1}, format="json")
    assert ok.status_code == 200 and "open online" in ok.json()["detail"]
    table = OnlineTable.objects.get(event=night.event, tournament_table=1)
    detail = organiser.get(f"/api/tournaments/{tournament.pk}/").json()
    assert detail["online_tables"] == [{"table": 1, "id": table.pk, "status": "open"}]


def test_no_online_table_opens_before_the_draw(night, tournament):
    for player in night.players[:4]:
        services.tournament_register(actor=night.organiser, tournament=tournament, player=player)
    before = snapshot()
    response = signed_in(night.organiser).post(
        f"/manage/tournaments/{tournament.pk}/", {"action": "open_online", "table": "1"}
    )
    assert response.status_code == 409 and "after the seat draw" in response.content.decode()
    assert snapshot() == before


def test_a_player_out_of_chips_at_an_online_table_is_eliminated_once_with_the_knockout(
    night,
    tournament,
    recorded,
    users,
    online_tables,
    eager_tasks,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    drawn(night, tournament, players=2)
    ledger = LedgerEntry.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        table = online_tables(tournament, 1)[1]
        play_out(table, users, recorded)
    game = Game.from_json(table.state)
    assert table.status == TableStatus.FINISHED, (game.stacks, game.hands_played, table.results[-1:])
    loser = next(name for seat, name in enumerate(game.names) if game.stacks[seat] == 0)
    winner = next(name for seat, name in enumerate(game.names) if game.stacks[seat] > 0)
    out = Registration.objects.get(tournament=tournament, player__display_name=loser)
    assert out.status == RegistrationStatus.ELIMINATED and out.place == 2
    assert out.eliminated_by.display_name == winner
    assert Registration.objects.get(tournament=tournament, player__display_name=winner).status == "registered"
    eliminations = AuditEntry.objects.filter(action="tournament_eliminate")
    assert eliminations.count() == 1 and eliminations.get().data["source"] == "online"
    assert LedgerEntry.objects.count() == ledger  # the table's chips booked no credit

    # The report delivered twice (a task retried) records nothing more.
    hand = eliminations.get().data["hand"]
    report = [{"player_id": out.player_id, "knocked_out_by": out.eliminated_by_id, "stack": 1}]
    assert tournament_online_busts(event_id=night.event.pk, table_id=table.pk, hand=hand, busts=report) == []
    assert AuditEntry.objects.filter(action="tournament_eliminate").count() == 1


def test_players_out_in_the_same_hand_are_placed_by_the_stack_they_started_it_with(night, tournament):
    drawn(night, tournament, players=4)
    small, big, winner = night.players[0], night.players[1], night.players[2]
    busts = [
        {"player_id": big.pk, "knocked_out_by": winner.pk, "stack": 300},
        {"player_id": small.pk, "knocked_out_by": winner.pk, "stack": 40},
    ]
    done = tournament_online_busts(event_id=night.event.pk, table_id=1, hand=9, busts=busts)
    assert len(done) == 2
    places = dict(Registration.objects.filter(player__in=[small, big]).values_list("player_id", "place"))
    assert places == {small.pk: 4, big.pk: 3}
    assert set(Registration.objects.filter(player__in=[small, big]).values_list("eliminated_by", flat=True)) == {
        winner.pk
    }


def test_nobody_is_eliminated_online_while_a_rebuy_tournaments_rebuy_period_is_open(night):
    policy = night.league.buy_in_policy
    policy.rebuys_allowed, policy.rebuy_amount = True, 300
    policy.save()
    tournament = services.tournament_create(
        actor=night.organiser,
        event=night.event,
        structure=[
            {"big_blind": 10, "small_blind": 5, "length": 10},
            {"big_blind": 20, "small_blind": 10, "length": 10},
        ],
        format=Format.REBUY,
        seats_per_table=4,
        late_registration_level=2,
    )
    drawn(night, tournament, players=3)
    before = snapshot()
    busts = [{"player_id": night.players[0].pk, "knocked_out_by": night.players[1].pk, "stack": 10}]
    assert tournament_online_busts(event_id=night.event.pk, table_id=1, hand=3, busts=busts) == []
    # Only noted (for the places if they have not re-bought when the period ends): nobody is out.
    after = snapshot()
    assert after[:4] == before[:4] and after[4] == before[4] + 1
    assert AuditEntry.objects.get(action="tournament_bust_deferred").data["player"] == night.players[0].pk


def test_a_casual_online_table_at_the_tournaments_event_eliminates_nobody(
    night,
    tournament,
    recorded,
    users,
    eager_tasks,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    drawn(night, tournament, players=2)
    with django_capture_on_commit_callbacks(execute=True):
        table = online.table_open(actor=night.organiser, event=night.event, name="Side game", seats=2)
        for player in night.players[:2]:
            online.seat_take(actor=users[player.pk], table=table)
        online.table_start(actor=night.organiser, table=table)
        play_out(table, users, recorded)
    assert table.status == TableStatus.FINISHED and table.tournament_table is None
    assert not Registration.objects.filter(tournament=tournament, status=RegistrationStatus.ELIMINATED).exists()
    assert not AuditEntry.objects.filter(action="tournament_eliminate").exists()
