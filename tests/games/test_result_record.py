"""Manual result entry: valid games are recorded, bad ones refused with nothing written; corrections audited."""

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from config.errors import ApplicationError
from games.models import Game, GameSource, ResultCorrection, Seat
from games.services import result_correct, result_record
from league.models import AuditEntry, EventResult, LedgerEntry, LedgerKind, Standing
from league.selectors import chip_history_for_game, ledger_balance, standings_rows
from tests.factories import PlayerFactory
from tests.league.conftest import new_members

# The worked example of the replay format: Bob and Jane, target -5 circle; Jane wins the 12-credit pot.
REPLAY = {
    "format": "sabacc-replay/1",
    "variant": "coruscant_shift",
    "preset": "cantina",
    "options": {"ante": 2, "min_bet": 1},
    "seats": [{"player": "Bob", "stack": 100}, {"player": "Jane", "stack": 100}],
    "dealer": "Bob",
    "seed": 7,
    "hands": [
        {
            "deck": ["-5c", "-8s", "+10t", "-4c", "+7c", "+2c", "+3s", "+5t", "+2t", "0", "-3c", "-2t", "+5c", "0"],
            "dice": {"number": -5, "suit": "circle"},
            "actions": [
                {"player": "Bob", "do": "select", "cards": ["-8s", "-4c", "+2c", "+5t", "0"]},
                {"player": "Jane", "do": "select", "cards": ["-5c"]},
                {"player": "Jane", "do": "check"},
                {"player": "Bob", "do": "check"},
                {"player": "Jane", "do": "select", "cards": ["-3c", "-2t", "+5c", "0"]},
                {"player": "Bob", "do": "select", "cards": []},
                {"player": "Jane", "do": "check"},
                {"player": "Bob", "do": "bet", "amount": 3},
                {"player": "Jane", "do": "raise", "to": 4},
                {"player": "Bob", "do": "call"},
            ],
        }
    ],
}


def counts():
    return {
        model.__name__: model.objects.count()
        for model in (Game, Seat, LedgerEntry, AuditEntry, EventResult, ResultCorrection)
    }


def seats(players, finals, **extra):
    return [{"player": p.pk, "final_credits": f, **extra} for p, f in zip(players, finals, strict=True)]


@pytest.mark.django_db(transaction=True)
def test_a_valid_game_is_recorded_and_standings_change(world):
    organiser = world.users["organiser"]
    han, lando, leia, chewie = world.players[:4]
    assert standings_rows(league=world.league, season=world.season) == []
    game = result_record(
        actor=organiser, event=world.event, seats=seats([han, lando, leia, chewie], [900, 450, 450, 0])
    )
    assert game.source == GameSource.MANUAL and game.preset == "better" and game.options  # resolved by the engine
    places = dict(Seat.objects.filter(game=game).values_list("player__display_name", "place"))
    assert places == {"Han": 1, "Lando": 2, "Leia": 2, "Chewie": 4}
    # Every player's ledger ends at zero once paid out, and what came in went out.
    for player in (han, lando, leia, chewie):
        assert ledger_balance(player=player, event=world.event) == 0
    won = LedgerEntry.objects.get(player=han, kind=LedgerKind.HAND_WON)
    assert won.amount == 450
    rows = standings_rows(league=world.league, season=world.season)  # queued after commit, run in-process
    assert [(r["display_name"], r["rank"], r["points"]) for r in rows] == [
        ("Han", 1, 4.0),
        ("Lando", 2, 3.0),
        ("Leia", 2, 3.0),
        ("Chewie", 4, 1.0),
    ]
    assert AuditEntry.objects.filter(action="result.record", object_id=str(game.pk)).exists()


@pytest.mark.parametrize(
    ("finals", "places", "message"),
    [
        ([500, 450, 450, 0], None, "Credits do not balance: 1800 came in .* but 1400 went out"),
        ([900, 450, 450, 0], [1, 2, 3, 4], "both finished with 450 credits, so they share a place"),
        ([900, 450, 450, 0], [3, 1, 1, 4], "finished with 900 credits but is placed 3"),
        ([900, 450, 450, 0], [1, 2, 2, 3], "not a valid finishing order"),
        ([1800, 0, 0, 0], [1, 3, 2, 5], "not a valid finishing order"),
    ],
)
def test_an_unbalanced_or_inconsistent_game_is_refused_and_nothing_is_written(world, finals, places, message):
    before = counts()
    data = seats(world.players[:4], finals)
    if places:
        for seat, place in zip(data, places, strict=True):
            seat["place"] = place
    with pytest.raises(ApplicationError, match=message):
        result_record(actor=world.users["organiser"], event=world.event, seats=data)
    assert counts() == before


