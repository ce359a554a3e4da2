"""Halcyon places: tables play a game each, the best of each table advance, the final table decides the places.

Within a table players rank as the rules rank a finished game: by credits held at the end (more is better),
then by the hand in which they went out (later is better; a player who never went out is above everyone who
did); equal credits share a place. Players who did not reach the final table rank below all who did, by the
round they reached (later is better), then by their place at their table; players with the same place at
different tables of the same round share a place.

Ties at the cut: when players share the last advancing place of a table, all of them advance.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.errors import TournamentLogicError


@dataclass(frozen=True)
class SeatResult:
    player_id: int
    credits: int
    out_hand: int | None = None  # the hand in which they went out; 0 = before hand 1; None = never out


HALCYON_VARIANT = "coruscant_shift"  # the Halcyon preset is Coruscant Shift's (seed 002)
OPENED = "tournament_halcyon_online_open"  # the audit action of a Halcyon table opened online
OPENED_REAL = "tournament_realcards_open"  # the audit of a tournament table opened on real cards


def _key(result: SeatResult) -> tuple[int, int]:
    return (result.credits, result.out_hand if result.out_hand is not None else 10**9)


def table_places(results: list[SeatResult]) -> dict[int, int]:
    """Player id -> place at the table (1 is best; shared places skip, as 1, 1, 3)."""
    if len({result.player_id for result in results}) != len(results):
        raise TournamentLogicError("A player appears twice at one table.")
    ordered = sorted(results, key=_key, reverse=True)
    places: dict[int, int] = {}
    for position, result in enumerate(ordered):
        if position and _key(ordered[position - 1]) == _key(result):
            places[result.player_id] = places[ordered[position - 1].player_id]
        else:
            places[result.player_id] = position + 1
    return places


def advancing(results: list[SeatResult], count: int = 1) -> list[int]:
    """Who goes on from a table: its best `count` players (all who share the last advancing place)."""
    if count < 1:
        raise TournamentLogicError(f"At least one player advances from each table; got {count}.")
    places = table_places(results)
    return [result.player_id for result in results if places[result.player_id] <= count]


def halcyon_places(rounds: list[list[list[SeatResult]]]) -> dict[int, int]:
    """Player id -> final place, from every round's tables (the last round is the one final table)."""
    if not rounds or len(rounds[-1]) != 1:
        raise TournamentLogicError("The last round must be one final table.")
    final: dict[int, int] = {}
    placed = 0
    reached_later: set[int] = set()
    for round_tables in reversed(rounds):
        groups: dict[int, list[int]] = {}
        for table in round_tables:
            for player, place in table_places(table).items():
                if player not in reached_later:
                    groups.setdefault(place, []).append(player)
        for place in sorted(groups):
            for player in groups[place]:
                final[player] = placed + 1
            placed += len(groups[place])
        reached_later |= {result.player_id for table in round_tables for result in table}
    return final
