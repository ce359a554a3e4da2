"""Pots derived from contributions (RULES 1.4): uncalled-bet return and side-pot slicing."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its credits and the seats (not folded) that can win it, in seat order."""

    amount: int
    eligible: tuple[int, ...]


_new = object.__new__
_set_amount, _set_eligible = Pot.amount.__set__, Pot.eligible.__set__


def _new_pot(amount: int, eligible: tuple[int, ...]) -> Pot:
    """`Pot(amount, eligible)`, cheaper (each slot set through its member descriptor, compiled): views work the
    pots out again after every bet."""
    pot = _new(Pot)
    _set_amount(pot, amount)
    _set_eligible(pot, eligible)
    return pot


def uncalled(contributions: dict[int, int]) -> tuple[int, int] | None:
    """(seat, amount) of the part of the largest contribution nobody matched, folded players included."""
    if not contributions:
        return None
    ranked = sorted(contributions.items(), key=lambda item: item[1], reverse=True)
    top_seat, top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0
    if top > second:
        return top_seat, top - second
    return None


def side_pots(contributions: dict[int, int], folded: set[int], carry: int = 0) -> list[Pot]:
    """Slice contributions at every distinct level, smallest first; merge neighbours with equal eligibility.

    The carry-over joins the first (main) pot. Dead slice, ruling (new): a slice whose contributors all
    folded joins the nearest pot below it, or the one above it when it is the lowest, so no credit is
    ever lost.
    """
    # The common case, worked out at once: every seat still in has put in the most anyone has. Then every slice is
    # open to exactly those seats, so the slices make one pot of every credit (no dead slice: its seats are in it).
    top = 0
    for c in contributions.values():
        if c > top:
            top = c
    if top > 0:
        live = []
        for s, c in contributions.items():
            if s not in folded:
                if c != top:
                    break
                live.append(s)
        else:
            live.sort()
            total = carry
            for c in contributions.values():
                if c > 0:
                    total += c
            return [_new_pot(total, tuple(live))]
    levels = sorted(set(contributions.values()))
    while levels and levels[0] <= 0:  # only positive levels slice anything
        del levels[0]
    pots: list[Pot] = []
    dead_below = 0  # dead slices below every pot so far: they join the first pot above them
    previous = 0
    items = contributions.items()
    for level in levels:
        # Each contribution's slice between the previous level and this one.
        amount = 0
        winners = []
        for s, c in items:
            if c > previous:
                amount += (c if c < level else level) - previous
                if c >= level and s not in folded:
                    winners.append(s)
        winners.sort()
        eligible = tuple(winners)
        previous = level
        if not eligible and not pots:
            dead_below += amount
        elif pots and (pots[-1].eligible == eligible or not eligible):
            pots[-1] = _new_pot(pots[-1].amount + amount, pots[-1].eligible)
        else:
            pots.append(_new_pot(amount + dead_below, eligible))
            dead_below = 0
    if dead_below:
        # Nobody who paid in is still in the hand: the credits go to those still in it (never lost).
        pots.append(_new_pot(dead_below, ()))
    if carry:
        if pots:
            pots[0] = _new_pot(pots[0].amount + carry, pots[0].eligible)
        else:
            pots.append(_new_pot(carry, tuple(sorted(s for s in contributions if s not in folded))))
    return pots
