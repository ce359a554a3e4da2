"""A league table where nobody is there pauses itself at the hand break (and plays on when someone comes back), and
its runner ends a running league table at its next hand break, booked from the stacks as they stand: no credit
lost or duplicated."""

import pytest
from django.test import Client

from config.errors import ConflictError
from games.engine import Game
from games.engine.replay import replay_game
from games.models import Game as LeagueGame
from games.models import Seat
from games.online import services
from games.online.models import OnlineTable, TableStatus
from games.online.selectors import table_state
from league.models import LedgerEntry
from tests.league.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def league_table(world, humans, open_table, scheduled):
    """A running 3-seat league table: two people and a bot."""
    org = world.users["organiser"]
    table = open_table(seats=3, turn_seconds=20)
    services.seat_take(actor=humans[0], table=table)
    services.seat_take(actor=humans[1], table=table)
    services.table_fill_bots(actor=org, table=table, kind="sensible")
    services.table_start(actor=org, table=table)
    table.refresh_from_db()
    return table


def _run_until(table, scheduled, done, limit=500) -> None:
    """Run the scheduled tasks in order until `done(table)` (a bound, never a sleep)."""
    for _ in range(limit):
        table.refresh_from_db()
        if done(table) or not scheduled.calls:
            return
        scheduled.run(scheduled.calls.pop(0))
    table.refresh_from_db()


def test_a_league_table_where_everyone_is_away_pauses_at_the_hand_break_and_plays_on_when_one_is_back(
    world, humans, league_table, scheduled, caplog
):
    caplog.set_level("INFO", logger="games.online.services.presence")
    _run_until(league_table, scheduled, lambda t: t.status != TableStatus.RUNNING)
    assert league_table.status == TableStatus.PAUSED and league_table.paused_for == "nobody"
    game = Game.from_json(league_table.state)
    assert game.between_hands and not game.over  # paused at the hand break, not mid-hand
    assert all(seat.away for seat in league_table.seats.all() if not seat.is_bot)
    assert any("paused itself" in record.getMessage() for record in caplog.records)
    hands = game.hands_played
    assert hands < 10  # two timeouts mark a person away: it did not play on for nobody
    # Nothing is due while it waits: a late task does nothing.
    for name, args, _ in list(scheduled.calls):
        scheduled.run((name, args, 0))
    league_table.refresh_from_db()
    assert league_table.status == TableStatus.PAUSED and Game.from_json(league_table.state).hands_played == hands
    page = Client()
    page.force_login(humans[0])
    html = page.get(f"/tables/{league_table.pk}/").content.decode()
    assert "data-paused-for-nobody" in html and ("I&#x27;m back" in html or "I'm back" in html)
    # A person comes back: it plays on, the next hand dealt after the pause.
    scheduled.calls.clear()
    services.seat_return(actor=humans[0], table=league_table)
    league_table.refresh_from_db()
    assert league_table.status == TableStatus.RUNNING and league_table.paused_for == ""
    assert scheduled.run(scheduled.last("next_hand")) is True
    league_table.refresh_from_db()
    assert Game.from_json(league_table.state).hands_played == hands and Game.from_json(league_table.state).in_hand


def test_the_organisers_resume_also_starts_a_table_paused_for_nobody(world, humans, league_table, scheduled):
    _run_until(league_table, scheduled, lambda t: t.status != TableStatus.RUNNING)
    assert league_table.paused_for == "nobody"
    services.table_resume(actor=world.users["organiser"], table=league_table)
    league_table.refresh_from_db()
    assert league_table.status == TableStatus.RUNNING and league_table.paused_for == ""