def test_players_eliminated_at_zero_may_be_ordered_by_when_they_went_out(world):
    data = seats(world.players[:3], [1350, 0, 0])
    for seat, place in zip(data, [1, 2, 3], strict=True):
        seat["place"] = place
    game = result_record(actor=world.users["organiser"], event=world.event, seats=data)
    assert sorted(Seat.objects.filter(game=game).values_list("place", flat=True)) == [1, 2, 3]


def test_a_finishing_order_alone_gives_the_winner_every_credit(world):
    han, lando, leia = world.players[:3]
    data = [{"player": p.pk, "place": place} for p, place in ((leia, 3), (han, 1), (lando, 2))]
    data[1]["rebuys"] = 0
    game = result_record(actor=world.users["organiser"], event=world.event, seats=data)
    finals = dict(Seat.objects.filter(game=game).values_list("player__display_name", "final_credits"))
    assert finals == {"Han": 1350, "Lando": 0, "Leia": 0}  # three buy-ins of 450, all with the winner
    places = dict(Seat.objects.filter(game=game).values_list("player__display_name", "place"))
    assert places == {"Han": 1, "Lando": 2, "Leia": 3}
    assert ledger_balance(player=han, event=world.event) == 0


@pytest.mark.parametrize(
    ("places", "finals", "message"),
    [
        ([1, 1, 3], None, "needs exactly one player in place 1"),
        ([1, 2, None], None, "needs every player's place; missing for Leia"),
        ([1, 2, 3], [1350, None, None], "Final credits are missing for Lando, Leia"),
    ],
)
def test_an_incomplete_finishing_order_is_refused_and_nothing_is_written(world, places, finals, message):
    before = counts()
    data = []
    for index, player in enumerate(world.players[:3]):
        seat = {"player": player.pk}
        if places[index] is not None:
            seat["place"] = places[index]
        if finals and finals[index] is not None:
            seat["final_credits"] = finals[index]
        data.append(seat)
    with pytest.raises(ApplicationError, match=message):
        result_record(actor=world.users["organiser"], event=world.event, seats=data)
    assert counts() == before


def test_duplicate_players_non_members_and_forbidden_rebuys_are_refused_by_name(world):
    organiser = world.users["organiser"]
    han, lando = world.players[:2]
    before = counts()
    with pytest.raises(ApplicationError, match=f"only once in a game; listed more than once: {han.display_name}\\.$"):
        result_record(actor=organiser, event=world.event, seats=seats([han, han], [450, 450]))
    stranger = PlayerFactory(display_name="Greedo")
    with pytest.raises(ApplicationError, match=r"Not members of .*: Greedo"):
        result_record(actor=organiser, event=world.event, seats=seats([han, stranger], [900, 0]))
    with pytest.raises(ApplicationError, match="allows none"):
        result_record(actor=organiser, event=world.event, seats=seats([han, lando], [1350, 0], rebuys=1))
    with pytest.raises(ApplicationError, match="2 to 8 players"):
        result_record(actor=organiser, event=world.event, seats=seats([han], [450]))
    assert counts() == before


def test_rebuys_within_the_policy_are_booked_in_the_ledger(world):
    policy = world.league.buy_in_policy
    policy.rebuys_allowed, policy.max_rebuys, policy.rebuy_amount = True, 1, 450
    policy.save()
    han, lando = world.players[:2]
    data = [{"player": han.pk, "final_credits": 1350}, {"player": lando.pk, "rebuys": 1, "final_credits": 0}]
    result_record(actor=world.users["organiser"], event=world.event, seats=data)
    assert LedgerEntry.objects.get(player=lando, kind=LedgerKind.REBUY).amount == 450
    assert EventResult.objects.get(player=lando).credits_in == 900
    with pytest.raises(ApplicationError, match="at most 1"):
        data[1]["rebuys"] = 2
        data[0]["final_credits"] = 1800
        result_record(actor=world.users["organiser"], event=world.event, seats=data)


