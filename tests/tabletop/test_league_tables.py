"""League real-cards tables (issue 25): organisers open them at a game event (pages and API agree, players and
other leagues' organisers refused 403), the seats are the league's players (no guests, no outsiders), and the
finished game lands once as the event's league Game through the checked result path, with credits conserved,
the ledger hand by hand, the standings and every player's chip history; a casual table writes no league row."""

import threading

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from django.urls import reverse

from config.errors import ApplicationError, ConflictError
from games.models import Game, Seat
from games.tabletop import services
from games.tabletop.models import RealSeat, RealTable, RealTableStatus
from games.tabletop.permissions import NotAllowed
from league.models import EventKind, EventResult, LedgerEntry, LedgerKind, Membership, Standing, Visibility
from league.selectors import chip_history_for_game, chip_history_for_player
from league.services import standings_recompute
from tests.factories import EventFactory, PlayerFactory, client_as
from tests.tabletop.helpers import started_table
from tests.tabletop.league_helpers import (
    BUY_IN,
    league_world,
    play_hand_named,
    play_to_the_end,
    seated_league_table,
)

pytestmark = pytest.mark.django_db


def _api_open(user, event, **extra):
    return client_as(user).post("/api/tabletop/", {"event": event.pk, **extra}, content_type="application/json")


def test_an_organiser_opens_a_league_table_and_pages_and_api_refuse_the_same_people():
    world = league_world()
    table = services.realtable_open_league(actor=world.organiser, event=world.event)
    assert table.event == world.event and table.starting_credits == BUY_IN  # the event's buy-in
    assert (table.variant, table.preset) == ("coruscant_shift", "cantina")  # the league's rules
    assert table.seats.count() == 0  # the organiser runs it unless they say they play
    # The page: the organiser's form opens a table and goes to it; a player and another league's member get 403.
    answer = client_as(world.organiser).post(
        reverse("tabletop-league-open", args=[world.event.pk]), {"game": "coruscant_shift:cantina", "dice": "no"}
    )
    opened = RealTable.objects.exclude(pk=table.pk).get()
    assert answer.status_code == 302 and answer["Location"] == reverse("tabletop-table", args=[opened.code])
    assert opened.has_dice is False and opened.event == world.event
    before = RealTable.objects.count()
    for user in (world.ann, world.outsider):
        page = client_as(user).post(reverse("tabletop-league-open", args=[world.event.pk]), {})
        assert page.status_code == 403 and "Only organisers of" in page.content.decode()
        api = _api_open(user, world.event)
        assert api.status_code == 403 and "Only organisers of" in api.json()["detail"]
        with pytest.raises(NotAllowed):
            services.realtable_open_league(actor=user, event=world.event)
    assert RealTable.objects.count() == before  # refusals write nothing
    # The API opens one for the organiser, with the league's rules and the buy-in; rules checked by the engine.
    api = _api_open(world.organiser, world.event, has_dice=False)
    assert api.status_code == 201, api.content
    assert api.json()["starting_credits"] == BUY_IN and RealTable.objects.get(code=api.json()["code"]).event_id
    bad = _api_open(world.organiser, world.event, variant="coruscant_shift", preset="nope")
    assert bad.status_code == 400 and "presets" in bad.json()["detail"]
    assert _api_open(world.organiser, world.event, starting_credits=9).status_code == 400
    assert (
        client_as(world.organiser)
        .post("/api/tabletop/", {"event": 999999}, content_type="application/json")
        .status_code
        == 404
    )


def test_a_members_only_leagues_event_is_not_found_by_who_cannot_see_it():
    # As online tables: someone who cannot see the league learns nothing of it, its name or its event's, from the
    # page's form or the API (404, not a 403 naming the league); its organiser still opens the table.
    world = league_world()
    world.league.visibility = Visibility.MEMBERS
    world.league.save()
    before = RealTable.objects.count()
    for client in (client_as(world.outsider), Client()):
        page = client.post(reverse("tabletop-league-open", args=[world.event.pk]), {})
        api = client.post("/api/tabletop/", {"event": world.event.pk}, content_type="application/json")
        assert page.status_code == 404 and api.status_code == 404, (page.status_code, api.status_code)
        for answer in (page, api):
            text = answer.content.decode()
            assert world.league.name not in text and world.event.name not in text
    assert RealTable.objects.count() == before  # nothing written
    assert _api_open(world.organiser, world.event).status_code == 201


