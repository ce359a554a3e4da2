"""Joining and leaving a running cash table through the ledger (refused elsewhere), and members opening
tables where their league allows it, asked of one permission function by the page and the API."""

import pytest
from django.test import Client

from config.errors import ConflictError
from games.engine import Game
from games.models import Game as LeagueGame
from games.models import Seat
from games.online import services
from games.online.models import OnlineSeat, OnlineTable, TableStatus
from games.online.permissions import NotAllowed, can_open_table, can_run_table
from games.online.selectors import table_state
from league.models import LedgerEntry, LedgerKind, Membership
from tests.league.conftest import client_for
from tests.online.conftest import to_next_hand_pause

pytestmark = pytest.mark.django_db


def ledger_sum(game_id, player) -> int:
    return sum(LedgerEntry.objects.filter(game_id=game_id, player=player).values_list("amount", flat=True))


@pytest.fixture
def cash_table(world, humans, open_table, scheduled):
    org = world.users["organiser"]
    table = open_table(seats=3, preset="casino")
    for user in (org, humans[0]):
        services.seat_take(actor=user, table=table)
    services.table_start(actor=org, table=table)
    table.refresh_from_db()
    return table


def test_a_player_joins_a_running_cash_table_between_hands_with_the_buy_in_in_the_ledger(
    world, humans, cash_table, scheduled
):
    late = humans[1]
    assert table_state(cash_table, user=late)["can"]["sit"] is False  # mid-hand: not now
    version = cash_table.version
    with pytest.raises(ConflictError, match="between hands"):
        services.seat_take(actor=late, table=cash_table)
    cash_table.refresh_from_db()
    assert cash_table.version == version and not OnlineSeat.objects.filter(table=cash_table, player__user=late).exists()
    assert not LedgerEntry.objects.filter(player__user=late).exists()

    to_next_hand_pause(cash_table, scheduled)
    assert table_state(cash_table, user=late)["can"]["sit"] is True
    seat = services.seat_take(actor=late, table=cash_table)
    cash_table.refresh_from_db()
    game = Game.from_json(cash_table.state)
    assert game.names[seat.engine_seat] == seat.name and game.stacks[seat.engine_seat] == cash_table.buy_in
    buy_in = LedgerEntry.objects.get(game_id=cash_table.game_id, player__user=late)
    assert (buy_in.kind, buy_in.amount) == (LedgerKind.BUY_IN, cash_table.buy_in)
    assert Seat.objects.get(game_id=cash_table.game_id, player__user=late).buy_in == cash_table.buy_in
    assert scheduled.last("next_hand")[1] == [cash_table.pk, cash_table.version]  # the pause starts again
    assert scheduled.run(scheduled.last("next_hand")) is True
    cash_table.refresh_from_db()
    view = table_state(cash_table, user=late)["view"]
    assert view["hand"]["number"] == 2 and len(view["cards"]) == 5  # dealt into the next hand


def test_leaving_cashes_out_at_once_and_a_rejoin_gets_the_old_seat_and_the_game_balances(
    world, humans, cash_table, scheduled
):
    org, mem = world.users["organiser"], humans[0]
    to_next_hand_pause(cash_table, scheduled)
    stack = Game.from_json(cash_table.state).stacks[
        OnlineSeat.objects.get(table=cash_table, player__user=mem).engine_seat
    ]
    services.seat_leave(actor=mem, table=cash_table)
    cash_table.refresh_from_db()
    seat = OnlineSeat.objects.get(table=cash_table, player__user=mem)
    assert seat.left and seat.left_with == stack
    if stack:
        payout = LedgerEntry.objects.get(game_id=cash_table.game_id, player__user=mem, kind=LedgerKind.PAYOUT)
        assert payout.amount == -stack
    assert ledger_sum(cash_table.game_id, seat.player) == cash_table.buy_in - stack
    assert table_state(cash_table, user=mem)["can"]["sit"] is True
    # Someone else takes the free seat number; the leaver comes back to the engine seat they had.
    services.seat_take(actor=humans[1], table=cash_table)
    again = services.seat_take(actor=mem, table=cash_table)
    assert again.pk == seat.pk and again.engine_seat == seat.engine_seat and not again.left
    assert Seat.objects.get(game_id=cash_table.game_id, player__user=mem).buy_in == 2 * cash_table.buy_in
    assert OnlineSeat.objects.filter(table=cash_table, left=False).count() == 3
    assert scheduled.run(scheduled.last("next_hand")) is True
    to_next_hand_pause(cash_table, scheduled)
    services.table_close(actor=org, table=cash_table)
    cash_table.refresh_from_db()
    assert cash_table.status == TableStatus.FINISHED
    game = LeagueGame.objects.get(pk=cash_table.game_id)
    credits_in = sum(LedgerEntry.objects.filter(game=game, kind=LedgerKind.BUY_IN).values_list("amount", flat=True))
    assert credits_in == 4 * cash_table.buy_in
    assert sum(game.seats.values_list("final_credits", flat=True)) == credits_in  # nothing lost, nothing made
    for row in game.seats.all():
        assert ledger_sum(game.pk, row.player) == 0
    assert sorted(game.seats.values_list("place", flat=True))[0] == 1


