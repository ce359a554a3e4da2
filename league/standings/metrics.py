"""Standings metrics, each a small class with a key, a name and one function over a player's tally.

Tie-breakers are an ordered list of metric keys; `better_first` says which way sorts first.
"""

from dataclasses import dataclass
from typing import ClassVar

from config.errors import ApplicationError


@dataclass
class Tally:
    """Everything the metrics need about one player in one standings scope."""

    player_id: int
    points: float = 0.0
    wins: int = 0
    net_credits: int = 0
    events_played: int = 0
    place_total: int = 0
    events_counted: int = 0
    biggest_pot: int = 0

    @property
    def average_place(self) -> float:
        return self.place_total / self.events_played if self.events_played else 0.0


class Metric:
    key: ClassVar[str]
    name: ClassVar[str]
    higher_is_better: ClassVar[bool] = True

    def value(self, tally: Tally) -> float:
        """By default the count the tally holds under the metric's key."""
        return getattr(tally, self.key)

    def sort_key(self, tally: Tally) -> float:
        value = self.value(tally)
        return -value if self.higher_is_better else value


class Points(Metric):
    key, name = "points", "Points"

    def value(self, tally: Tally) -> float:
        return round(tally.points, 6)


class Wins(Metric):
    key, name = "wins", "Wins"


class NetCredits(Metric):
    key, name = "net_credits", "Net credits"


class AveragePlace(Metric):
    key, name, higher_is_better = "average_place", "Average place", False

    def value(self, tally: Tally) -> float:
        return round(tally.average_place, 6) if tally.events_played else float("inf")


class EventsPlayed(Metric):
    key, name = "events_played", "Events played"


class BiggestPot(Metric):
    key, name = "biggest_pot", "Biggest pot won"


METRICS: dict[str, Metric] = {
    m.key: m for m in (Points(), Wins(), NetCredits(), AveragePlace(), EventsPlayed(), BiggestPot())
}
DEFAULT_TIE_BREAKERS = ["points", "wins", "net_credits"]


def validate_tie_breakers(keys: list[str] | None) -> list[str]:
    """Check an ordered list of metric keys; an empty list means the default order."""
    allowed = ", ".join(METRICS)
    if keys is None:
        return []
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise ApplicationError(
            f"Tie-breakers must be a list of metric keys from: {allowed}.", extra={"field": "tie_breakers"}
        )
    unknown = [k for k in keys if k not in METRICS]
    if unknown:
        raise ApplicationError(
            f"Unknown tie-breaker {', '.join(unknown)}; choose from: {allowed}.", extra={"field": "tie_breakers"}
        )
    if len(set(keys)) != len(keys):
        raise ApplicationError("A tie-breaker may be listed only once.", extra={"field": "tie_breakers"})
    return keys


def ranking_order(tie_breakers: list[str]) -> list[Metric]:
    """Points always lead unless listed elsewhere; then the league's tie-breakers in order."""
    keys = list(tie_breakers) or list(DEFAULT_TIE_BREAKERS)
    if "points" not in keys:
        keys.insert(0, "points")
    return [METRICS[k] for k in keys]