def _books_balance(table: OnlineTable) -> None:
    """The credits at the table when it ended are the booked result, none lost or duplicated."""
    game = Game.from_json(table.state)
    assert game.over
    league_game = LeagueGame.objects.get(pk=table.game_id)
    seats = {s.name: s for s in table.seats.all()}
    booked = {seats_name: 0 for seats_name in seats}
    for row in Seat.objects.filter(game=league_game).select_related("player"):
        name = next(n for n, s in seats.items() if s.player_id == row.player_id)
        booked[name] = row.final_credits
    for name, bot in league_game.replay_result["bots"].items():
        booked[name] = bot["final_credits"]
    at_table = {game.names[s.engine_seat]: game.stacks[s.engine_seat] for s in seats.values()}
    assert booked == at_table
    assert sum(booked.values()) == table.buy_in * len(seats)  # every credit brought is accounted for
    for row in Seat.objects.filter(game=league_game):
        ledger = LedgerEntry.objects.filter(game=league_game, player_id=row.player_id)
        assert sum(ledger.values_list("amount", flat=True)) == 0
    people = sorted(Seat.objects.filter(game=league_game).values_list("final_credits", "place"), reverse=True)
    assert people[0][1] == 1 and (people[1][1] == 1 if people[0][0] == people[1][0] else people[1][1] == 2)


def test_the_organiser_ends_a_running_league_table_at_its_next_hand_break_booked_as_it_stands(
    world, humans, league_table, scheduled
):
    org = world.users["organiser"]
    assert Game.from_json(league_table.state).in_hand
    state = table_state(league_table, user=org)
    assert state["can"]["end"] is True and table_state(league_table, user=humans[0])["can"]["end"] is False
    refused = client_for(humans[0]).post(f"/api/tables/{league_table.pk}/end/", {}, format="json")
    assert refused.status_code == 403
    answer = client_for(org).post(f"/api/tables/{league_table.pk}/end/", {}, format="json")
    assert answer.status_code == 200, answer.content
    league_table.refresh_from_db()
    assert league_table.ending and league_table.status == TableStatus.RUNNING  # the hand is played out first
    with pytest.raises(ConflictError, match="already ends"):
        services.table_end(actor=org, table=league_table)
    hands = Game.from_json(league_table.state).hands_played
    _run_until(league_table, scheduled, lambda t: t.status == TableStatus.FINISHED)
    assert league_table.status == TableStatus.FINISHED and not league_table.ending
    game = Game.from_json(league_table.state)
    assert game.hands_played == hands + 1  # ended at the first hand break, no new hand dealt
    _books_balance(league_table)
    # The replay file loads and verifies to the same stacks.
    document = LeagueGame.objects.get(pk=league_table.game_id).replay_document
    assert document is not None and replay_game(document, verify=True).stacks == game.stacks


def test_ending_between_hands_ends_at_once_and_the_page_offers_it_behind_a_confirmation(
    world, humans, league_table, scheduled
):
    org = world.users["organiser"]
    page = Client()
    page.force_login(org)
    html = page.get(f"/tables/{league_table.pk}/").content.decode()
    assert "End the game</button>" in html and "booked from the stacks as they stand" in html
    assert 'data-end-game data-confirm="' in html
    services.table_pause(actor=org, table=league_table)
    league_table.refresh_from_db()
    assert "End the game</button>" in page.get(f"/tables/{league_table.pk}/").content.decode()  # paused too
    services.table_resume(actor=org, table=league_table)
    _run_until(league_table, scheduled, lambda t: Game.from_json(t.state).between_hands)
    assert Game.from_json(league_table.state).between_hands
    response = page.post(f"/tables/{league_table.pk}/end/")
    assert response.status_code == 302
    league_table.refresh_from_db()
    assert league_table.status == TableStatus.FINISHED
    _books_balance(league_table)
    refused = client_for(org).post(f"/api/tables/{league_table.pk}/end/", {}, format="json")
    assert refused.status_code == 409 and "running or paused" in refused.json()["detail"]


def test_ending_is_refused_with_the_reason_at_a_cash_table_and_writes_nothing(world, humans, open_table, scheduled):
    org = world.users["organiser"]
    table = open_table(seats=2, preset="casino")
    services.seat_take(actor=org, table=table)
    services.seat_take(actor=humans[0], table=table)
    services.table_start(actor=org, table=table)
    table.refresh_from_db()
    version = table.version
    with pytest.raises(ConflictError, match="cash table is closed"):
        services.table_end(actor=org, table=table)
    table.refresh_from_db()
    assert table.version == version and not table.ending
    assert table_state(table, user=org)["can"]["end"] is False
