"""The acting service: opening, seats, starting, turn order, illegal, stale and repeated actions."""

import pytest

from config.errors import ApplicationError, ConflictError
from games.engine import Game
from games.engine.bots import SensibleBot
from games.models import Game as LeagueGame
from games.models import GameStatus
from games.online import services
from games.online.models import OnlineAction, OnlineSeat, OnlineTable, TableStatus
from games.online.selectors import table_state
from league.models import LedgerEntry
from tests.online.helpers import act

pytestmark = pytest.mark.django_db
ALL_CODES = [f"{value:+d}{suit}" for suit in "cst" for value in range(-10, 11) if value]


def snapshot(table: OnlineTable) -> tuple:
    table.refresh_from_db()
    return (table.state, table.version, table.turn_version, OnlineAction.objects.filter(table=table).count())


def state_for(table, user) -> dict:
    table.refresh_from_db()
    return table_state(table, user=user)


def test_open_resolves_rules_through_the_engine_and_takes_the_buy_in_from_the_policy(world, open_table):
    table = open_table(seats=4, turn_seconds=15, preset="cantina")
    assert table.options["starting_stack"] > 0 and table.preset == "cantina"
    assert table.buy_in == world.league.buy_in_policy.buy_in == 450
    assert (table.seat_count, table.turn_seconds, table.status) == (4, 15, TableStatus.OPEN)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"seats": 9}, "Seats must be a whole number from 2 to 8"),
        ({"seats": 1}, "Seats must be a whole number from 2 to 8"),
        ({"turn_seconds": 1}, "turn time in seconds must be a whole number from 5"),
        ({"preset": "nonsense"}, "These game rules are not allowed"),
        ({"name": " "}, "needs a name"),
    ],
)
def test_open_refuses_bad_input_and_writes_nothing(world, open_table, fields, message):
    with pytest.raises(ApplicationError, match=message):
        open_table(**fields)
    assert not OnlineTable.objects.exists()


def test_only_organisers_open_and_start_tables(world, humans, open_table):
    with pytest.raises(ApplicationError, match="Only organisers"):
        services.table_open(actor=humans[0], event=world.event, name="Mine")
    table = open_table()
    services.seat_take(actor=humans[0], table=table)
    services.seat_take(actor=humans[1], table=table)
    with pytest.raises(ApplicationError, match="Only organisers"):
        services.table_start(actor=humans[0], table=table)
    table.refresh_from_db()
    assert table.status == TableStatus.OPEN and not table.state


def test_seats_members_only_once_each_until_full(world, humans, open_table):
    table = open_table(seats=2)
    seat = services.seat_take(actor=humans[0], table=table)
    assert (seat.number, seat.name) == (0, "Mem")
    with pytest.raises(ConflictError, match="already have a seat"):
        services.seat_take(actor=humans[0], table=table)
    with pytest.raises(ApplicationError, match="Only members"):
        services.seat_take(actor=world.users["outsider"], table=table)
    services.seat_take(actor=humans[1], table=table)
    with pytest.raises(ConflictError, match="full"):
        services.seat_take(actor=humans[2], table=table)
    services.seat_leave(actor=humans[0], table=table)
    assert services.seat_take(actor=humans[2], table=table).number == 0


def test_start_books_buy_ins_creates_the_league_game_and_deals(world, heads_up, scheduled):
    assert heads_up.status == TableStatus.RUNNING
    game = LeagueGame.objects.get(pk=heads_up.game_id)
    assert (game.status, game.source) == (GameStatus.RUNNING, "online")
    buy_ins = LedgerEntry.objects.filter(game=game, kind="buy_in")
    assert sorted(e.amount for e in buy_ins) == [450, 450]
    engine = Game.from_json(heads_up.state)
    assert engine.in_hand and sorted(engine.waiting_for()) == [0, 1]  # both select, in any order
    assert scheduled.last("turn_timeout")[1:] == ([heads_up.pk, heads_up.turn_version], 20)
    assert heads_up.deadline is not None


