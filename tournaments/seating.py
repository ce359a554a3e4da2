"""Seating: a reproducible seat draw, table balancing and table breaking.

The draw: the organiser's server picks a secret seed and publishes its SHA-256 before the draw; the seats
are then a shuffle by `random.Random(seed)` of the players sorted by id, so anyone given the seed afterwards
can check both the hash and the draw.

Who moves (the fair rule): when a table has two or more players more than another, one player moves from
the largest table to the smallest. The one who moves is the player who would be big blind next at the table
they leave (they would pay the blinds soonest), and they take the seat that would be big blind next at the
new table if it is free, otherwise the free seat nearest after it: the "worst position", so no one gains a
free orbit by moving. When the tables could fit in one fewer table, the table with the fewest players breaks,
its players are placed one at a time (in seat order from its next big blind) at the table with the fewest
players. Each step moves one player the least number of times: nobody moves twice in one balancing.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass, field

from tournaments.errors import TournamentLogicError


def new_seed() -> str:
    return secrets.token_hex(32)


def seed_hash(seed: str) -> str:
    """The commitment published before the draw."""
    return hashlib.sha256(seed.encode()).hexdigest()


def table_sizes(players: int, seats_per_table: int) -> list[int]:
    """The fewest tables that seat everyone, as even as possible (never more than one apart)."""
    if not 2 <= seats_per_table <= 8:
        raise TournamentLogicError(f"A table has 2 to 8 seats; got {seats_per_table}.")
    if players < 2:
        raise TournamentLogicError(f"A draw needs at least 2 players; got {players}.")
    tables = -(-players // seats_per_table)
    base, extra = divmod(players, tables)
    return [base + 1 if index < extra else base for index in range(tables)]


def draw_seats(player_ids: list[int], *, seed: str, seats_per_table: int) -> dict[int, tuple[int, int]]:
    """Player id -> (table number from 1, seat number from 1), a shuffle by the seed, tables filled in turn."""
    if len(set(player_ids)) != len(player_ids):
        raise TournamentLogicError("A player appears twice in the draw.")
    order = sorted(player_ids)
    random.Random(seed).shuffle(order)
    sizes = table_sizes(len(order), seats_per_table)
    seating: dict[int, tuple[int, int]] = {}
    position = 0
    for table, size in enumerate(sizes, start=1):
        for seat in range(1, size + 1):
            seating[order[position]] = (table, seat)
            position += 1
    return seating


@dataclass
class Table:
    """A table as balancing sees it: its seats (seat number -> player id) and who would be big blind next."""

    number: int
    seats: dict[int, int]
    seat_count: int
    next_big_blind_seat: int = 1
    closed: bool = field(default=False)

    def order_from_big_blind(self) -> list[int]:
        """Occupied seat numbers starting at the next big blind, clockwise."""
        occupied = sorted(self.seats)
        after = [seat for seat in occupied if seat >= self.next_big_blind_seat]
        return after + [seat for seat in occupied if seat < self.next_big_blind_seat]

    def worst_free_seat(self) -> int:
        """The free seat that would pay the big blind soonest (the next big blind's seat, or the first after it)."""
        free = [seat for seat in range(1, self.seat_count + 1) if seat not in self.seats]
        if not free:
            raise TournamentLogicError(f"Table {self.number} is full.")
        after = [seat for seat in free if seat >= self.next_big_blind_seat]
        return (after or free)[0]


@dataclass(frozen=True)
class Move:
    player_id: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int


def _move(tables: dict[int, Table], source: Table, target: Table, seat: int) -> Move:
    player = source.seats.pop(seat)
    to_seat = target.worst_free_seat()
    target.seats[to_seat] = player
    return Move(player, source.number, seat, target.number, to_seat)


def balance(tables: list[Table]) -> list[Move]:
    """The moves that bring the open tables within one player of each other, breaking tables when possible.

    Changes `tables` in place (a breaking table is marked closed) and returns the moves in order. Every
    player moves at most once, and the number of moves is the fewest that reaches balance.
    """
    open_tables = {table.number: table for table in tables if not table.closed}
    moves: list[Move] = []
    moved: set[int] = set()
    if not open_tables:
        return moves
    seat_count = max(table.seat_count for table in open_tables.values())
    players = sum(len(table.seats) for table in open_tables.values())
    # Break tables while the players fit in one fewer table (down to a final table).
    while len(open_tables) > 1 and players <= (len(open_tables) - 1) * seat_count:
        breaking = min(open_tables.values(), key=lambda table: (len(table.seats), -table.number))
        breaking.closed = True
        del open_tables[breaking.number]
        for seat in breaking.order_from_big_blind():
            target = min(open_tables.values(), key=lambda table: (len(table.seats), table.number))
            move = _move(open_tables, breaking, target, seat)
            moves.append(move)
            moved.add(move.player_id)
    # Even out: from the largest table to the smallest, the next big blind moves; someone who moved already never does.
    while True:
        largest = max(open_tables.values(), key=lambda table: (len(table.seats), -table.number))
        smallest = min(open_tables.values(), key=lambda table: (len(table.seats), table.number))
        if len(largest.seats) - len(smallest.seats) <= 1:
            return moves
        candidates = [seat for seat in largest.order_from_big_blind() if largest.seats[seat] not in moved]
        seat = (candidates or largest.order_from_big_blind())[0]
        move = _move(open_tables, largest, smallest, seat)
        moves.append(move)
        moved.add(move.player_id)
