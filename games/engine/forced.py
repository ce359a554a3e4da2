"""Forced bets (antes and blinds) and their escalation between hands (RULES 1.2, 1.5) as plug-ins."""

from dataclasses import dataclass

from games.engine.records import slotted_builder


@dataclass(frozen=True, slots=True)
class Levels:
    """The forced-bet sizes and min bet in force for one hand; `factor` is how often the blinds doubled
    (1, 2, 4, ...), by which the `min_bet` and `max_bet` options scale (RULES 1.4)."""

    ante: int
    small_blind: int
    big_blind: int
    min_bet: int
    factor: int = 1

    def to_list(self) -> list[int]:
        return [self.ante, self.small_blind, self.big_blind, self.min_bet, self.factor]

    @classmethod
    def from_list(cls, values: list[int]) -> "Levels":
        return cls(*values)

    @classmethod
    def first(cls, *, ante: int, small_blind: int, big_blind: int, min_bet: int) -> "Levels":
        """The levels of a game's first hand: the min bet is never below the big blind."""
        return _new_levels(ante, small_blind, big_blind, max(min_bet, big_blind), 1)

    def max_bet(self, option: int | None) -> int | None:
        """The `max_bet` option scaled with the blinds, never below the big blind (RULES 1.4)."""
        return None if option is None else max(option * self.factor, self.big_blind)


# `Levels(...)` with every field given, made in compiled code (`records.slotted_builder`): every new game and every
# hand's escalation makes one.
_new_levels = slotted_builder(Levels)
# The levels of a game before its first hand (`Game()`): frozen, so one is shared.
NO_LEVELS = _new_levels(0, 0, 0, 1, 1)


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
        return _new_levels(levels.ante + step, levels.small_blind, levels.big_blind, levels.min_bet, 1)


class DoubleBlinds(Escalation):
    """Ruling: the blinds double when the button reaches or passes the first dealer's seat.

    Ruling (new): the min bet is the larger of the `min_bet` option times the doubling factor and the
    big blind, so it never drops when the blinds rise, even with `min_bet` and `big_blind` overridden
    to different values (`levels.min_bet` of the first hand is that option, or the big blind above it).
    """

    name = "double_blinds"

    def next_levels(
        self, levels: Levels, *, players_left: int, passed_first_dealer: bool, increments: tuple[int, ...]
    ) -> Levels:
        if not passed_first_dealer:
            return levels
        big = levels.big_blind * 2
        # min_bet scales with the factor: doubling the previous min bet is exactly option x factor,
        # or the big blind when that is larger.
        return _new_levels(levels.ante, levels.small_blind * 2, big, max(levels.min_bet * 2, big), levels.factor * 2)


ESCALATIONS: dict[str, Escalation] = {e.name: e for e in (Escalation(), CantinaAnte(), DoubleBlinds())}
