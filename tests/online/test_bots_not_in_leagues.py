"""Bots are never league players (issue 23): a league game with bot seats books no league seat, ledger line, event
result or standings row for a bot, in every variant; the bots' results stay on the game's record; the people are
placed among themselves; a tournament's table takes no bots; and the data migration takes old bot rows away."""

import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from config.errors import ConflictError
from games.engine.variant import get_variant, variant_names
from games.models import Game as LeagueGame
from games.models import Seat
from games.online import services
from games.online.models import OnlineSeat, SeatKind
from games.online.selectors import table_state
from league.models import EventResult, LedgerEntry, LedgerKind, Player, Standing
from league.services import standings_recompute
from tests.online.test_credits_at_the_end import _play_to_the_end

pytestmark = pytest.mark.django_db

FIRST_PRESETS = [(variant, next(iter(get_variant(variant).presets))) for variant in variant_names()]


def _people_only(world, table) -> None:
    people = {seat.player_id for seat in table.seats.all() if seat.kind == SeatKind.PLAYER}
    assert people == {world.users["organiser"].player.pk, world.users["member"].player.pk}
    assert not Player.objects.filter(display_name__contains=" bot ").exists()
    assert set(Seat.objects.filter(game_id=table.game_id).values_list("player_id", flat=True)) == people
    assert set(LedgerEntry.objects.filter(event=world.event).values_list("player_id", flat=True)) == people
    assert set(EventResult.objects.filter(event=world.event).values_list("player_id", flat=True)) == people
    standing_players = set(Standing.objects.filter(league=world.league).values_list("player_id", flat=True))
    assert standing_players == people  # the two people, and no bot
    places = sorted(EventResult.objects.filter(event=world.event).values_list("place", "players"))
    assert places in ([(1, 2), (2, 2)], [(1, 2), (1, 2)])  # placed among the people: bots take no place


