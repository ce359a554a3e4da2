import hashlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.errors import TournamentLogicError
from tournaments.seating import Table, balance, draw_seats, new_seed, seed_hash, table_sizes


def test_the_published_hash_is_the_sha256_of_the_seed():
    seed = new_seed()
    assert seed_hash(seed) == hashlib.sha256(seed.encode()).hexdigest()
    assert len(seed) == 64 and seed != new_seed()


@settings(max_examples=75, deadline=None)
@given(players=st.integers(2, 80), seats=st.integers(2, 8), seed=st.text(min_size=1, max_size=20))
def test_the_draw_is_a_permutation_and_the_same_seed_gives_the_same_draw(players, seats, seed):
    ids = random.Random(players).sample(range(1, 10_000), players)
    seating = draw_seats(ids, seed=seed, seats_per_table=seats)
    assert sorted(seating) == sorted(ids)
    assert len(set(seating.values())) == players
    assert all(1 <= seat <= seats for _, seat in seating.values())
    assert draw_seats(list(reversed(ids)), seed=seed, seats_per_table=seats) == seating
    sizes = [
        sum(1 for table, _ in seating.values() if table == number)
        for number in range(1, max(t for t, _ in seating.values()) + 1)
    ]
    assert max(sizes) - min(sizes) <= 1


def test_a_different_seed_gives_a_different_draw():
    ids = list(range(1, 31))
    assert draw_seats(ids, seed="a", seats_per_table=8) != draw_seats(ids, seed="b", seats_per_table=8)


def test_table_sizes_use_the_fewest_tables_within_one_player():
    assert table_sizes(17, 8) == [6, 6, 5]
    with pytest.raises(TournamentLogicError, match="2 to 8 seats"):
        table_sizes(10, 9)


def test_the_player_who_would_be_big_blind_next_moves_to_the_worst_seat():
    big = Table(1, {1: 11, 2: 12, 3: 13, 4: 14, 5: 15, 6: 16}, 8, next_big_blind_seat=4)
    small = Table(2, {1: 21, 2: 22, 5: 23, 6: 24}, 8, next_big_blind_seat=3)
    moves = balance([big, small])
    assert len(moves) == 1
    move = moves[0]
    assert (move.player_id, move.from_table, move.from_seat, move.to_table, move.to_seat) == (14, 1, 4, 2, 3)


def test_a_table_breaks_when_the_players_fit_in_one_fewer():
    tables = [
        Table(1, {1: 1, 2: 2, 3: 3, 4: 4}, 6),
        Table(2, {1: 5, 2: 6}, 6, next_big_blind_seat=2),
        Table(3, {1: 7, 3: 8, 5: 9}, 6),
    ]
    moves = balance(tables)
    assert tables[1].closed
    assert [move.player_id for move in moves] == [6, 5]  # from the next big blind, in seat order
    assert {move.to_table for move in moves} == {3, 1} or {move.to_table for move in moves} == {3}
    assert sorted(len(table.seats) for table in tables if not table.closed) == [4, 5]


def make_tables(players, seats):
    ids = list(range(1, players + 1))
    seating = draw_seats(ids, seed="s", seats_per_table=seats)
    tables = {}
    for player, (table, seat) in seating.items():
        tables.setdefault(table, Table(table, {}, seats)).seats[seat] = player
    return list(tables.values())


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 60),
    seats=st.integers(4, 8),
    order_seed=st.integers(0, 10**6),
    button_seed=st.integers(0, 10**6),
)
def test_balancing_over_random_eliminations_keeps_tables_within_one_and_moves_the_fewest(
    players, seats, order_seed, button_seed
):
    tables = make_tables(players, seats)
    rng = random.Random(order_seed)
    buttons = random.Random(button_seed)
    alive = [player for table in tables for player in table.seats.values()]
    rng.shuffle(alive)
    while len(alive) > 1:
        out = alive.pop()
        for table in tables:
            for seat, player in list(table.seats.items()):
                if player == out:
                    del table.seats[seat]
            table.next_big_blind_seat = buttons.randint(1, seats)
        open_before = [table for table in tables if not table.closed]
        counts_before = sorted(len(table.seats) for table in open_before)
        moves = balance(tables)
        open_after = [table for table in tables if not table.closed]
        counts = [len(table.seats) for table in open_after]
        assert max(counts) - min(counts) <= 1
        assert sorted(player for table in open_after for player in table.seats.values()) == sorted(alive)
        assert len({move.player_id for move in moves}) == len(moves)  # nobody moves twice
        assert len(open_after) == -(-len(alive) // seats)  # as few tables as seat everyone
        if len(open_after) == len(open_before):
            assert len(moves) == fewest_moves(counts_before)
        else:
            # The tables were even before this elimination: only the broken table's players move.
            broken = {table.number for table in open_before if table.closed}
            assert {move.from_table for move in moves} == broken


def fewest_moves(counts):
    """The fewest moves to even out `counts`: the largest tables keep the extra player each."""
    base, extra = divmod(sum(counts), len(counts))
    finals = [base + 1] * extra + [base] * (len(counts) - extra)
    return sum(max(0, count - final) for count, final in zip(sorted(counts, reverse=True), finals, strict=True))
