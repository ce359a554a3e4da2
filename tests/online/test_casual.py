"""Casual games ("play now", issue 23): anyone signed in plays against bots, in every variant, to the end, without
a league player; nothing is written in any league (no league game, seat, ledger line, event result, standings row
or chip history); the host runs it, anyone signed in with the link joins before the start, only its players see it
after; a refused request writes nothing; "My games" lists casual and league games apart; the API does the same."""

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from config.errors import ApplicationError, ConflictError
from games.engine import Game
from games.engine.variant import get_variant, variant_names
from games.models import Game as LeagueGame
from games.models import Seat
from games.online import services
from games.online.models import OnlineSeat, OnlineTable, TableStatus
from games.online.my_games import find_table, my_games
from games.online.permissions import NotAllowed
from league.models import AuditEntry, EventResult, LedgerEntry, Player, Standing
from tests.factories import UserFactory
from tests.league.conftest import client_for

pytestmark = pytest.mark.django_db


def _league_rows() -> tuple[int, ...]:
    return (
        LeagueGame.objects.count(),
        Seat.objects.count(),
        LedgerEntry.objects.count(),
        EventResult.objects.count(),
        Standing.objects.count(),
        Player.objects.count(),
    )


def _writes() -> tuple[int, ...]:
    return (*_league_rows(), OnlineTable.objects.count(), OnlineSeat.objects.count(), AuditEntry.objects.count())


def _play_through(scheduled, table: OnlineTable, host) -> OnlineTable:
    """Run the tasks until the game ends; a cash table (it never ends by itself) is closed by its host."""
    cash = table.options.get("end_rule") == "never"
    for _ in range(5_000):
        table.refresh_from_db()
        if table.status == TableStatus.FINISHED:
            break
        if table.status == TableStatus.PAUSED:  # everyone away: the game paused itself; the host comes back
            services.table_resume(actor=host, table=table)
            continue
        game = Game.from_json(table.state)
        if cash and game.between_hands and (game.hands_played >= 2 or not scheduled.calls):
            services.table_close(actor=host, table=table)
            continue
        if not scheduled.calls:
            break
        scheduled.run(scheduled.calls.pop(0))
    table.refresh_from_db()
    return table


@pytest.mark.parametrize("variant", variant_names())
def test_a_new_account_plays_a_casual_game_against_bots_to_the_end_writing_nothing_in_any_league(
    world, scheduled, variant, client
):
    newcomer = UserFactory(username=f"new-{variant}")  # no player profile, no league
    before = _league_rows()
    preset = next(iter(get_variant(variant).presets))
    table = services.casual_open(actor=newcomer, variant=variant, preset=preset, seats=3, bot_kind="sensible")
    assert table.event_id is None and table.is_casual and table.seats.get().user == newcomer
    if table.options.get("end_rule") != "never":
        table.options = {**table.options, "hands": 2}  # a short game: the engine ends it after two hands
        table.save(update_fields=["options"])
    services.table_start(actor=newcomer, table=table)
    table.refresh_from_db()
    assert [seat.is_bot for seat in table.seats.order_by("number")] == [False, True, True]
    # The player acts for themselves through the clock; the bots through theirs.
    table = _play_through(scheduled, table, newcomer)
    assert table.status == TableStatus.FINISHED, variant
    assert _league_rows() == before  # no league game, seat, ledger, result, standings or player
    assert table.game_id is None and table.outcome["standings"]
    assert sum(table.outcome["stacks"].values()) == 3 * table.buy_in
    mine = my_games(newcomer)
    assert [row["id"] for row in mine["casual"]] == [table.pk] and mine["league"] == []
    row = mine["casual"][0]
    assert row["place"] in (1, 2, 3) and row["final_credits"] == table.outcome["stacks"][newcomer.username]
    client.force_login(newcomer)
    assert client.get(row["links"]["hands"]).status_code == 200
    assert client.get(row["links"]["fair_decks"]).status_code == 200
    replay = client.get(row["links"]["replay"])
    assert replay.status_code == 200 and replay.json()["format"].startswith("sabacc-replay")
    page = client.get(reverse("online-my-games")).content.decode()
    assert f'href="/tables/{table.pk}/seeds/"' in page and "Casual games" in page


