"""A tournament's physical tables played on real cards (issue 25): the control room opens them (managers only, the
page and the API alike) with the tournament's seats, rules and stacks; each next hand plays the clock's level; the
clock's average stack and chip leader are the tables' live stacks; a bust eliminates; a Halcyon table's game lands
in its round once."""

import contextlib
import json

import pytest
from django.db import transaction
from django.utils import timezone

from config.errors import ConflictError
from games.engine.realcards.due import due
from games.tabletop import services as tabletop
from games.tabletop.models import RealTable, RealTableStatus
from league.models import AuditEntry, ChipSet
from tests.tabletop.helpers import act_step, roll_dice
from tests.tournaments.conftest import STRUCTURE, drawn, rebuy_tournament, signed_in
from tournaments import selectors, services, tasks
from tournaments.models import Format, Registration, RegistrationStatus
from tournaments.services.online import rebuy_period_sweep
from tournaments.structures import Level, structure_to_json

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager_tasks():
    """Queued tasks run in-process (also with REDIS_URL set): a table's reports reach the tournament at once."""
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


def freezeout(night, players: int, *, per_table: int = 4, stack: int = 100):
    tournament = services.tournament_create(
        actor=night.organiser, event=night.event, structure=STRUCTURE, seats_per_table=per_table, starting_stack=stack
    )
    return drawn(night, tournament, players)


def halcyon(night, players: int):
    night.event.chip_set = ChipSet.objects.get(slug="simple")
    night.event.save()
    tournament = services.tournament_create(
        actor=night.organiser,
        event=night.event,
        structure=structure_to_json([Level(ante=1, length=1, unit="hands")]),
        format=Format.HALCYON,
        starting_stack=10,
        seats_per_table=players,
        payout_template="top_3",
    )
    return drawn(night, tournament, players)


def seated(tournament, number: int = 1) -> list[int]:
    return list(
        Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED, table_number=number)
        .order_by("seat_number", "pk")
        .values_list("player_id", flat=True)
    )


def game_of(table: RealTable):
    table.refresh_from_db()
    return tabletop.load_game(table)


def play_hand(table: RealTable, host, *, winner: int = 0, all_in: set[int] = frozenset()) -> None:
    """The host runs one hand for everyone: keep 2, add none, seats in `all_in` go all in and the others call or
    check; the table names `winner` the winner of every pot."""
    tabletop.realtable_step(actor=host, table=table, step={"step": "deal"})
    play_hand_rest(table, host, winner=winner, all_in=all_in)


def play_hand_rest(table: RealTable, host, *, winner: int = 0, all_in: set[int] = frozenset()) -> None:
    """Finish the hand in play as `play_hand` plays one (seat 0 named the winner by default)."""
    for _ in range(60):
        now = due(game_of(table))
        if now["due"] == "dice":
            roll_dice(table, host)
        elif now["due"] == "act":
            bets = ("allin", "check", "call") if now["seats"][0] in all_in else ("check", "call")
            tabletop.realtable_step(actor=host, table=table, step=act_step(now, bets))
        elif now["due"] in ("reveal", "winners"):
            pots = now.get("or_name_winners") or now.get("pots")
            for pot in pots:
                seats = [winner] if winner in pot["eligible"] else pot["eligible"][:1]
                tabletop.realtable_step(
                    actor=host, table=table, step={"step": "winners", "pot": pot["pot"], "seats": seats}
                )
        else:
            return  # the next deal, or the game is over
    raise AssertionError("the hand did not end")