def test_hand_by_hand_results_give_the_final_credits_and_history(world):
    han, lando = world.players[:2]
    hands = [{str(han.pk): 100, str(lando.pk): -100}, {str(han.pk): -30, str(lando.pk): 30}]
    game = result_record(
        actor=world.users["organiser"], event=world.event, seats=[{"player": han.pk}, {"player": lando.pk}], hands=hands
    )
    assert dict(Seat.objects.filter(game=game).values_list("player_id", "final_credits")) == {
        han.pk: 520,
        lando.pk: 380,
    }
    assert game.hands == [{str(han.pk): 550, str(lando.pk): 350}, {str(han.pk): 520, str(lando.pk): 380}]
    assert list(LedgerEntry.objects.filter(player=han, hand__isnull=False).values_list("hand", "amount")) == [
        (1, 100),
        (2, -30),
    ]
    with pytest.raises(ApplicationError, match="Hand 1 does not balance"):
        result_record(
            actor=world.users["organiser"],
            event=world.event,
            seats=[{"player": han.pk}, {"player": lando.pk}],
            hands=[{str(han.pk): 100, str(lando.pk): -90}],
        )


def replay_players(world):
    """Bob and Jane, the players of `REPLAY`, members of `world`'s league."""
    return new_members(world, "Bob", "Jane")


def replayed_game(world):
    """Bob and Jane's game of `REPLAY` (a buy-in of 100 each) at `world`'s event, entered by its organiser; with
    Bob and Jane."""
    bob, jane = replay_players(world)
    game = result_record(
        actor=world.users["organiser"],
        event=world.event,
        seats=[{"player": bob.pk, "buy_in": 100}, {"player": jane.pk, "buy_in": 100}],
        replay=copy.deepcopy(REPLAY),
    )
    return game, bob, jane


def test_a_replay_backed_entry_takes_its_result_from_the_engine(world):
    game, bob, jane = replayed_game(world)
    result = dict(Seat.objects.filter(game=game).values_list("player__display_name", "final_credits"))
    assert result == {"Bob": 94, "Jane": 106}
    assert game.preset == "cantina" and game.options["ante"] == 2
    assert Seat.objects.get(game=game, player=jane).place == 1
    assert Seat.objects.get(game=game, player=jane).biggest_pot == 12
    assert game.hands == [{str(bob.pk): 94, str(jane.pk): 106}]
    assert LedgerEntry.objects.get(player=jane, kind=LedgerKind.HAND_WON).hand == 1
    history = chip_history_for_game(game_id=game.pk)
    assert history["hands_known"]
    assert {s["display_name"]: s["points"] for s in history["series"]} == {
        "Bob": [{"hand": 0, "credits": 100}, {"hand": 1, "credits": 94}],
        "Jane": [{"hand": 0, "credits": 100}, {"hand": 1, "credits": 106}],
    }


def test_a_replay_that_disagrees_with_the_entered_credits_is_refused(world):
    bob, jane = replay_players(world)
    before = counts()
    with pytest.raises(ApplicationError, match="ends the replay with 94 credits, not the 100 entered"):
        result_record(
            actor=world.users["organiser"],
            event=world.event,
            seats=[
                {"player": bob.pk, "buy_in": 100, "final_credits": 100},
                {"player": jane.pk, "buy_in": 100, "final_credits": 100},
            ],
            replay=copy.deepcopy(REPLAY),
        )
    broken = copy.deepcopy(REPLAY)
    broken["hands"][0]["actions"][2] = {"player": "Bob", "do": "check"}
    with pytest.raises(ApplicationError, match="refused by the rules engine"):
        result_record(
            actor=world.users["organiser"],
            event=world.event,
            seats=[{"player": bob.pk, "buy_in": 100}, {"player": jane.pk, "buy_in": 100}],
            replay=broken,
        )
    assert counts() == before