def test_starting_needs_two_seats(world, open_table):
    table = open_table()
    services.seat_take(actor=world.users["organiser"], table=table)
    with pytest.raises(ConflictError, match="at least 2 seats"):
        services.table_start(actor=world.users["organiser"], table=table)


def select_nothing(table, user, key):
    return services.table_act(actor=user, table=table, verb="select", cards=[], version=table.version, key=key)


def to_betting(table, world, humans):
    """Both players keep nothing at select; the improve phase likewise; returns when betting starts."""
    for phase in ("select", "improve"):
        for user in (world.users["organiser"], humans[0]):
            table.refresh_from_db()
            state = table_state(table, user=user)
            if "select" in state["view"]["legal"]["verbs"]:
                select_nothing(table, user, f"{phase}-{user.pk}-{table.version}")
    table.refresh_from_db()


def test_select_accepts_players_in_any_order_against_the_same_version(world, humans, heads_up):
    version = heads_up.version
    org, mem = world.users["organiser"], humans[0]
    hand = state_for(heads_up, mem)["view"]["cards"]
    services.table_act(actor=mem, table=heads_up, verb="select", cards=hand[:1], version=version, key="m1")
    # The organiser acts against the version both saw: still current, as the decision awaited is the same.
    services.table_act(actor=org, table=heads_up, verb="select", cards=[], version=version, key="o1")
    heads_up.refresh_from_db()
    assert heads_up.version == version + 2
    assert state_for(heads_up, mem)["view"]["hand"]["phase"] != "select"


def test_turn_order_refuses_the_player_whose_turn_it_is_not_and_changes_nothing(world, humans, heads_up):
    to_betting(heads_up, world, humans)
    org, mem = world.users["organiser"], humans[0]
    view = state_for(heads_up, org)["view"]
    assert view["hand"]["phase"].startswith("betting")
    waiting_user = org if view["waiting_for"] == [view["seat"]] else mem
    other = mem if waiting_user is org else org
    before = snapshot(heads_up)
    with pytest.raises(ConflictError, match="not your decision") as refused:
        services.table_act(actor=other, table=heads_up, verb="fold", version=heads_up.version, key="k")
    assert refused.value.code == "not_your_turn"
    assert snapshot(heads_up) == before


@pytest.mark.parametrize(
    ("verb", "extra", "message"),
    [
        ("bet", {"amount": 10**6}, None),
        ("raise", {"amount": 0}, "whole number from 1"),
        ("shout", {}, "Unknown action 'shout'"),
        ("select", {"cards": ["+1c"]}, None),
    ],
)
def test_illegal_actions_are_refused_and_change_nothing(world, humans, heads_up, verb, extra, message):
    if verb != "select":
        to_betting(heads_up, world, humans)
    org, mem = world.users["organiser"], humans[0]
    view = state_for(heads_up, org)["view"]
    user = org if view["seat"] in view["waiting_for"] else mem
    if verb == "select":  # a card this player does not hold
        extra = {"cards": [next(c for c in ALL_CODES if c not in state_for(heads_up, user)["view"]["cards"])]}
    before = snapshot(heads_up)
    with pytest.raises(ApplicationError, match=message) as refused:
        services.table_act(actor=user, table=heads_up, verb=verb, version=heads_up.version, key="bad", **extra)
    assert refused.value.status_code in (400, 409)
    assert snapshot(heads_up) == before


def test_a_stale_action_gets_409_with_the_current_state_and_changes_nothing(world, humans, heads_up):
    org = world.users["organiser"]
    old = heads_up.version
    to_betting(heads_up, world, humans)
    before = snapshot(heads_up)
    with pytest.raises(ConflictError) as refused:
        services.table_act(actor=org, table=heads_up, verb="fold", version=old, key="late")
    assert refused.value.code == "stale" and refused.value.status_code == 409
    assert refused.value.extra["version"] == heads_up.version
    assert refused.value.extra["state"]["table"]["version"] == heads_up.version
    assert snapshot(heads_up) == before
    with pytest.raises(ConflictError, match="moved on"):
        services.table_act(actor=org, table=heads_up, verb="fold", version=heads_up.version + 5, key="future")


