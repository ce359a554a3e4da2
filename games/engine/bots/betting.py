"""What every variant's sensible bot does alike when it bets: read the table from its view, and turn a wanted
size into a legal bet or raise (clamped to the legal bounds) or the first verb allowed among some."""

from typing import NamedTuple

from games.engine.bots.base import Decision


class Table(NamedTuple):
    """The betting situation of the deciding seat, read from its view."""

    me: dict  # the seat's own row of `view["players"]`
    opponents: int  # players still in the hand besides the seat
    pot: int  # every credit in the hand's pots
    min_bet: int  # the min bet in force (at least 1)
    facing: int  # what a call costs (0 when the seat cannot call)
    free: bool  # whether the seat may check


def read_table(view: dict, legal: dict) -> Table:
    verbs = legal["verbs"]
    seat = view["seat"]
    return Table(
        me=next(row for row in view["players"] if row["seat"] == seat),
        opponents=sum(1 for row in view["players"] if row.get("in_hand") and row["seat"] != seat),
        pot=sum(p["amount"] for p in view["hand"]["pots"]),
        min_bet=max(1, view["levels"]["min_bet"]),
        facing=legal.get("call_amount", 0) if "call" in verbs else 0,
        free="check" in verbs,
    )


def first(verbs: list[str], *wanted: str) -> Decision:
    """The first of `wanted` that `verbs` allows (else the first verb allowed)."""
    for verb in wanted:
        if verb in verbs:
            return Decision(verb)
    return Decision(verbs[0])


def open_betting(legal: dict, min_bet: int, size: float) -> Decision:
    """Open the betting at about `size` (a bet, or a raise when the round already holds forced bets)."""
    verbs = legal["verbs"]
    if "bet" in verbs:
        return Decision("bet", amount=clamp(max(min_bet, round(size)), legal["min_bet"], legal["max_bet"]))
    if "raise" in verbs:
        return raise_by(legal, size)
    return first(verbs, "check", "call", "fold")


def raise_by(legal: dict, extra: float) -> Decision:
    """Raise to the minimum plus about `extra`, within the legal bounds."""
    low, high = legal["min_raise_to"], legal["max_raise_to"]
    return Decision("raise", amount=clamp(low + max(0, round(extra)), low, high))


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, int(value)))
