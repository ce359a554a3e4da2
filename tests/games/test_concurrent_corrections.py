"""Two organisers correcting the same game at once: one waits for the other, nothing is lost or doubled."""

import threading
from unittest import mock

import pytest
from django.db import connection, connections

from config.errors import ApplicationError
from games.models import ResultCorrection, Seat
from games.services import result_correct, result_record
from league.models import LedgerEntry, LedgerKind
from league.services import standings_recompute
from league.tasks import standings_recompute_task
from tests.league.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def seats(players, finals):
    return [{"player": p.pk, "final_credits": f} for p, f in zip(players, finals, strict=True)]


def run_together(*calls):
    """Run the calls in threads started together; return what each returned or raised.

    The standings task they queue runs afterwards in this thread: Celery's eager mode keeps a
    process-wide flag that threads running eager tasks at once can leave set.
    """
    queued: list[int] = []
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(index, call):
        barrier.wait(timeout=10)
        try:
            outcomes[index] = call()
        except Exception as exc:  # the outcome is what the test looks at
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    with mock.patch.object(standings_recompute_task, "delay", side_effect=queued.append):
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    for league_id in sorted(set(queued)):
        standings_recompute(league_id=league_id)
    return outcomes


def test_the_same_correction_sent_twice_at_once_is_booked_once(world):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL; SQLite runs one writer at a time anyway")
    organiser = world.users["organiser"]
    han, lando = world.players[:2]
    game = result_record(actor=organiser, event=world.event, seats=seats([han, lando], [900, 0]))

    def correct():
        return result_correct(actor=organiser, game=game, reason="swapped", seats=seats([han, lando], [0, 900]))

    outcomes = run_together(correct, correct)
    assert sum(isinstance(o, ResultCorrection) for o in outcomes) == 1, outcomes
    refused = [o for o in outcomes if isinstance(o, ApplicationError)]
    assert len(refused) == 1 and "changes nothing" in refused[0].message
    assert ResultCorrection.objects.filter(game=game).count() == 1
    final = dict(Seat.objects.filter(game=game).values_list("player_id", "final_credits"))
    assert final == {han.pk: 0, lando.pk: 900}
    for player, expected in ((han, -450), (lando, 450)):
        hands = LedgerEntry.objects.filter(
            game=game, player=player, kind__in=[LedgerKind.HAND_WON, LedgerKind.HAND_LOST]
        ).values_list("amount", flat=True)
        assert sum(hands) == expected
        assert sum(LedgerEntry.objects.filter(game=game, player=player).values_list("amount", flat=True)) == 0


def test_two_different_corrections_at_once_both_apply_in_turn(world):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL; SQLite runs one writer at a time anyway")
    organiser = world.users["organiser"]
    han, lando, leia = world.players[:3]
    game = result_record(actor=organiser, event=world.event, seats=seats([han, lando, leia], [1350, 0, 0]))
    outcomes = run_together(
        lambda: result_correct(actor=organiser, game=game, reason="a", seats=seats([han, lando, leia], [0, 1350, 0])),
        lambda: result_correct(actor=organiser, game=game, reason="b", seats=seats([han, lando, leia], [0, 0, 1350])),
    )
    assert all(isinstance(o, ResultCorrection) for o in outcomes), outcomes
    last = ResultCorrection.objects.filter(game=game).order_by("-id").first()
    final = {s["player"]: s["final_credits"] for s in last.after}
    assert dict(Seat.objects.filter(game=game).values_list("player_id", "final_credits")) == final
    # Whatever the order, the ledger nets out to the last result: nothing reversed twice or missed.
    for player in (han, lando, leia):
        hands = LedgerEntry.objects.filter(
            game=game, player=player, kind__in=[LedgerKind.HAND_WON, LedgerKind.HAND_LOST]
        ).values_list("amount", flat=True)
        assert sum(hands) == final[player.pk] - 450
        assert sum(LedgerEntry.objects.filter(game=game, player=player).values_list("amount", flat=True)) == 0


def test_a_correction_of_a_game_in_another_league_is_refused_and_books_nothing(world):
    from tests.factories import EventFactory, MembershipFactory, SeasonFactory

    other_event = EventFactory(season=SeasonFactory(league=world.other_league))
    greedo, bossk = (MembershipFactory(league=world.other_league).player for _ in range(2))
    game = result_record(
        actor=world.users["other_organiser"], event=other_event, seats=seats([greedo, bossk], [900, 0])
    )
    before = LedgerEntry.objects.count()
    response = client_for(world.users["organiser"]).post(
        f"/api/games/{game.pk}/corrections/",
        {"reason": "mine now", "seats": seats([greedo, bossk], [0, 900])},
        format="json",
    )
    assert response.status_code == 403
    assert LedgerEntry.objects.count() == before and not ResultCorrection.objects.exists()