def test_a_resubmitted_action_gets_the_first_answer_and_is_applied_once(world, humans, heads_up):
    mem = humans[0]
    first = services.table_act(actor=mem, table=heads_up, verb="select", cards=[], version=heads_up.version, key="x")
    after_first = snapshot(heads_up)
    again = services.table_act(actor=mem, table=heads_up, verb="select", cards=[], version=0, key="x")
    assert again == {**first, "repeated": True}
    assert snapshot(heads_up) == after_first
    assert OnlineAction.objects.filter(table=heads_up, source="player").count() == 1


def test_a_key_sent_again_with_another_action_is_refused_and_changes_nothing(world, humans, heads_up):
    """A reused key with a different decision was answered `repeated` and silently dropped; now a 409 says so."""
    mem = humans[0]
    mine = table_state(heads_up, user=mem)["view"]["cards"]
    first = services.table_act(actor=mem, table=heads_up, verb="select", cards=[], version=heads_up.version, key="x")
    after_first = snapshot(heads_up)
    with pytest.raises(ConflictError, match="'x' was already used for a different action") as refused:
        services.table_act(actor=mem, table=heads_up, verb="select", cards=mine[:1], version=heads_up.version, key="x")
    assert refused.value.code == "key_reused" and refused.value.status_code == 409
    assert snapshot(heads_up) == after_first
    again = services.table_act(actor=mem, table=heads_up, verb="select", cards=None, version=heads_up.version, key="x")
    assert again == {**first, "repeated": True}  # the same decision (no cards) still gets the first answer
    assert OnlineAction.objects.filter(table=heads_up, source="player").count() == 1


def test_the_same_key_from_another_player_is_their_own_action(world, humans, heads_up):
    version = heads_up.version
    services.table_act(actor=humans[0], table=heads_up, verb="select", cards=[], version=version, key="same")
    answer = services.table_act(
        actor=world.users["organiser"], table=heads_up, verb="select", cards=[], version=version, key="same"
    )
    assert "repeated" not in answer and OnlineAction.objects.filter(table=heads_up).count() == 2


def test_someone_without_a_seat_cannot_act(world, humans, heads_up):
    with pytest.raises(ApplicationError, match="no seat"):
        services.table_act(actor=humans[1], table=heads_up, verb="fold", version=heads_up.version, key="k")


def test_a_paused_table_refuses_actions_until_resumed(world, humans, heads_up):
    org = world.users["organiser"]
    services.table_pause(actor=org, table=heads_up)
    heads_up.refresh_from_db()
    with pytest.raises(ConflictError, match="paused"):
        select_nothing(heads_up, humans[0], "p")
    with pytest.raises(ApplicationError, match="Only organisers"):
        services.table_resume(actor=humans[0], table=heads_up)
    services.table_resume(actor=org, table=heads_up)
    heads_up.refresh_from_db()
    select_nothing(heads_up, humans[0], "p")


def test_leaving_mid_game_is_refused_outside_a_cash_game(world, humans, heads_up):
    before = snapshot(heads_up)
    with pytest.raises(ConflictError, match="cannot leave a running game at this table"):
        services.seat_leave(actor=humans[0], table=heads_up)
    assert snapshot(heads_up) == before and OnlineSeat.objects.filter(table=heads_up, left=False).count() == 2


def play_by_sensible_decisions(table, users, limit=5000):
    """Both players act through `table_act`, deciding from their own state with the sensible bot."""
    import random

    bots = {user.pk: SensibleBot(random.Random(user.pk)) for user in users}
    for step in range(limit):
        table.refresh_from_db()
        if table.status == TableStatus.FINISHED:
            return step
        acted = False
        for user in users:
            state = table_state(table, user=user)
            view = state["view"]
            if view["legal"]["verbs"]:
                act(table, user, bots[user.pk].decide(view), key=f"{step}-{user.pk}")
                acted = True
                break
        if not acted:
            assert services.next_hand(table_id=table.pk, version=table.version)
    raise AssertionError("the game did not finish")