def test_only_the_host_runs_a_casual_game_friends_join_by_link_before_it_starts(world, scheduled):
    host, friend, stranger = UserFactory(username="host"), UserFactory(username="friend"), UserFactory()
    table = services.casual_open(actor=host, variant="coruscant_shift", seats=4)
    # The link (its invite token) works for anyone signed in while it is open; the number alone does not.
    assert find_table(friend, table.pk, invite=table.invite) is not None
    assert find_table(friend, table.pk) is None and find_table(friend, table.pk, invite="guess") is None
    assert find_table(None, table.pk, invite=table.invite) is None
    services.seat_take(actor=friend, table=table, invite=table.invite)
    before = _writes()
    for refused in (
        lambda: services.table_start(actor=friend, table=table),
        lambda: services.table_fill_bots(actor=friend, table=table, kind="random"),
        lambda: services.seat_take(actor=friend, table=table),
        lambda: services.seat_take(actor=None, table=table),
    ):
        with pytest.raises(ApplicationError):
            refused()
        assert _writes() == before  # a refused request writes nothing
    services.table_start(actor=host, table=table)
    table.refresh_from_db()
    assert find_table(stranger, table.pk) is None  # after the start: its players only
    assert find_table(friend, table.pk) is not None and find_table(host, table.pk) is not None
    with pytest.raises(ConflictError, match="before it starts"):
        services.seat_take(actor=stranger, table=table, invite=table.invite)
    with pytest.raises(ConflictError, match="once it has started"):
        services.seat_leave(actor=friend, table=table)
    with pytest.raises(NotAllowed):
        services.table_pause(actor=friend, table=table)
    services.table_pause(actor=host, table=table)


def test_casual_open_refuses_bad_choices_and_writes_nothing(world):
    user = UserFactory()
    before = _writes()
    for bad in (
        {"variant": "poker"},
        {"variant": "classic", "preset": "halcyon"},
        {"seats": 1},
        {"seats": 9},
        {"bot_kind": "genius"},
        {"turn_seconds": 4},
        {"seats": "4"},
    ):
        with pytest.raises(ApplicationError):
            services.casual_open(actor=user, **bad)
        assert _writes() == before
    with pytest.raises(NotAllowed):
        services.casual_open(actor=None)
    assert _writes() == before


def test_the_api_opens_joins_starts_and_lists_casual_games_with_the_same_rules(world, scheduled):
    host, friend, stranger = UserFactory(username="api-host"), UserFactory(username="api-friend"), UserFactory()
    body = {"variant": "corellian_spike", "seats": 2, "bot": "random"}
    answer = client_for(host).post("/api/tables/casual/", body, format="json")
    assert answer.status_code == 201, answer.content
    pk = answer.json()["table"]["id"]
    assert OnlineTable.objects.get(pk=pk).bot_kind == "random"
    assert answer.json()["you"]["seat"] == 0 and answer.json()["can"]["start"]
    invite = answer.json()["table"]["invite"]  # the host's answer carries the share link's token
    assert invite == OnlineTable.objects.get(pk=pk).invite
    assert client_for(friend).post(f"/api/tables/{pk}/join/", {"invite": invite}, format="json").status_code == 200
    before = _writes()
    assert client_for(friend).post(f"/api/tables/{pk}/start/", {}, format="json").status_code == 403
    full = {"invite": invite}
    assert client_for(stranger).post(f"/api/tables/{pk}/join/", full, format="json").status_code == 409  # full
    assert client_for(host).post("/api/tables/casual/", {"seats": 12}, format="json").status_code == 400
    assert client_for(host).post("/api/tables/casual/", {"colour": "red"}, format="json").status_code == 400
    assert client_for(None).post("/api/tables/casual/", {}, format="json").status_code in (401, 403)
    assert _writes() == before
    assert client_for(host).post(f"/api/tables/{pk}/start/", {}, format="json").status_code == 200
    assert client_for(stranger).get(f"/api/tables/{pk}/").status_code == 404  # not theirs once it started
    state = client_for(friend).get(f"/api/tables/{pk}/").json()
    assert state["table"]["league"] is None and state["table"]["event"] is None and state["you"]["seat"] == 1
    mine = client_for(friend).get("/api/tables/mine/").json()
    assert [row["id"] for row in mine["casual"]] == [pk] and mine["league"] == []
    assert client_for(None).get("/api/tables/mine/").status_code in (401, 403)


