"""Results are pushed, not pulled: league derives an event's results from the seat rows a higher app hands it
and from its own ledger, and never asks games or tournaments for them (docs/architecture.md)."""

from django.db import transaction

from games.selectors import finished_seat_rows
from games.services import result_record
from league.models import EventResult
from league.services import event_results_rebuild, ledger_adjust

RESULT_FIELDS = ("player_id", "place", "players", "tied", "buy_in", "credits_in", "credits_out", "prize_pool")


def results(event) -> list[tuple]:
    return list(EventResult.objects.filter(event=event).order_by("player_id").values_list(*RESULT_FIELDS))


def test_the_results_come_from_the_rows_handed_in(world):
    han, lando, leia = world.players[:3]
    rows = [
        {"player_id": han.pk, "round": 1, "place": 2, "buy_in": 450, "rebuys": 0, "knockouts": 0, "biggest_pot": 0},
        {"player_id": lando.pk, "round": 1, "place": 1, "buy_in": 450, "rebuys": 1, "knockouts": 1, "biggest_pot": 90},
        {"player_id": leia.pk, "round": 2, "place": 3, "buy_in": 450, "rebuys": 0, "knockouts": 0, "biggest_pot": 0},
    ]
    with transaction.atomic():
        made = event_results_rebuild(event=world.event, seats=rows)
    places = {result.player_id: result.place for result in made}
    # Leia reached round 2, so she ranks first whatever her place there; then Lando's 1st, Han's 2nd of round 1.
    assert places == {leia.pk: 1, lando.pk: 2, han.pk: 3}
    assert EventResult.objects.get(event=world.event, player=lando).rebuys == 1


def test_an_adjustment_refreshes_the_credits_exactly_as_a_rebuild_from_the_games_would(world):
    organiser = world.users["organiser"]
    han, lando = world.players[:2]
    result_record(
        actor=organiser,
        event=world.event,
        seats=[{"player": han.pk, "final_credits": 900}, {"player": lando.pk, "final_credits": 0}],
    )
    before = results(world.event)
    ledger_adjust(actor=organiser, event=world.event, player=lando, amount=-25, reason="late to the table")
    after = results(world.event)
    assert after != before  # Lando's credits out moved by the adjustment
    assert [row[6] for row in after] == [row[6] + (-25 if row[0] == lando.pk else 0) for row in before]
    with transaction.atomic():
        event_results_rebuild(event=world.event, seats=finished_seat_rows(world.event.pk))
        assert results(world.event) == after
        transaction.set_rollback(True)