def test_a_whole_game_lands_in_the_league_with_places_ledger_replay_and_standings(
    world, humans, heads_up, django_capture_on_commit_callbacks
):
    from games.engine.replay import play_replay
    from league.models import Standing

    users = [world.users["organiser"], humans[0]]
    with django_capture_on_commit_callbacks(execute=True):
        play_by_sensible_decisions(heads_up, users)
    heads_up.refresh_from_db()
    game = LeagueGame.objects.get(pk=heads_up.game_id)
    assert game.status == GameStatus.FINISHED
    seats = list(game.seats.order_by("place"))
    assert [s.place for s in seats] == [1, 2]
    assert [s.final_credits for s in seats] == [900, 0]
    for seat in seats:  # every player's ledger settles at zero: buy-in + hands - payout
        assert sum(LedgerEntry.objects.filter(game=game, player=seat.player).values_list("amount", flat=True)) == 0
    hands = LedgerEntry.objects.filter(game=game, kind__in=["hand_won", "hand_lost"])
    assert sum(e.amount for e in hands) == 0 and hands.exists()
    result = play_replay(game.replay_document)
    assert result["stacks"] == {s.player.display_name: s.final_credits for s in seats}
    assert len(game.hands) == len(result["hands"])
    assert Standing.objects.filter(league=world.league, player=seats[0].player, rank=1).exists()
    assert world.event.results.get(player=seats[0].player).place == 1


def test_a_cash_table_lets_players_leave_between_hands_and_closes_into_the_league(world, humans, open_table, scheduled):
    org, mem = world.users["organiser"], humans[0]
    table = open_table(seats=3, preset="casino")
    for user in (org, mem, humans[1]):
        services.seat_take(actor=user, table=table)
    services.table_start(actor=org, table=table)
    with pytest.raises(ConflictError, match="cannot leave now"):
        services.seat_leave(actor=mem, table=table)
    with pytest.raises(ConflictError, match="cannot close now"):
        services.table_close(actor=org, table=table)
    while "next_hand" not in scheduled.names():
        scheduled.run(scheduled.last("turn_timeout"))
    services.seat_leave(actor=mem, table=table)
    left = OnlineSeat.objects.get(table=table, player__user=mem)
    assert left.left and left.left_with is not None
    with pytest.raises(ApplicationError, match="Only organisers"):
        services.table_close(actor=humans[1], table=table)
    services.table_close(actor=org, table=table)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    game = LeagueGame.objects.get(pk=table.game_id)
    assert game.status == GameStatus.FINISHED
    assert sum(game.seats.values_list("final_credits", flat=True)) == 3 * table.buy_in
    assert game.seats.get(player__user=mem).final_credits == left.left_with
    for seat in game.seats.all():
        assert sum(LedgerEntry.objects.filter(game=game, player=seat.player).values_list("amount", flat=True)) == 0


def test_a_player_contributes_entropy_to_the_next_hand_between_hands(world, humans, heads_up, scheduled):
    mem = humans[0]
    with pytest.raises(ApplicationError, match="between hands"):
        services.seat_entropy(actor=mem, table=heads_up, value="abc123")
    while "next_hand" not in scheduled.names():
        scheduled.run(scheduled.last("turn_timeout"))
    version = OnlineTable.objects.get(pk=heads_up.pk).version
    with pytest.raises(ApplicationError, match="printable"):
        services.seat_entropy(actor=mem, table=heads_up, value="x" * 10_000)
    with pytest.raises(ApplicationError, match="Only a player seated"):
        services.seat_entropy(actor=humans[1], table=heads_up, value="abc")
    services.seat_entropy(actor=mem, table=heads_up, value="f00dfeed")
    heads_up.refresh_from_db()
    assert heads_up.version == version  # the scheduled next hand still starts
    assert Game.from_json(heads_up.state, history=heads_up.history).entropy
    assert scheduled.run(scheduled.last("next_hand")) is True