def test_the_play_now_page_form_opens_a_game_and_my_games_keeps_league_tables_apart(world, heads_up, client):
    client.force_login(world.users["member"])
    answer = client.post(reverse("online-play"), {"game": "classic:classic", "seats": "5", "bot": "random"})
    table = OnlineTable.objects.get(event=None)
    assert answer.status_code == 302 and answer["Location"] == reverse("online-table", args=[table.pk])
    assert (table.variant, table.seat_count, table.bot_kind) == ("classic", 5, "random")
    page = client.get(answer["Location"]).content.decode()
    assert "Casual game (no league)" in page
    assert "friends join with this link before you start it, and empty seats get bots" in page
    mine = my_games(world.users["member"])
    assert [row["id"] for row in mine["casual"]] == [table.pk]
    assert [row["id"] for row in mine["league"]] == [heads_up.pk] and mine["league"][0]["league"]
    bad = client.post(reverse("online-play"), {"game": "classic:nope"})
    assert bad.status_code == 302 and OnlineTable.objects.filter(event=None).count() == 1
    for url in (reverse("home"), reverse("online-lobby")):
        assert 'id="play-now-button"' in client.get(url).content.decode()


def test_a_short_game_ends_after_the_hands_chosen_in_the_play_now_form_and_the_api(world, scheduled, client):
    """ "Length" on the play-now form: the whole game, or a short game of 3, 5 or 10 hands (the engine's `hands`)."""
    user = UserFactory(username="short-game")
    client.force_login(user)
    form = client.get(reverse("home")).content.decode()
    assert '<select name="hands">' in form and '<option value="3">A short game: 3 hands</option>' in form
    answer = client.post(reverse("online-play"), {"game": "corellian_spike:galaxy_series", "seats": "2", "hands": "1"})
    table = OnlineTable.objects.get(created_by=user)
    assert answer.status_code == 302 and table.options["hands"] == 1
    assert "ends after 1 hand ·" in client.get(answer["Location"]).content.decode()
    opened = table.created_at.isoformat()
    mine = client.get(reverse("online-my-games")).content.decode()
    shown = date_format(timezone.localtime(table.created_at), "j M Y H:i")  # the site's format, as other pages
    assert f'<time class="muted" datetime="{opened}" title="Opened">{shown}</time>' in mine
    assert "<title>My games · Sabacc leagues</title>" in mine
    services.table_start(actor=user, table=table)
    table = _play_through(scheduled, table, user)
    assert table.status == TableStatus.FINISHED and len(table.results) == 1  # one hand, then the game is over
    hands = client.get(reverse("online-hands", args=[table.pk])).content.decode()
    assert 'class="crumbs"><a href="/tables/mine/">My games</a>' in hands  # a casual game is in My games, not Tables
    assert "The whole game as a replay file" in hands and "as sabacc-replay/2<" not in hands  # words, no version
    seeds = client.get(reverse("online-seeds", args=[table.pk])).content.decode()
    assert 'class="crumbs"><a href="/tables/mine/">My games</a>' in seeds
    before = _writes()
    for bad in ("0", "101", "many"):
        client.post(reverse("online-play"), {"game": "classic:classic", "hands": bad})
        assert _writes() == before
    with pytest.raises(ApplicationError, match="number of hands must be a whole number from 1 to 100"):
        services.casual_open(actor=user, hands=0)
    assert _writes() == before
    api = client_for(user).post("/api/tables/casual/", {"variant": "classic", "hands": 5}, format="json")
    assert api.status_code == 201 and api.json()["table"]["hands"] == 5
    assert client_for(user).post("/api/tables/casual/", {"hands": 0}, format="json").status_code == 400
    whole = services.casual_open(actor=user, variant="classic")
    assert whole.options.get("hands") is None