def test_tournament_events_and_finished_events_take_no_league_table():
    world = league_world()
    tournament = EventFactory(season=world.event.season, kind=EventKind.TOURNAMENT, status="running")
    with pytest.raises(ConflictError, match="tournament"):
        services.realtable_open_league(actor=world.organiser, event=tournament)
    finished = EventFactory(season=world.event.season, status="finished")
    answer = client_as(world.organiser).post(reverse("tabletop-league-open", args=[finished.pk]), {})
    assert answer.status_code == 409 and "is finished" in answer.content.decode()
    assert not RealTable.objects.exists()


def test_seats_are_the_league_players_no_guests_and_no_outsiders():
    world = league_world()
    table = services.realtable_open_league(actor=world.organiser, event=world.event, host_plays=True)
    organiser_seat = table.seats.get()
    assert organiser_seat.player.user == world.organiser
    ann = services.realseat_join(actor=world.ann, table=table, name="ignored")
    assert ann.player == world.ann_player and ann.name == world.ann_player.display_name and ann.user == world.ann
    with pytest.raises(NotAllowed, match="guests cannot sit here"):
        services.realseat_join(actor=AnonymousUser(), table=table, name="Guest")
    with pytest.raises(NotAllowed, match="only its members sit here"):
        services.realseat_join(actor=world.outsider, table=table)
    # The page says why, too (403), and writes nothing.
    page = client_as().post(
        reverse("tabletop-do", args=[table.code, "join"]), {"name": "Guest"}, HTTP_HX_REQUEST="true"
    )
    assert page.status_code == 403 and "guests cannot sit here" in page.content.decode()
    page = client_as(world.outsider).post(reverse("tabletop-do", args=[table.code, "join"]), {}, HTTP_HX_REQUEST="true")
    assert page.status_code == 403
    # The host seats Bob, who has no phone, by picking him from the league's players.
    host = client_as(world.organiser)
    fragment = host.get(reverse("tabletop-fragment", args=[table.code])).content.decode()
    assert 'data-action="seat-player"' in fragment and world.bob_player.display_name in fragment
    assert world.ann_player.display_name not in fragment.split('data-action="seat-player"')[1].split("</form>")[0]
    answer = host.post(
        reverse("tabletop-seat-player", args=[table.code]), {"player": world.bob_player.pk}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 200
    bob = table.seats.get(player=world.bob_player)
    assert bob.name == world.bob_player.display_name and bob.user == world.bob  # his phone may take the seat later
    outsider_player = world.outsider.player
    refused = host.post(
        reverse("tabletop-seat-player", args=[table.code]), {"player": outsider_player.pk}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 400 and "not a member" in refused.content.decode()
    with pytest.raises(ConflictError, match="already seated"):
        services.realseat_add(actor=world.organiser, table=table, player=world.ann_player.pk)
    with pytest.raises(NotAllowed):
        services.realseat_add(actor=world.ann, table=table, player=world.bob_player.pk)
    assert [s.name for s in table.seats.order_by("number")] == ["Orga", "Ann", "Bob"]
    # A member without an account is seated by the host and shown as a league player, never as a guest.
    phoneless = PlayerFactory(display_name="Dee", user=None)
    Membership.objects.create(league=world.league, player=phoneless)
    services.realseat_add(actor=world.organiser, table=table, player=phoneless.pk)
    fragment = host.get(reverse("tabletop-fragment", args=[table.code])).content.decode()
    assert "Dee" in fragment and "(guest)" not in fragment
    stranger = client_as().get(reverse("tabletop-fragment", args=[table.code])).content.decode()
    assert "Take a seat" in stranger and 'name="name"' not in stranger  # no name to give: a league player's is used


def test_a_finished_league_game_lands_once_with_credits_conserved_standings_and_chip_history():
    world = league_world()
    table = seated_league_table(world)
    play_to_the_end(table, world.organiser, winner=0)  # Ann takes every pot
    table.refresh_from_db()
    assert table.status == RealTableStatus.FINISHED and table.game is not None
    game = table.game
    assert game.event == world.event and game.status == "finished"
    seats = {s.player_id: s for s in Seat.objects.filter(game=game)}
    assert {p: (s.buy_in, s.final_credits, s.place) for p, s in seats.items()} == {
        world.ann_player.pk: (BUY_IN, 2 * BUY_IN, 1),
        world.bob_player.pk: (BUY_IN, 0, 2),
    }
    # Credits are conserved: what came in went out, and the game's ledger lines add up to nothing.
    assert sum(s.buy_in for s in seats.values()) == sum(s.final_credits for s in seats.values())
    lines = LedgerEntry.objects.filter(game=game)
    assert sum(lines.values_list("amount", flat=True)) == 0
    assert lines.filter(kind=LedgerKind.BUY_IN).count() == 2
    assert lines.filter(kind=LedgerKind.PAYOUT, player=world.ann_player).get().amount == -2 * BUY_IN
    hand_lines = lines.filter(kind__in=[LedgerKind.HAND_WON, LedgerKind.HAND_LOST]).order_by("hand", "player")
    assert sorted({line.hand for line in hand_lines}) == [1, 2]  # hand by hand
    assert game.hands and len(game.hands) == 2
    # The event's results, the standings and every player's chip history show it.
    assert set(EventResult.objects.filter(event=world.event).values_list("player_id", "place")) == {
        (world.ann_player.pk, 1),
        (world.bob_player.pk, 2),
    }
    standings_recompute(league_id=world.league.pk)
    ranks = dict(Standing.objects.filter(league=world.league, scope="all").values_list("player_id", "rank"))
    assert ranks[world.ann_player.pk] == 1 and ranks[world.bob_player.pk] == 2
    chips = chip_history_for_game(game_id=game.pk)
    by_name = {line["display_name"]: [(p["hand"], p["credits"]) for p in line["points"]] for line in chips["series"]}
    assert chips["hands_known"]
    assert by_name == {"Ann": [(0, 4), (1, 6), (2, 8)], "Bob": [(0, 4), (1, 2), (2, 0)]}
    bob_chips = chip_history_for_player(player=world.bob_player, league=world.league, season=None)
    assert [row["game"] for row in bob_chips["games"]] == [game.pk] and bob_chips["net_credits"] == -BUY_IN
    # Exactly once: ending again, booking again and the page's button are all refused, and nothing more is written.
    with pytest.raises(ConflictError, match="already over"):
        services.realtable_finish(actor=world.organiser, table=table)
    with pytest.raises(ConflictError, match="booked already"):
        services.realtable_land(actor=world.organiser, table=table)
    again = client_as(world.organiser).post(reverse("tabletop-land", args=[table.code]), HTTP_HX_REQUEST="true")
    assert again.status_code == 409
    assert (
        Game.objects.filter(event=world.event).count() == 1
        and LedgerEntry.objects.filter(game=game).count() == lines.count()
    )
    # The table's page says where its result went.
    page = client_as(world.ann).get(reverse("tabletop-table", args=[table.code])).content.decode()
    assert reverse("game-detail", args=[game.pk]) in page


def test_the_host_ends_a_league_game_between_hands_only():
    world = league_world()
    table = seated_league_table(world)
    play_hand_named(table, world.organiser, winner=1)  # Bob takes hand 1: Ann 2, Bob 6
    services.realtable_step(actor=world.organiser, table=table, step={"step": "deal"})
    with pytest.raises(ConflictError, match="Hand 2 is being played"):
        services.realtable_finish(actor=world.organiser, table=table)
    table.refresh_from_db()
    assert table.status == RealTableStatus.PLAYING and table.game is None
    with pytest.raises(NotAllowed):
        services.realtable_finish(actor=world.ann, table=table)
    services.realtable_undo(actor=world.organiser, table=table)
    services.realtable_finish(actor=world.organiser, table=table)
    table.refresh_from_db()
    finals = dict(Seat.objects.filter(game=table.game).values_list("player_id", "final_credits"))
    assert finals == {world.ann_player.pk: BUY_IN - 2, world.bob_player.pk: BUY_IN + 2}
    assert sum(finals.values()) == 2 * BUY_IN


def test_a_league_table_refuses_credits_brought_between_hands():
    world = league_world()
    table = seated_league_table(world)
    play_hand_named(table, world.organiser)
    version = RealTable.objects.get(pk=table.pk).version
    with pytest.raises(ApplicationError, match="fixed at the start"):
        services.realtable_step(actor=world.organiser, table=table, step={"step": "rebuy", "seat": 1, "amount": 4})
    assert RealTable.objects.get(pk=table.pk).version == version


def test_a_refused_landing_is_kept_and_booked_again_once_put_right():
    world = league_world()
    table = seated_league_table(world)
    membership = Membership.objects.get(league=world.league, player=world.bob_player)
    membership.delete()  # Bob left the league during the game: the checked path refuses his seat
    play_to_the_end(table, world.organiser)
    table.refresh_from_db()
    assert table.status == RealTableStatus.FINISHED and table.game is None
    assert "Not members of" in table.outcome["landing"]
    assert not Game.objects.exists() and not LedgerEntry.objects.exists()
    page = client_as(world.organiser).get(reverse("tabletop-fragment", args=[table.code])).content.decode()
    assert "Book the result again" in page and "Not members of" in page
    refused = client_as(world.organiser).post(reverse("tabletop-land", args=[table.code]), HTTP_HX_REQUEST="true")
    assert refused.status_code == 409 and not Game.objects.exists()
    with pytest.raises(NotAllowed):
        services.realtable_land(actor=world.ann, table=table)
    Membership.objects.create(league=world.league, player=world.bob_player)
    services.realtable_land(actor=world.organiser, table=table)
    table.refresh_from_db()
    assert table.game is not None and Game.objects.count() == 1
    with pytest.raises(ConflictError):
        services.realtable_land(actor=world.organiser, table=table)


def test_a_casual_table_finishing_writes_no_league_row():
    league_world()  # a league exists, with its event: the casual table stays out of it
    table, host, _ann, _bob = started_table()
    play_hand_named(table, host)
    services.realtable_finish(actor=host, table=table)
    table.refresh_from_db()
    assert table.status == RealTableStatus.FINISHED and table.game is None and table.event is None
    assert not Game.objects.exists() and not LedgerEntry.objects.exists() and not EventResult.objects.exists()
    assert not RealSeat.objects.filter(table=table, player__isnull=False).exists()


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_finishes_book_the_result_once():
    world = league_world(prefix="c")
    table = seated_league_table(world)
    play_hand_named(table, world.organiser)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def finish() -> None:
        try:
            barrier.wait(timeout=10)
            services.realtable_finish(actor=world.organiser, table=RealTable.objects.get(pk=table.pk))
            outcomes.append("done")
        except ConflictError as exc:
            outcomes.append(f"refused: {exc.message}")
        finally:
            connection.close()

    threads = [threading.Thread(target=finish) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["done", "refused: The game is already over."]
    assert Game.objects.filter(event=world.event).count() == 1
    game = Game.objects.get(event=world.event)
    assert LedgerEntry.objects.filter(game=game, kind=LedgerKind.BUY_IN).count() == 2
    assert RealTable.objects.get(pk=table.pk).game_id == game.pk


def test_the_api_seats_a_league_player_ends_the_game_and_refuses_booking_twice():
    world = league_world()
    table = services.realtable_open_league(actor=world.organiser, event=world.event)
    api = client_as(world.organiser)
    url = f"/api/tabletop/{table.code}"
    added = api.post(f"{url}/add/", {"player": world.ann_player.pk}, content_type="application/json")
    assert added.status_code == 200, added.content
    assert [s["name"] for s in added.json()["seats"]] == ["Ann"]
    refused = api.post(f"{url}/add/", {"name": "Guest"}, content_type="application/json")
    assert refused.status_code == 400 and "players of" in refused.json()["detail"]
    player_add = client_as(world.ann).post(
        f"{url}/add/", {"player": world.bob_player.pk}, content_type="application/json"
    )
    assert player_add.status_code == 403
    joined = client_as(world.bob).post(f"{url}/join/", {}, content_type="application/json")
    assert joined.status_code == 200 and joined.json()["you"] == 1
    guest = client_as().post(f"{url}/join/", {"name": "Cy"}, content_type="application/json")
    assert guest.status_code == 403 and "guests cannot sit here" in guest.json()["detail"]
    services.realtable_start(actor=world.organiser, table=table)
    play_hand_named(table, world.organiser)
    assert client_as(world.bob).post(f"{url}/finish/", content_type="application/json").status_code == 403
    ended = api.post(f"{url}/finish/", content_type="application/json")
    assert ended.status_code == 200 and ended.json()["status"] == "finished"
    table.refresh_from_db()
    assert table.game is not None
    again = api.post(f"{url}/book/", content_type="application/json")
    assert again.status_code == 409 and "booked already" in again.json()["detail"]
    assert Game.objects.count() == 1


def test_a_table_its_host_ended_says_game_over_and_asks_for_no_deal():
    """Ended between hands, the engine would deal next: the table, its phones and its screen say the game is over."""
    from games.tabletop.present import table_view

    world = league_world()
    table = seated_league_table(world)
    play_hand_named(table, world.organiser, winner=1)
    services.realtable_finish(actor=world.organiser, table=table)
    table.refresh_from_db()
    view = table_view(table, host=True, mine=None)
    assert view["prompt"]["due"] == "game_over" and "may" not in view["prompt"]
    assert "its host ended it" in view["prompt"]["says"]
