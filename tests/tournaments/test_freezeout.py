"""A freezeout through the services: eliminations in random orders, each followed by balancing, keep the tables
within one player of each other on the fewest tables, move nobody twice in one balancing, and end at one final
table with a winner whose prize is booked."""

import random

import pytest

from league.models import LedgerEntry, LedgerKind
from tests.factories import MembershipFactory as Members
from tournaments import services
from tournaments.models import Registration, RegistrationStatus

from .conftest import drawn


def tables_now(tournament) -> dict[int, set[int]]:
    tables: dict[int, set[int]] = {}
    for player, table in Registration.objects.filter(
        tournament=tournament, status=RegistrationStatus.REGISTERED
    ).values_list("player_id", "table_number"):
        tables.setdefault(table, set()).add(player)
    return tables


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_elimination_orders_keep_tables_balanced_down_to_a_final_table(night, seed):
    field = [*night.players, *(Members(league=night.league).player for _ in range(7))][:20]
    tournament = services.tournament_create(
        actor=night.organiser,
        event=night.event,
        structure=[{"big_blind": 10, "small_blind": 5, "length": 10}],
        seats_per_table=6,
    )
    drawn(night, tournament, field)
    rng = random.Random(seed)
    left = list(field)
    while len(left) > 1:
        out = left.pop(rng.randrange(len(left)))
        services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=out)
        before = {p: t for t, players in tables_now(tournament).items() for p in players}
        moves = services.tournament_balance(actor=night.organiser, tournament=tournament)
        assert len({move.player_id for move in moves}) == len(moves)  # nobody moves twice
        tables = tables_now(tournament)
        sizes = [len(players) for players in tables.values()]
        assert max(sizes) - min(sizes) <= 1
        assert len(tables) == -(-len(left) // 6)  # the fewest tables that seat everyone
        after = {p: t for t, players in tables.items() for p in players}
        assert {p for p in after if after[p] != before[p]} == {move.player_id for move in moves}
    assert len(tables_now(tournament)) == 1
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    winner = Registration.objects.get(tournament=tournament, place=1)
    assert winner.player == left[0]
    assert LedgerEntry.objects.filter(event=night.event, kind=LedgerKind.PAYOUT, player=left[0]).exists()
