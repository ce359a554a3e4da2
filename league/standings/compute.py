"""The standings computation: pure Python over event results, so it is fast and easy to test."""

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


def event_points(row: ResultRow, rules: Rules) -> float:
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


def compute_standings(rows: Iterable[ResultRow], rules: Rules) -> list[tuple[int, Tally]]:
    """Return [(rank, tally)] best first; players equal on every ranking metric share a rank."""
    tallies: dict[int, Tally] = {}
    scored: dict[int, list[float]] = {}
    cache: dict[tuple, float] = {}
    for row in rows:
        if row.players < rules.min_players:
            continue
        tally = tallies.get(row.player_id)
        if tally is None:
            tally = tallies[row.player_id] = Tally(player_id=row.player_id)
            scored[row.player_id] = []
        key = (row.players, row.place, row.tied, row.buy_in, row.prize_pool, row.rebuys, row.knockouts)
        points = cache.get(key)
        if points is None:
            points = cache[key] = event_points(row, rules)
        scored[row.player_id].append(points)
        tally.places.append(row.place)
        tally.wins += row.place == 1
        tally.net_credits += row.credits_out - row.credits_in
        tally.biggest_pot = max(tally.biggest_pot, row.biggest_pot)
    for player_id, points in scored.items():
        counted = sorted(points, reverse=True)[: rules.best_n] if rules.best_n else points
        tallies[player_id].points = sum(counted)
        tallies[player_id].events_counted = len(counted)

    order = ranking_order(list(rules.tie_breakers))

    def sort_key(tally: Tally) -> tuple:
        return tuple(metric.sort_key(tally) for metric in order)

    ordered = sorted(tallies.values(), key=lambda t: (sort_key(t), t.player_id))
    ranked: list[tuple[int, Tally]] = []
    previous = None
    for index, tally in enumerate(ordered, start=1):
        key = sort_key(tally)
        rank = ranked[-1][0] if key == previous else index
        ranked.append((rank, tally))
        previous = key
    return ranked