@pytest.mark.django_db(transaction=True)
def test_a_correction_keeps_an_audit_trail_and_books_compensating_entries(world):
    organiser = world.users["organiser"]
    han, lando, leia = world.players[:3]
    game = result_record(actor=organiser, event=world.event, seats=seats([han, lando, leia], [900, 450, 0]))
    first_ids = set(LedgerEntry.objects.values_list("pk", flat=True))
    correction = result_correct(
        actor=organiser,
        game=game,
        reason="Lando and Han counted the wrong stacks",
        seats=seats([han, lando, leia], [450, 900, 0]),
    )
    assert correction.author == organiser
    assert {s["player"]: s["final_credits"] for s in correction.before} == {han.pk: 900, lando.pk: 450, leia.pk: 0}
    assert {s["player"]: s["final_credits"] for s in correction.after} == {han.pk: 450, lando.pk: 900, leia.pk: 0}
    # The first entries are untouched; new entries reverse them and book the corrected result.
    assert set(LedgerEntry.objects.filter(correction__isnull=True).values_list("pk", flat=True)) == first_ids
    assert LedgerEntry.objects.filter(correction=correction).exists()
    for player in (han, lando, leia):
        assert ledger_balance(player=player, event=world.event) == 0
    net = {
        p.display_name: sum(
            LedgerEntry.objects.filter(player=p, kind__in=[LedgerKind.HAND_WON, LedgerKind.HAND_LOST]).values_list(
                "amount", flat=True
            )
        )
        for p in (han, lando, leia)
    }
    assert net == {"Han": 0, "Lando": 450, "Leia": -450}
    top = standings_rows(league=world.league, season=world.season)[0]
    assert top["display_name"] == "Lando" and top["rank"] == 1
    audit = AuditEntry.objects.get(action="result.correct")
    assert audit.actor == organiser and audit.data["reason"].startswith("Lando")
    assert Standing.objects.filter(league=world.league, scope=f"season-{world.season.pk}").count() == 3


def test_a_correction_that_does_not_balance_is_refused_and_writes_nothing(world):
    han, lando = world.players[:2]
    game = result_record(actor=world.users["organiser"], event=world.event, seats=seats([han, lando], [900, 0]))
    before = counts()
    with pytest.raises(ApplicationError, match="Credits do not balance"):
        result_correct(actor=world.users["organiser"], game=game, reason="typo", seats=seats([han, lando], [900, 100]))
    with pytest.raises(ApplicationError, match="needs a reason"):
        result_correct(actor=world.users["organiser"], game=game, reason=" ", seats=seats([han, lando], [0, 900]))
    assert counts() == before


def test_a_tournament_ranks_players_by_the_round_they_reached(world):
    from games.services import table_create
    from league.models import EventKind

    event = world.event
    event.kind = EventKind.TOURNAMENT
    event.save()
    organiser = world.users["organiser"]
    p = world.players
    t1 = table_create(actor=organiser, event=event, name="Table 1", number=1)
    t2 = table_create(actor=organiser, event=event, name="Table 2", number=2)
    result_record(actor=organiser, event=event, table=t1, seats=seats(p[0:4], [1000, 800, 0, 0]))
    result_record(actor=organiser, event=event, table=t2, seats=seats(p[4:8], [1800, 0, 0, 0]))
    # The final: the two table winners and the runner-up of table 1 meet in round 2.
    result_record(actor=organiser, event=event, round=2, seats=seats([p[0], p[1], p[4]], [0, 1350, 0]))
    places = dict(EventResult.objects.filter(event=event).values_list("player__display_name", "place"))
    assert places == {
        "Lando": 1,  # won the final
        "Han": 2,  # out of credits in the final, together with Rey
        "Rey": 2,
        # Round 1 only, ranked by place at their table: Finn, Poe and Kylo shared second at table 2,
        # Leia and Chewie shared third at table 1.
        "Finn": 4,
        "Poe": 4,
        "Kylo": 4,
        "Leia": 7,
        "Chewie": 7,
    }
    assert EventResult.objects.get(event=event, player=p[1]).players == 8


def test_recording_a_single_game_finishes_its_event_and_a_tournament_starts_running(world):
    from league.models import EventKind, EventStatus
    from tests.factories import EventFactory

    han, lando = world.players[:2]
    single = EventFactory(season=world.season, status=EventStatus.PLANNED)
    cup = EventFactory(season=world.season, status=EventStatus.PLANNED, kind=EventKind.TOURNAMENT)
    for event in (single, cup):
        result_record(actor=world.users["organiser"], event=event, seats=seats([han, lando], [900, 0]))
        event.refresh_from_db()
    assert (single.status, cup.status) == (EventStatus.FINISHED, EventStatus.RUNNING)


@given(finals=st.lists(st.integers(min_value=0, max_value=5).map(lambda k: k * 50), min_size=2, max_size=8))
def test_places_derived_from_credits_always_pass_the_place_check(finals):
    from games.services import SeatInput, _places_from_credits, check_places

    class Named:
        def __init__(self, n):
            self.display_name = f"P{n}"

        def __str__(self):
            return self.display_name

    entries = [SeatInput(player=Named(i), number=i, buy_in=0, final_credits=f) for i, f in enumerate(finals)]
    _places_from_credits(entries)
    check_places(entries)
    best = max(finals)
    assert all(e.place == 1 for e in entries if e.final_credits == best)