def test_joining_and_leaving_a_running_game_elsewhere_is_refused_with_the_reason(world, humans, heads_up):
    before = (heads_up.version, OnlineSeat.objects.filter(table=heads_up).count(), LedgerEntry.objects.count())
    with pytest.raises(ConflictError, match="only a cash table \\(casino\\) takes players between hands"):
        services.seat_take(actor=humans[1], table=heads_up)
    with pytest.raises(ConflictError, match="Only a cash table \\(casino\\) lets players leave"):
        services.seat_leave(actor=humans[0], table=heads_up)
    heads_up.refresh_from_db()
    assert (heads_up.version, OnlineSeat.objects.filter(table=heads_up).count(), LedgerEntry.objects.count()) == before
    client = client_for(humans[1])
    response = client.post(f"/api/tables/{heads_up.pk}/join/", {}, format="json")
    assert response.status_code == 409 and "casino" in response.json()["detail"]
    assert table_state(heads_up, user=humans[0])["can"]["leave"] is False


# ----- members opening tables ----------------------------------------------------------------------------


def test_members_open_tables_only_where_the_league_allows_it_page_and_api_alike(world):
    world.event.status = "planned"
    world.event.save()
    member, outsider = world.users["member"], world.users["outsider"]
    assert can_open_table(member, world.league) is False
    with pytest.raises(NotAllowed, match="have not let members open them"):
        services.table_open(actor=member, event=world.event, name="Mine")
    api = client_for(member)
    response = api.post("/api/tables/", {"event": world.event.pk, "name": "Mine"}, format="json")
    assert response.status_code == 403 and "organisers" in response.json()["detail"]
    page = Client()
    page.force_login(member)
    assert 'action="/tables/open/"' not in page.get("/tables/").content.decode()
    page.post("/tables/open/", {"event": world.event.pk, "name": "Mine", "seats": 4, "turn_seconds": 30})
    assert not OnlineTable.objects.exists()

    world.league.members_may_open_tables = True
    world.league.save()
    assert can_open_table(member, world.league) is True
    assert can_open_table(outsider, world.league) is False
    assert 'action="/tables/open/"' in page.get("/tables/").content.decode()
    response = page.post("/tables/open/", {"event": world.event.pk, "name": "Page", "seats": 4, "turn_seconds": 30})
    assert response.status_code == 302 and OnlineTable.objects.filter(name="Page").exists()
    response = api.post("/api/tables/", {"event": world.event.pk, "name": "Api"}, format="json")
    assert response.status_code == 201, response.content
    response = client_for(outsider).post("/api/tables/", {"event": world.event.pk, "name": "No"}, format="json")
    assert response.status_code == 403 and not OnlineTable.objects.filter(name="No").exists()
    # The member who opened a table is its host and runs it as an organiser does (test_a_member_hosts_...).
    table = OnlineTable.objects.get(name="Api")
    assert can_run_table(member, table) is True


def test_a_member_hosts_the_table_they_opened_page_and_api_alike_and_other_members_do_not(world, humans, scheduled):
    world.event.status = "planned"
    world.event.save()
    world.league.members_may_open_tables = True
    world.league.save()
    host, other = humans[0], humans[1]
    response = client_for(host).post(
        "/api/tables/", {"event": world.event.pk, "name": "Mine", "seats": 3}, format="json"
    )
    assert response.status_code == 201, response.content
    table = OnlineTable.objects.get(pk=response.json()["table"]["id"])
    services.seat_take(actor=host, table=table)
    services.seat_take(actor=other, table=table)
    # Another member: refused (403 naming who may), nothing written; the page tells them who starts it.
    api_other = client_for(other)
    for what in ("bots", "start"):
        refused = api_other.post(f"/api/tables/{table.pk}/{what}/", {}, format="json")
        assert refused.status_code == 403 and "opened this table" in refused.json()["detail"], refused.content
    table.refresh_from_db()
    assert table.status == TableStatus.OPEN and table.seats.count() == 2
    state = table_state(table, user=other)
    assert state["can"]["start"] is False and state["can"]["fill_bots"] is False
    assert state["table"]["host"] == host.username
    page = Client()
    page.force_login(other)
    html = page.get(f"/tables/{table.pk}/").content.decode()
    assert "data-who-starts" in html and f"<strong>{host.username}</strong> (who opened this table)" in html
    assert 'value="start"' not in html and "Start the game" not in html
    # The host: the page offers bots and start, and the API does them.
    host_page = Client()
    host_page.force_login(host)
    html = host_page.get(f"/tables/{table.pk}/").content.decode()
    assert "Start the game" in html and "Fill empty seats" in html and "data-who-starts" not in html
    assert table_state(table, user=host)["can"]["start"] is True
    api_host = client_for(host)
    assert api_host.post(f"/api/tables/{table.pk}/bots/", {}, format="json").status_code in (200, 201)
    assert api_host.post(f"/api/tables/{table.pk}/start/", {}, format="json").status_code == 200
    table.refresh_from_db()
    assert table.status == TableStatus.RUNNING
    assert (
        table_state(table, user=host)["can"]["pause"] is True
        and table_state(table, user=other)["can"]["pause"] is False
    )
    assert api_other.post(f"/api/tables/{table.pk}/pause/", {}, format="json").status_code == 403
    assert api_host.post(f"/api/tables/{table.pk}/pause/", {}, format="json").status_code == 200
    table.refresh_from_db()
    assert table.status == TableStatus.PAUSED
    # A host who is no longer a member runs it no more.
    Membership.objects.filter(league=world.league, player__user=host).delete()
    host = type(host).objects.get(pk=host.pk)
    assert can_run_table(host, table) is False