def _allow_old_bot_seats() -> None:
    """Lift the check that a bot's seat has no player, for this test's transaction: the old rows broke it."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA ignore_check_constraints = ON")  # SQLite: until the connection closes
        return
    with connection.cursor() as cursor:  # the deferred foreign-key checks first: a table with pending ones cannot alter
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    constraint = next(each for each in OnlineSeat._meta.constraints if each.name == "online_seat_bot_has_no_player")
    with connection.schema_editor() as editor:
        editor.remove_constraint(OnlineSeat, constraint)


@pytest.mark.parametrize(("variant", "preset"), FIRST_PRESETS)
def test_a_league_game_with_bots_books_nothing_for_them_in_every_variant(world, scheduled, client, variant, preset):
    people = [world.users["organiser"], world.users["member"]]
    table = _play_to_the_end(world, scheduled, variant, preset, seats=4, hands=2, kind="sensible", people=people)
    type(world.event).objects.filter(pk=world.event.pk).update(status="finished")  # the night is over: it counts
    standings_recompute(league_id=world.league.pk)
    _people_only(world, table)
    record = LeagueGame.objects.get(pk=table.game_id).replay_result
    bots = {seat.name: seat for seat in table.seats.all() if seat.is_bot}
    assert sorted(record["bots"]) == sorted(bots) and len(bots) == 2
    assert all(seat.player_id is None and seat.bot_kind == "sensible" for seat in bots.values())
    page = client.get(reverse("game-detail", args=[table.game_id])).content.decode()
    assert "Bots (not league players" in page and all(name in page for name in bots)
    # The table's "Game over" list: bots without a place, the people numbered as their booked result.
    client.force_login(world.users["organiser"])
    table_page = client.get(reverse("online-table", args=[table.pk])).content.decode()
    listed = table_page.split('class="final-standings"')[1].split("</ul>")[0]
    for name in bots:
        assert f"{name}: " in listed and f"data-bot-row>{name}: " in listed
    assert listed.count("(bot: no place)") == len(bots)
    for seat in Seat.objects.filter(game_id=table.game_id).select_related("player"):
        online = table.seats.get(player=seat.player)
        assert f">{online.name}: {seat.final_credits} credit" in listed
        plural = "s" if seat.final_credits != 1 else ""
        assert f"{online.name}: {seat.final_credits} credit{plural} (place {seat.place})" in listed
    assert "(place 3)" not in listed and "(place 4)" not in listed


def test_bots_seated_by_random_kind_have_no_player_and_take_no_buy_in(world, open_table, scheduled):
    table = open_table(seats=4)
    services.seat_take(actor=world.users["organiser"], table=table)
    seats = services.table_fill_bots(actor=world.users["organiser"], table=table, kind="random")
    assert [seat.name for seat in seats] == ["Random bot 2", "Random bot 3", "Random bot 4"]
    assert all(seat.player_id is None for seat in seats)
    services.table_start(actor=world.users["organiser"], table=table)
    table.refresh_from_db()
    buy_ins = LedgerEntry.objects.filter(game_id=table.game_id, kind=LedgerKind.BUY_IN)
    assert [entry.player.user for entry in buy_ins] == [world.users["organiser"]]
    assert Seat.objects.filter(game_id=table.game_id).count() == 1


def test_a_tournaments_table_takes_no_bots_and_writes_nothing(world, scheduled):
    world.event.status = "planned"
    world.event.save()
    table = services.table_open_seated(
        actor=world.users["organiser"],
        event=world.event,
        name="Table 1",
        players=world.players[:2],
        stack=1000,
        option_overrides={"end_rule": "never"},
        tournament_table=1,
        seat_count=4,
    )
    before = (table.seats.count(), Player.objects.count())
    # Not offered (the page shows no "Fill empty seats" button), and refused when asked all the same.
    assert table_state(table, user=world.users["organiser"])["can"]["fill_bots"] is False
    with pytest.raises(ConflictError, match="bots do not play tournaments"):
        services.table_fill_bots(actor=world.users["organiser"], table=table, kind="sensible")
    assert (table.seats.count(), Player.objects.count()) == before


def test_the_migration_takes_old_bot_rows_out_of_the_league_and_rebuilds_its_standings(world, open_table, scheduled):
    """A game played the old way (the bot seat playing as a guest player "Sensible bot 2", with a league seat, a
    ledger and standings) loses the bot's rows; the person keeps theirs, now first among people."""
    organiser = world.users["organiser"]
    table = open_table(seats=2, option_overrides={"hands": 1})
    services.seat_take(actor=organiser, table=table)
    services.table_fill_bots(actor=organiser, table=table, kind="sensible")
    services.table_start(actor=organiser, table=table)
    scheduled.drain(table)
    table.refresh_from_db()
    assert table.status == "finished"
    # The old way: the bot's seat played as a guest player with its own league rows.
    _allow_old_bot_seats()
    bot = Player.objects.create(display_name="Sensible bot 2")
    bot_seat = table.seats.get(kind=SeatKind.BOT)
    OnlineSeat.objects.filter(pk=bot_seat.pk).update(player=bot)
    person = Seat.objects.get(game_id=table.game_id)
    final = OnlineSeat.objects.get(pk=bot_seat.pk)
    Seat.objects.create(game_id=table.game_id, player=bot, number=2, buy_in=table.buy_in, final_credits=0, place=1)
    Seat.objects.filter(pk=person.pk).update(place=2)
    LedgerEntry.objects.create(event=world.event, game_id=table.game_id, player=bot, kind="buy_in", amount=5)
    LedgerEntry.objects.create(event=world.event, game_id=table.game_id, player=bot, kind="payout", amount=-5)
    from games.selectors import event_result_rows
    from league.services import event_results_rebuild

    event_results_rebuild(event=world.event, seats=event_result_rows(world.event.pk))
    type(world.event).objects.filter(pk=world.event.pk).update(status="finished")
    standings_recompute(league_id=world.league.pk)
    assert Standing.objects.filter(player=bot).exists()

    migration = importlib.import_module("games.migrations.0011_bots_leave_the_leagues")
    apps = MigrationExecutor(connection).loader.project_state(("games", "0011_bots_leave_the_leagues")).apps
    migration.bots_leave_the_leagues(apps, None)
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA ignore_check_constraints = OFF")

    assert not Player.objects.filter(pk=bot.pk).exists()
    assert OnlineSeat.objects.get(pk=final.pk).player_id is None
    assert list(Seat.objects.filter(game_id=table.game_id).values_list("player_id", "place")) == [(person.player_id, 1)]
    assert not LedgerEntry.objects.filter(player_id=bot.pk).exists()
    assert not Standing.objects.filter(player_id=bot.pk).exists()
    assert (EventResult.objects.get(event=world.event).place, EventResult.objects.get(event=world.event).players) == (
        1,
        1,
    )
    assert "Sensible bot 2" in LeagueGame.objects.get(pk=table.game_id).replay_result["bots"]
    # One person against bots is a one-player event: the league's `min_players` (2) leaves it out of standings.
    assert not Standing.objects.filter(league=world.league).exists()
