"""Chip counts where known: the stacks of players at online tables on the tournament's pages and API, the
average from the known stacks (saying how many are unknown) and the chip leader; stacks that follow the
players to the next online table, with every chip accounted for."""

import json

from games.engine import Game
from games.online import services as online
from games.online.models import OnlineSeat, OnlineTable
from tests.league.conftest import eager_tasks  # noqa: F401 (fixture)
from tournaments import selectors, services
from tournaments.models import Registration, RegistrationStatus

from .conftest import drawn, query_counts, signed_in


def _set_stacks(table: OnlineTable, stacks: dict[str, int]) -> None:
    """The stacks the seats bring to the table before it starts (as players coming from other tables would)."""
    for name, stack in stacks.items():
        OnlineSeat.objects.filter(table=table, name=name).update(stack=stack)


def test_pages_and_api_show_online_stacks_the_known_average_and_the_chip_leader(night, tournament, recorded):
    drawn(night, tournament, players=8)  # two tables of four
    table = services.tournament_online_table_open(actor=night.organiser, tournament=tournament, table_number=1)
    names = [seat.name for seat in table.seats.order_by("number")]
    _set_stacks(table, {names[0]: 300, names[1]: 700, names[2]: 450, names[3]: 250})
    online.table_start(actor=night.organiser, table=table)
    # A hand in progress counts what each had when it was dealt (the bets in the pot are still theirs).
    clock = selectors.clock_summary(tournament)
    assert clock["stacks_known"] == 4 and clock["stacks_unknown"] == 4
    assert clock["average_stack"] == (300 + 700 + 450 + 250) // 4
    assert "4 at physical tables not counted" in clock["average_note"]
    assert clock["chip_leader"]["name"] == names[1] and clock["chip_leader"]["stack"] == 700

    organiser = signed_in(night.organiser)
    for path in (f"/tournaments/{tournament.pk}/", f"/manage/tournaments/{tournament.pk}/"):
        page = organiser.get(path).content.decode()
        assert "700" in page and "4 at physical tables not counted" in page and f"{names[1]} · 700" in page
        leader = OnlineSeat.objects.get(table=table, name=names[1]).player_id
        assert f'data-stack="{leader}">700<' in page
    projector = organiser.get(f"/tournaments/{tournament.pk}/clock/").content.decode()
    assert f"{names[1]} · 700" in projector and ">425<" in projector
    api = organiser.get(f"/api/tournaments/{tournament.pk}/").json()
    stacks = {seat["name"]: seat["stack"] for seat in api["seats"]}
    assert stacks[names[1]] == 700 and sum(stack is None for stack in stacks.values()) == 4
    assert organiser.get(f"/api/tournaments/{tournament.pk}/clock/").json()["chip_leader"]["stack"] == 700


def test_with_no_online_table_the_average_says_no_stack_is_known(night, tournament):
    drawn(night, tournament, players=4)
    clock = selectors.clock_summary(tournament)
    assert clock["average_stack"] is None and clock["chip_leader"] is None
    assert clock["stacks_unknown"] == 4 and "no stack is known" in clock["average_note"]
    page = signed_in(night.organiser).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "no stack is known" in page
    # The projector shows a dash at the figure's size and the note small beneath it, not the note as the figure.
    projector = signed_in(night.organiser).get(f"/tournaments/{tournament.pk}/clock/").content.decode()
    dash = '<span data-clock="average_stack">\u2013</span>'
    assert dash + '<small class="p-note" data-clock="average_note">no stack' in projector


def test_the_pages_read_a_fixed_number_of_queries_however_many_online_tables(night, tournament, online_tables):
    drawn(night, tournament, players=12)  # three tables of four
    organiser = signed_in(night.organiser)
    paths = [
        f"/tournaments/{tournament.pk}/",
        f"/manage/tournaments/{tournament.pk}/",
        f"/tournaments/{tournament.pk}/clock/",
        f"/api/tournaments/{tournament.pk}/",
        f"/api/tournaments/{tournament.pk}/clock/",
    ]

    online_tables(tournament, 1)
    one = query_counts(organiser, paths)
    online_tables(tournament, 2, 3)
    assert selectors.clock_summary(tournament)["stacks_known"] == 12
    assert query_counts(organiser, paths) == one


def test_stacks_follow_the_players_to_their_next_online_table_and_every_chip_is_accounted_for(
    night, online_tables, table_one_played
):
    tournament, table, winner = table_one_played.tournament, table_one_played.table, table_one_played.winner
    starting = tournament.starting_stack
    game = Game.from_json(table.state)
    assert sorted(game.stacks) == [0, 2 * starting]

    # Three players left at three seats a table: table 1 breaks, its winner moves to table 2.
    services.tournament_balance(actor=night.organiser, tournament=tournament)
    winner.refresh_from_db()
    assert winner.table_number == 2
    second = online_tables(tournament, 2)[2]
    second.refresh_from_db()
    started = Game.from_json(second.state)
    brought = {seat.player_id: started.starting_stacks[seat.engine_seat] for seat in second.seats.all()}
    assert brought[winner.player_id] == 2 * starting
    assert sorted(brought.values()) == [starting, starting, 2 * starting]

    # Credits conserved: the known stacks plus the busted players' nothing are every entry's chips.
    field = Registration.objects.filter(tournament=tournament).exclude(status=RegistrationStatus.WAITING)
    chips_in = sum(r.entries for r in field) * starting  # a freezeout: no re-buy or add-on chips
    stacks = selectors.player_stacks(tournament)
    assert sum(stacks.values()) == chips_in
    assert Registration.objects.filter(tournament=tournament, status=RegistrationStatus.ELIMINATED).count() == 1


def test_a_player_still_playing_at_another_online_table_is_not_seated_twice(night, tournament, online_tables):
    drawn(night, tournament, players=8)
    online_tables(tournament, 1)
    moved = Registration.objects.filter(tournament=tournament, table_number=1).order_by("seat_number").first()
    Registration.objects.filter(pk=moved.pk).update(table_number=2, seat_number=9)
    before = OnlineTable.objects.count()
    response = signed_in(night.organiser).post(
        f"/api/tournaments/{tournament.pk}/actions/",
        json.dumps({"action": "open_online", "table": 2}),
        content_type="application/json",
    )
    assert response.status_code == 409, response.content
    assert "still playing at online table 1" in response.json()["detail"]
    assert OnlineTable.objects.count() == before