def test_the_league_setting_is_on_the_organisers_edit_form_and_in_the_api(world):
    organiser = Client()
    organiser.force_login(world.users["organiser"])
    url = f"/manage/leagues/{world.league.slug}/edit/"
    form = organiser.get(url).content.decode()
    assert 'name="members_may_open_tables"' in form and "Members may open online tables" in form
    assert client_for(None).get(f"/api/leagues/{world.league.slug}/").json()["members_may_open_tables"] is False
    api = client_for(world.users["organiser"])
    response = api.patch(f"/api/leagues/{world.league.slug}/", {"members_may_open_tables": "sometimes"}, format="json")
    assert response.status_code == 400 and "members_may_open_tables" in response.content.decode()
    world.league.refresh_from_db()
    assert world.league.members_may_open_tables is False
    response = api.patch(f"/api/leagues/{world.league.slug}/", {"members_may_open_tables": True}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["members_may_open_tables"] is True
    world.league.refresh_from_db()
    assert world.league.members_may_open_tables is True


def test_my_tables_on_my_own_page_lists_where_i_sit_and_what_i_played(world, humans, cash_table, scheduled):
    from games.online.models import OnlineTable

    mem = humans[0]
    player = OnlineSeat.objects.get(table=cash_table, player__user=mem).player
    finished = OnlineTable.objects.create(
        event=world.event, name="Old table", variant="coruscant_shift", preset="casino", buy_in=450, status="finished"
    )
    OnlineSeat.objects.create(table=finished, number=0, player=player, name=player.display_name)
    me = Client()
    me.force_login(mem)
    html = me.get(f"/players/{player.pk}/").content.decode()
    section = html[html.index('id="my-tables"') :]
    now, played = section.split("<h3>Played</h3>")[:2]
    assert f"/tables/{cash_table.pk}/" in now and "Old table" not in now
    assert f"/tables/{finished.pk}/" in played and cash_table.name not in played.split("</section>")[0]
    other = Client()
    other.force_login(humans[1])
    assert 'id="my-tables"' not in other.get(f"/players/{player.pk}/").content.decode()  # mine only


def test_the_organiser_turns_the_setting_on_from_the_league_form(world):
    from league.models import AuditEntry
    from tests.manage.conftest import league_edit_data

    league = world.league
    organiser = Client()
    organiser.force_login(world.users["organiser"])
    data = league_edit_data(league, members_may_open_tables="on")
    response = organiser.post(f"/manage/leagues/{league.slug}/edit/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    league.refresh_from_db()
    assert league.members_may_open_tables is True
    entry = AuditEntry.objects.filter(action="league.update").latest("id")
    assert set(entry.data["after"]) == {"members_may_open_tables"}
    member = Client()
    member.force_login(world.users["member"])
    assert member.post(f"/manage/leagues/{league.slug}/edit/", data).status_code in (403, 404)


def test_the_lobby_hears_of_seats_and_status_not_of_every_decision(
    world, humans, cash_table, scheduled, django_capture_on_commit_callbacks
):
    from config.events import subscribe_local

    heard = {"lobby": [], "table": []}
    stops = [
        subscribe_local(services.lobby_topic(), heard["lobby"].append),
        subscribe_local(services.table_topic(cash_table.pk), heard["table"].append),
    ]
    try:
        with django_capture_on_commit_callbacks(execute=True):
            cash_table.refresh_from_db()
            services.table_act(
                actor=humans[0], table=cash_table, verb="select", cards=[], version=cash_table.version, key="k1"
            )
        assert len(heard["table"]) == 1 and heard["lobby"] == []
        to_next_hand_pause(cash_table, scheduled)
        heard["lobby"].clear()
        with django_capture_on_commit_callbacks(execute=True):
            services.seat_take(actor=humans[1], table=cash_table)
        assert [m["table"] for m in heard["lobby"]] == [cash_table.pk]
    finally:
        for stop in stops:
            stop()