def open_real(night, tournament, number: int = 1, **data) -> RealTable:
    response = signed_in(night.organiser).post(
        f"/api/tournaments/{tournament.pk}/actions/",
        data=json.dumps({"action": "open_real_cards", "table": number, **data}),
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    return RealTable.objects.get(event=tournament.event, tournament_table=number, status=RealTableStatus.PLAYING)


def test_only_the_tournaments_managers_open_a_real_cards_table_and_the_page_and_the_api_agree(night):
    tournament = freezeout(night, 8)  # two tables of four
    member = signed_in(night.member)
    page = member.post(f"/manage/tournaments/{tournament.pk}/", {"action": "open_real_cards", "table": 1})
    api = member.post(
        f"/api/tournaments/{tournament.pk}/actions/",
        data=json.dumps({"action": "open_real_cards", "table": 1}),
        content_type="application/json",
    )
    assert page.status_code == 403 and api.status_code == 403
    assert not RealTable.objects.exists()

    organiser = signed_in(night.organiser)
    response = organiser.post(
        f"/manage/tournaments/{tournament.pk}/", {"action": "open_real_cards", "table": 1, "section": "online"}
    )
    assert response.status_code == 302
    first = RealTable.objects.get(tournament_table=1)
    assert first.has_dice and first.host == night.organiser and first.event == night.event
    second = open_real(night, tournament, 2, has_dice=False)
    assert not second.has_dice
    # The control room links each table played on real cards instead of offering it again.
    room = organiser.get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert f'href="/tabletop/{first.code}/" data-real-table="1"' in room
    assert 'data-action="open-real-cards-1"' not in room and 'data-action="open-real-cards-2"' not in room
    detail = organiser.get(f"/api/tournaments/{tournament.pk}/").json()
    assert [(row["table"], row["code"]) for row in detail["real_cards_tables"]] == [(1, first.code), (2, second.code)]
    # Once per table; nor online while it plays on real cards.
    again = organiser.post(
        f"/manage/tournaments/{tournament.pk}/", {"action": "open_real_cards", "table": 1, "section": "online"}
    )
    assert again.status_code == 409 and "already being played on real cards" in again.content.decode()
    with pytest.raises(ConflictError, match="being played on real cards"):
        services.tournament_online_table_open(actor=night.organiser, tournament=tournament, table_number=1)
    assert RealTable.objects.count() == 2


def test_the_seats_rules_and_stacks_come_from_the_tournament_and_a_later_table_takes_the_stacks_known(night):
    tournament = freezeout(night, 3, stack=100)
    table = open_real(night, tournament)
    players = seated(tournament)
    assert list(table.seats.order_by("number").values_list("player_id", flat=True)) == players
    assert [row[1] for row in table.setup["players"]] == [100, 100, 100]
    assert table.setup["variant"] == night.league.variant and table.status == RealTableStatus.PLAYING
    assert table.setup["options"]["escalation"] == "none"  # the levels come from the clock only
    # A seated player with an account sits at their own seat, and their tournament page links the table.
    own = table.seats.get(player__user=night.member)
    assert own.user == night.member
    page = signed_in(night.member).get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "data-my-real-table" in page and f'href="/tabletop/{table.code}/"' in page

    play_hand(table, night.organiser, winner=0)
    stacks = game_of(table).stacks
    assert stacks[0] > 100 and sum(stacks) == 300
    tabletop.realtable_finish(actor=night.organiser, table=table)  # the table breaks; its players sit again
    later = open_real(night, tournament)
    assert later.pk != table.pk
    assert [row[1] for row in later.setup["players"]] == stacks  # each player's stack as the tournament knows it


def test_the_clocks_level_reaches_the_next_hands_blinds_never_the_hand_in_play(night):
    tournament = freezeout(night, 3)
    table = open_real(night, tournament)
    services.tournament_clock_move(actor=night.organiser, tournament=tournament, levels=1)  # level 2: 10/20
    tabletop.realtable_step(actor=night.organiser, table=table, step={"step": "deal"})
    game = game_of(table)
    assert table.steps[0] == {"step": "levels", "ante": 0, "small_blind": 10, "big_blind": 20}
    assert table.changes[0]["by"] == "the clock" and table.steps[1] == {"step": "deal"}
    assert sorted(game.game.hand.contributions.values()) == [0, 10, 20]

    services.tournament_clock_move(actor=night.organiser, tournament=tournament, levels=1)  # a break: 25/50 next
    assert game_of(table).game.hand.levels.big_blind == 20  # the hand being played keeps its blinds
    play_hand_rest(table, night.organiser)
    tabletop.realtable_step(actor=night.organiser, table=table, step={"step": "deal"})
    game = game_of(table)
    assert (game.game.levels.small_blind, game.game.levels.big_blind) == (25, 50)
    assert sorted(game.game.hand.contributions.values()) == [0, 25, 50]
    # The level shows at the table: its page says the blinds in force.
    page = signed_in(night.organiser).get(f"/tabletop/{table.code}/").content.decode()
    assert "25/50" in page


def busted_table(night, *, winner: int = 1, on_commit=None, **options):
    """A re-buy tournament of three at one real-cards table (returned with the players' ids by seat); everyone goes
    all in and seat `winner` takes it all. `on_commit` (pytest-django's `django_capture_on_commit_callbacks`): the
    hand's after-commit work (its reports to the tournament) runs, as after a real commit."""
    tournament = rebuy_tournament(night, players=night.players[:3], starting_stack=100, **options)
    table = open_real(night, tournament)
    players = seated(tournament)
    with on_commit(execute=True) if on_commit else contextlib.nullcontext():
        play_hand(table, night.organiser, winner=winner, all_in={0, 1, 2})
    table.refresh_from_db()
    return tournament, table, players


def test_the_clocks_average_stack_and_chip_leader_are_the_tables_live_stacks(night):
    tournament = freezeout(night, 3)
    before = selectors.clock_summary(tournament)
    assert before["average_stack"] is None and "no stack is known" in before["average_note"]
    table = open_real(night, tournament)
    play_hand(table, night.organiser, winner=1)
    tabletop.realtable_step(actor=night.organiser, table=table, step={"step": "deal"})  # a hand in play
    stacks = dict(zip(seated(tournament), _live(table), strict=True))
    assert len(set(stacks.values())) > 1  # chips have moved
    clock = signed_in(night.organiser).get(f"/api/tournaments/{tournament.pk}/clock/").json()
    assert clock["stacks_known"] == 3 and clock["stacks_unknown"] == 0
    assert clock["average_stack"] == sum(stacks.values()) // 3 == 100  # no chip made or lost
    leader = max(stacks, key=stacks.get)
    assert clock["chip_leader"]["player"] == leader and clock["chip_leader"]["stack"] == stacks[leader]
    projector = signed_in(night.organiser).get(f"/tournaments/{tournament.pk}/clock/").content.decode()
    assert '<span data-clock="average_stack">100</span>' in projector


def _live(table: RealTable) -> list[int]:
    """Each seat's stack counting what it has put into the hand in play."""
    game = game_of(table).game
    return [
        game.stacks[s] + (game.hand.contributions.get(s, 0) if game.in_hand else 0) for s in range(len(game.stacks))
    ]


def test_a_bust_at_a_real_cards_table_eliminates_the_player_with_place_and_knockout(
    night, eager_tasks, django_capture_on_commit_callbacks
):
    tournament = freezeout(night, 3, stack=100)
    table = open_real(night, tournament)
    players = seated(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        play_hand(table, night.organiser, winner=2, all_in={0, 1, 2})  # everyone all in; seat 3 takes it all
    out = Registration.objects.filter(tournament=tournament, status=RegistrationStatus.ELIMINATED)
    assert sorted(r.player_id for r in out) == sorted(players[:2])
    assert sorted(r.place for r in out) == [2, 3]
    assert {r.eliminated_by_id for r in out} == {players[2]}
    assert AuditEntry.objects.filter(action="tournament_eliminate", data__source="real_cards").count() == 2
    # The table's one player holding chips has them all: its game is over, no chip made or lost.
    table.refresh_from_db()
    assert table.status == RealTableStatus.FINISHED and game_of(table).stacks == [0, 0, 300]
    # A repeated report eliminates nobody twice.
    game = game_of(table).game
    busts = [{"player_id": p, "knocked_out_by": players[2], "stack": 100} for p in players[:2]]
    assert (
        tasks.realcards_busts.run(event_id=night.event.pk, table_id=table.pk, hand=game.hands_played, busts=busts) == 0
    )


def test_a_halcyon_real_cards_table_lands_in_its_round_once(night, eager_tasks, django_capture_on_commit_callbacks):
    tournament = halcyon(night, 3)
    table = open_real(night, tournament)
    assert table.setup["preset"] == "halcyon" and [row[1] for row in table.setup["players"]] == [10, 10, 10]
    # While it plays, the result is the table's: the manual form is refused, and not offered.
    with pytest.raises(ConflictError, match="being played on real cards"):
        services.tournament_halcyon_table_entered(
            actor=night.organiser, tournament=tournament, table_number=1, results=[]
        )
    room = signed_in(night.organiser).get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert 'data-action="halcyon-enter-1"' not in room
    players = seated(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):  # every player deals once
            play_hand(table, night.organiser, winner=0)
    table.refresh_from_db()
    assert table.status == RealTableStatus.FINISHED
    assert not [step for step in table.steps if step["step"] == "levels"]  # the clock leaves Halcyon's bets alone
    tournament.refresh_from_db()
    stacks = game_of(table).stacks
    assert sum(stacks) == 30  # credits conserved: a Halcyon game pays every credit out
    recorded = {row[0]: row[1] for row in tournament.rounds[-1]["1"]}
    assert recorded == dict(zip(players, stacks, strict=True))
    places = dict(Registration.objects.filter(tournament=tournament).values_list("player_id", "place"))
    assert places[players[0]] == 1  # the table's winner: one table decides the places
    # Exactly once: the task again, the service again, record nothing more.
    assert tasks.realcards_table.run(event_id=night.event.pk, table_id=table.pk, tournament_table=1) is False
    assert services.tournament_realcards_result(table_id=table.pk) is None
    entries = AuditEntry.objects.filter(action="tournament_halcyon_table", data__real_table=table.pk)
    assert entries.count() == 1 and entries.get().data["source"] == "real_cards"
    rounds = selectors.halcyon_rounds(tournament, selectors.field_rows(tournament))
    row = rounds[0]["tables"][0]
    assert row["source"] == "real_cards" and row["real_cards"] == table.code
    detail = signed_in(night.organiser).get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert "recorded (real cards)" in detail and f'href="/tabletop/{table.code}/"' in detail


def test_a_player_still_playing_at_a_real_cards_table_is_not_seated_at_another_and_nothing_is_written(night):
    tournament = freezeout(night, 8)  # two tables of four
    first = open_real(night, tournament)
    moved = Registration.objects.get(tournament=tournament, player_id=seated(tournament)[0])
    moved.table_number, moved.seat_number = 2, 9  # balancing moved them while their real-cards table still plays
    moved.save()
    before = (RealTable.objects.count(), AuditEntry.objects.count())
    with pytest.raises(ConflictError, match=f"still playing at real-cards table 1 \\({first.code}\\)"):
        services.tournament_realcards_open(actor=night.organiser, tournament=tournament, table_number=2)
    with pytest.raises(ConflictError, match=f"still playing at real-cards table 1 \\({first.code}\\)"):
        services.tournament_online_table_open(actor=night.organiser, tournament=tournament, table_number=2)
    assert (RealTable.objects.count(), AuditEntry.objects.count()) == before


def test_in_a_rebuy_tournament_a_bust_waits_for_the_period_then_eliminates_even_after_the_table_ended(
    night, eager_tasks, django_capture_on_commit_callbacks
):
    tournament, table, players = busted_table(night, on_commit=django_capture_on_commit_callbacks)
    # The table waits for its busted players' re-buys (tests/tabletop/test_tournament_rebuys.py); its host ends it.
    assert table.status == RealTableStatus.PLAYING and game_of(table).stacks == [0, 300, 0]
    tabletop.realtable_finish(actor=night.organiser, table=table)
    table.refresh_from_db()
    assert table.status == RealTableStatus.FINISHED and game_of(table).stacks == [0, 300, 0]
    # In the re-buy period a bust is no elimination: it is noted, and the player may still re-buy.
    assert not Registration.objects.filter(tournament=tournament, status=RegistrationStatus.ELIMINATED).exists()
    assert AuditEntry.objects.filter(action="tournament_bust_deferred").count() == 2
    services.tournament_clock_move(actor=night.organiser, tournament=tournament, levels=3)  # the period is over
    tournament.refresh_from_db()
    with transaction.atomic():
        swept = rebuy_period_sweep(tournament, now=timezone.now())
    assert len(swept) == 2
    out = Registration.objects.filter(tournament=tournament, status=RegistrationStatus.ELIMINATED)
    assert sorted(r.player_id for r in out) == sorted([players[0], players[2]])
    assert {r.eliminated_by_id for r in out} == {players[1]} and sorted(r.place for r in out) == [2, 3]