def test_the_game_over_panel_says_where_the_game_counts(world, open_table, scheduled, client):
    """A league table's game over says bots never count there; a casual game's says it counts in no league."""
    organiser = world.users["organiser"]
    client.force_login(organiser)
    league_table = open_table(seats=2, turn_seconds=20, preset="casino")
    services.seat_take(actor=organiser, table=league_table)
    services.table_fill_bots(actor=organiser, table=league_table)
    services.table_start(actor=organiser, table=league_table)
    assert _play_through(scheduled, league_table, organiser).status == TableStatus.FINISHED
    page = client.get(reverse("online-table", args=[league_table.pk])).content.decode()
    assert f"In {world.league.name} bots never count: no place, points or ledger line for them" in page
    casual = services.casual_open(actor=organiser, variant="coruscant_shift", preset="halcyon", seats=2)
    services.table_start(actor=organiser, table=casual)
    assert _play_through(scheduled, casual, organiser).status == TableStatus.FINISHED
    page = client.get(reverse("online-table", args=[casual.pk])).content.decode()
    assert "A casual game: it counts in no league" in page and "bots never count" not in page


def test_a_casual_game_whose_every_person_is_away_pauses_itself_and_resumes_with_its_host(world, scheduled, client):
    host = UserFactory(username="wanderer")
    table = services.casual_open(actor=host, variant="coruscant_shift", preset=None, seats=3, bot_kind="sensible")
    services.table_start(actor=host, table=table)
    seat = table.seats.get(user=host)
    for _ in range(500):  # the host never acts: the clock acts for them, twice, and they are away
        table.refresh_from_db()
        if table.status != TableStatus.RUNNING or not scheduled.calls:
            break
        scheduled.run(scheduled.calls.pop(0))
    table.refresh_from_db()
    seat.refresh_from_db()
    assert table.status == TableStatus.PAUSED and seat.away and table.deadline is None
    # Nothing plays on while it is paused: whatever was sent already finds a paused table and does nothing.
    version, state = table.version, table.state
    while scheduled.calls:
        scheduled.run(scheduled.calls.pop(0))
    table.refresh_from_db()
    assert (table.version, table.state) == (version, state)
    client.force_login(host)
    page = client.get(reverse("online-table", args=[table.pk])).content.decode()
    assert "data-paused" in page
    assert "Press <strong>Resume</strong> or <strong>I'm back</strong> when you are back" in page
    # Resume: the host is back (their turns wait for them again) and the game goes on.
    services.table_resume(actor=host, table=table)
    table.refresh_from_db()
    seat.refresh_from_db()
    assert table.status == TableStatus.RUNNING and not seat.away and seat.timeouts == 0
    assert table.due and scheduled.calls  # what is due next is recorded and sent again


def test_a_league_table_plays_on_when_its_players_are_away(world, humans, heads_up, scheduled):
    from tests.online.test_tasks import member_acts_or_clock_runs

    for _ in range(60):
        member_acts_or_clock_runs(world, humans, heads_up, scheduled)
        heads_up.refresh_from_db()
        if heads_up.seats.filter(away=True).exists():
            break
    assert heads_up.seats.filter(away=True).exists() and heads_up.status == TableStatus.RUNNING