def test_a_player_out_of_credits_rebuys_through_the_ledger_and_the_game_still_balances(
    world, humans, open_table, scheduled
):
    policy = world.league.buy_in_policy
    policy.rebuys_allowed, policy.rebuy_amount = True, 300
    policy.save()
    org, mem = world.users["organiser"], humans[0]
    table = open_table(seats=2, preset="casino")
    for user in (org, mem):
        services.seat_take(actor=user, table=table)
    services.table_start(actor=org, table=table)
    with pytest.raises(ConflictError, match="cannot re-buy now"):
        services.seat_rebuy(actor=mem, table=table)
    broke = None
    for step in range(400):  # both shove every hand until one of them is out of credits
        table.refresh_from_db()
        game = Game.from_json(table.state)
        if not game.in_hand:
            broke = next((u for u in (org, mem) if game.stacks[seat_of(table, u)] == 0), None)
            if broke:
                break
            assert services.next_hand(table_id=table.pk, version=table.version)
            continue
        for user in (org, mem):
            view = table_state(table, user=user)["view"]
            verbs = view["legal"]["verbs"]
            if verbs:
                verb = "allin" if "allin" in verbs else "call" if "call" in verbs else verbs[0]
                cards = view["cards"][:1] if verb == "select" and view["hand"]["phase"] == "select" else []
                services.table_act(
                    actor=user, table=table, verb=verb, cards=cards, version=table.version, key=f"{step}"
                )
                break
    assert broke is not None, "nobody went broke"
    assert table_state(table, user=broke)["can"]["rebuy"] is True
    services.seat_rebuy(actor=broke, table=table)
    table.refresh_from_db()
    assert Game.from_json(table.state).stacks[seat_of(table, broke)] == 300
    assert scheduled.last("next_hand")[1] == [table.pk, table.version]  # the pause starts again
    rebuy = LedgerEntry.objects.get(game_id=table.game_id, kind="rebuy")
    assert rebuy.amount == 300 and rebuy.player.user == broke
    services.table_close(actor=org, table=table)
    game = LeagueGame.objects.get(pk=table.game_id)
    assert sum(game.seats.values_list("final_credits", flat=True)) == 2 * table.buy_in + 300
    assert game.seats.get(player__user=broke).rebuys == 1
    for seat in game.seats.all():
        assert sum(LedgerEntry.objects.filter(game=game, player=seat.player).values_list("amount", flat=True)) == 0


def seat_of(table, user) -> int:
    return OnlineSeat.objects.get(table=table, player__user=user).engine_seat


def test_the_table_says_why_a_seat_cannot_be_taken_and_how_to_become_able_to(world, humans, open_table):
    from django.contrib.auth.models import AnonymousUser
    from django.test import Client

    from tests.factories import UserFactory

    table = open_table(seats=2)
    league = world.league.name
    outsider = world.users["outsider"]
    why = table_state(table, user=outsider)["why_not_sit"]
    assert why == f"Only members of {league} can sit at this table: ask its organisers to add you as a member."
    with pytest.raises(ApplicationError) as refused:
        services.seat_take(actor=outsider, table=table)
    assert str(refused.value) == why
    client = Client()
    client.force_login(outsider)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert f"data-why-not-sit>{why}<" in page.replace("&#x27;", "'") and "Take a seat" not in page
    why = table_state(table, user=UserFactory(username="newcomer"))["why_not_sit"]
    assert "no player profile" in why and "claim code" in why and "not a player of" in why
    # A newcomer who cannot sit here is shown a way on: a casual game of their own (not a dead end).
    assert 'data-play-instead>Meanwhile, <a href="/tables/#play-now">play a casual game of your own</a>' in page
    member = Client()
    member.force_login(humans[0])
    assert "data-play-instead" not in member.get(f"/tables/{table.pk}/").content.decode()
    assert table_state(table, user=AnonymousUser())["why_not_sit"].startswith("Sign in to take a seat")
    assert (
        table_state(table, user=humans[0])["why_not_sit"] is None and table_state(table, user=humans[0])["can"]["sit"]
    )
    services.seat_take(actor=humans[0], table=table)
    services.seat_take(actor=humans[1], table=table)
    assert table_state(table, user=outsider)["why_not_sit"] is None  # full: nobody could sit, nothing to explain
