"""Forced bets (antes and blinds) and their escalation between hands (RULES 1.2, 1.5) as plug-ins."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Levels:
    """The forced-bet sizes and min bet in force for one hand."""

    ante: int
    small_blind: int
    big_blind: int
    min_bet: int

    def to_list(self) -> list[int]:
        return [self.ante, self.small_blind, self.big_blind, self.min_bet]

    @classmethod
    def from_list(cls, values: list[int]) -> "Levels":
        return cls(*values)


@dataclass(frozen=True, slots=True)
class Posted:
    """What each seat put in before the deal: antes go straight to the pot, blinds count as round-1 bets."""

    antes: dict[int, int]
    blinds: dict[int, int]
    big_blind_seat: int | None


def post_forced(seats: list[int], dealer: int, stacks: list[int], levels: Levels) -> Posted:
    """Post antes from every seat, then blinds; a seat that cannot cover posts all it has (all-in).

    `seats` are the seats in the hand, clockwise from the dealer's left. Heads-up, the dealer posts
    the small blind (RULES 1.4).
    """
    antes: dict[int, int] = {}
    if levels.ante:
        for seat in seats:
            antes[seat] = min(levels.ante, stacks[seat])
            stacks[seat] -= antes[seat]
    blinds: dict[int, int] = {}
    big_seat = None
    if levels.big_blind:
        if len(seats) == 2:
            small_seat, big_seat = dealer, next(s for s in seats if s != dealer)
        else:
            small_seat, big_seat = seats[0], seats[1]
        for seat, size in ((small_seat, levels.small_blind), (big_seat, levels.big_blind)):
            blinds[seat] = min(size, stacks[seat])
            stacks[seat] -= blinds[seat]
    return Posted(antes=antes, blinds=blinds, big_blind_seat=big_seat)


class Escalation:
    """Changes the levels before every hand after the first; `name` is the option value."""

    name = "none"

    def next_levels(
        self, levels: Levels, *, players_left: int, passed_first_dealer: bool, increments: tuple[int, ...]
    ) -> Levels:
        return levels


class CantinaAnte(Escalation):
    """Ruling: before each hand after the first the ante rises by the increment for the players holding credits."""

    name = "cantina"

    def next_levels(
        self, levels: Levels, *, players_left: int, passed_first_dealer: bool, increments: tuple[int, ...]
    ) -> Levels:
        step = increments[min(max(players_left, 2), 5) - 2]
        return Levels(levels.ante + step, levels.small_blind, levels.big_blind, levels.min_bet)


class DoubleBlinds(Escalation):
    """Ruling: the blinds double when the button reaches or passes the first dealer's seat; min bet = big blind."""

    name = "double_blinds"

    def next_levels(
        self, levels: Levels, *, players_left: int, passed_first_dealer: bool, increments: tuple[int, ...]
    ) -> Levels:
        if not passed_first_dealer:
            return levels
        big = levels.big_blind * 2
        return Levels(levels.ante, levels.small_blind * 2, big, big)


ESCALATIONS: dict[str, Escalation] = {e.name: e for e in (Escalation(), CantinaAnte(), DoubleBlinds())}
