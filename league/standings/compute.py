"""The standings computation: pure Python over event results, so it is fast and easy to test."""

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from league.standings.formulas import PlaceResult, get_formula
from league.standings.metrics import Tally, ranking_order


@dataclass(frozen=True)
class Rules:
    formula: str
    parameters: dict[str, Any]
    best_n: int | None = None
    min_players: int = 2
    ties_share_better_place: bool = True
    tie_breakers: tuple[str, ...] = ()


class ResultRow(NamedTuple):
    event_id: int
    player_id: int
    place: int
    players: int
    tied: int = 1
    buy_in: int = 0
    credits_in: int = 0
    credits_out: int = 0
    rebuys: int = 0
    knockouts: int = 0
    biggest_pot: int = 0
    prize_pool: int = 0


def event_points(row: "ResultRow | ResultGroup", rules: Rules) -> float:
    """Points for one result; a shared place scores as the better place, or the mean of the places it spans."""
    formula = get_formula(rules.formula)

    def at(place: int) -> float:
        return formula.points(
            PlaceResult(
                players=row.players,
                place=place,
                buy_in=row.buy_in,
                prize_pool=row.prize_pool,
                rebuys=row.rebuys,
                knockouts=row.knockouts,
            ),
            rules.parameters,
        )

    if rules.ties_share_better_place or row.tied <= 1:
        return at(row.place)
    places = range(row.place, min(row.place + row.tied, row.players + 1))
    return sum(at(p) for p in places) / len(places)


# What a result's points depend on: results alike in these score alike, so they are counted together.
GROUP_FIELDS = ("players", "place", "tied", "buy_in", "prize_pool", "rebuys", "knockouts")


class ResultGroup(NamedTuple):
    """One player's results that score alike, how many there are, and the sums the metrics need."""

    player_id: int
    players: int
    place: int
    tied: int
    buy_in: int
    prize_pool: int
    rebuys: int
    knockouts: int
    count: int
    net_credits: int
    biggest_pot: int

    def key(self) -> tuple[int, ...]:
        return self[1:8]


def group_rows(rows: Iterable[ResultRow]) -> list[ResultGroup]:
    """Count a scope's results into groups, as the database's GROUP BY does (`standings_groups`)."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for row in rows:
        key = (row.player_id, *(getattr(row, name) for name in GROUP_FIELDS))
        sums = groups.get(key)
        if sums is None:
            groups[key] = [1, row.credits_out - row.credits_in, row.biggest_pot]
        else:
            sums[0] += 1
            sums[1] += row.credits_out - row.credits_in
            sums[2] = max(sums[2], row.biggest_pot)
    return [ResultGroup(*key, *sums) for key, sums in groups.items()]


def merge_groups(groups: Iterable[ResultGroup]) -> list[ResultGroup]:
    """One group per player and key: the all-time scope counts every season's groups together."""
    merged: dict[tuple[int, ...], ResultGroup] = {}
    for group in groups:
        key = (group.player_id, *group.key())
        seen = merged.get(key)
        merged[key] = (
            group
            if seen is None
            else seen._replace(
                count=seen.count + group.count,
                net_credits=seen.net_credits + group.net_credits,
                biggest_pot=max(seen.biggest_pot, group.biggest_pot),
            )
        )
    return list(merged.values())


def tally_groups(groups: Iterable[ResultGroup], rules: Rules) -> dict[int, Tally]:
    """Each player's tally from their groups. The points are an exactly rounded sum (`math.fsum`) of one term per
    group taken in a fixed order, so the same results give the same float however they were read or updated."""
    by_player: dict[int, list[ResultGroup]] = defaultdict(list)
    for group in groups:
        if group.players >= rules.min_players:
            by_player[group.player_id].append(group)
    cache: dict[tuple[int, ...], float] = {}
    tallies: dict[int, Tally] = {}
    for player_id, own in by_player.items():
        tally = tallies[player_id] = Tally(player_id=player_id)
        scored = []
        for group in own:
            key = group.key()
            points = cache.get(key)
            if points is None:
                points = cache[key] = event_points(group, rules)
            scored.append((-points, key, group.count))
            tally.events_played += group.count
            tally.place_total += group.place * group.count
            tally.wins += group.count if group.place == 1 else 0
            tally.net_credits += group.net_credits
            tally.biggest_pot = max(tally.biggest_pot, group.biggest_pot)
        scored.sort()
        if rules.best_n:
            left, counted = rules.best_n, []
            for negative, _, count in scored:
                if left <= 0:
                    break
                counted.append((negative, min(count, left)))
                left -= min(count, left)
        else:
            counted = [(negative, count) for negative, _, count in scored]
        tally.points = math.fsum(-negative * count for negative, count in counted)
        tally.events_counted = sum(count for _, count in counted)
    return tallies


def rank_tallies(tallies: Iterable[Tally], rules: Rules) -> list[tuple[int, Tally]]:
    """Return [(rank, tally)] best first; players equal on every ranking metric share a rank."""
    order = ranking_order(list(rules.tie_breakers))

    def sort_key(tally: Tally) -> tuple:
        return tuple(metric.sort_key(tally) for metric in order)

    keyed = sorted(((sort_key(t), t.player_id, t) for t in tallies), key=lambda item: item[:2])
    ranked: list[tuple[int, Tally]] = []
    previous = None
    for index, (key, _, tally) in enumerate(keyed, start=1):
        rank = ranked[-1][0] if key == previous else index
        ranked.append((rank, tally))
        previous = key
    return ranked


def compute_standings(rows: Iterable[ResultRow], rules: Rules) -> list[tuple[int, Tally]]:
    """Return [(rank, tally)] best first; players equal on every ranking metric share a rank."""
    return rank_tallies(tally_groups(group_rows(rows), rules).values(), rules)
