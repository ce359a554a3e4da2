"""Payout tables: how a prize pool is shared among the places, in whole credits, summing exactly to the pool.

Templates give each paid place a share in basis points (1/100 of a percent; the shares of a table sum to
10,000). Each place gets its share of the pool rounded down; the credits left over by rounding (fewer than
the number of paid places) go one each to the best places, from first down: the odd-credit rule.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

from tournaments.errors import TournamentLogicError

TOTAL = 10_000

# Shares for the top three, and the "top 15%" table by how many are paid (1st first).
TOP_THREE = [5_000, 3_000, 2_000]
_TOP_15 = {
    1: [10_000],
    2: [6_500, 3_500],
    3: [5_000, 3_000, 2_000],
    4: [4_500, 2_700, 1_700, 1_100],
    5: [4_000, 2_500, 1_600, 1_100, 800],
    6: [3_800, 2_300, 1_500, 1_000, 800, 600],
    7: [3_600, 2_200, 1_400, 1_000, 750, 600, 450],
    8: [3_400, 2_100, 1_400, 1_000, 750, 550, 450, 350],
    9: [3_300, 2_000, 1_350, 1_000, 750, 550, 450, 350, 250],
}


def top_percent_shares(entries: int) -> list[int]:
    """The top 15% of the entries are paid (at least one; at most nine places, beyond that the table of nine)."""
    paid = max(1, min(9, entries * 15 // 100))
    return _TOP_15[paid]


def template_shares(template: str, entries: int) -> list[int]:
    if entries < 1:
        raise TournamentLogicError("A payout needs at least one entry.")
    if template == "winner_takes_all":
        return [TOTAL]
    if template == "top_3":
        if entries < 3:
            return _TOP_15[entries]
        return TOP_THREE
    if template == "top_15_percent":
        return top_percent_shares(entries)
    raise TournamentLogicError(
        f"Unknown payout template {template!r}; choose winner_takes_all, top_3, top_15_percent or a custom table."
    )


def check_shares(shares: list[int], entries: int) -> None:
    if not shares:
        raise TournamentLogicError("A payout table needs at least one paid place.")
    if any(isinstance(share, bool) or not isinstance(share, int) or share < 0 for share in shares):
        raise TournamentLogicError("Each share is a whole number of basis points (1/100 of a percent), 0 or more.")
    if sum(shares) != TOTAL:
        raise TournamentLogicError(
            f"The shares must add up to {TOTAL} basis points (100%); they add up to {sum(shares)}."
        )
    if any(later > earlier for earlier, later in itertools.pairwise(shares)):
        raise TournamentLogicError("A better place never gets less than a worse one: order the shares from 1st down.")
    if len(shares) > entries:
        raise TournamentLogicError(f"{len(shares)} places are paid but there are only {entries} entries.")


def payouts(*, pool: int, entries: int, template: str = "top_3", shares: list[int] | None = None) -> list[int]:
    """The credits for 1st, 2nd, ... (only paid places): they sum to `pool` exactly."""
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
        raise TournamentLogicError(f"The prize pool is a whole number of credits, 0 or more; got {pool!r}.")
    if shares is None:
        shares = template_shares(template, entries)
    check_shares(shares, entries)
    amounts = [pool * share // TOTAL for share in shares]
    left = pool - sum(amounts)
    for index in range(left):
        amounts[index % len(amounts)] += 1
    return amounts


ROUNDING_RULE = (
    "Each place gets its share of the pool rounded down to a whole credit; the credits left over (fewer than the "
    "places paid) go one each to the best places, 1st first. Nothing is lost: the payouts add up to the pool."
)
DEAL_ROUNDING_RULE = (
    "Each player's share is rounded down to a whole credit; the credits left over go one each to the largest "
    "fractions cut off (on equal fractions, the larger stack first). The deal adds up to the prizes left exactly."
)


def _check_stacks(stacks: list[int]) -> None:
    if len(stacks) < 2:
        raise TournamentLogicError("A deal needs at least two players still in.")
    if any(isinstance(stack, bool) or not isinstance(stack, int) or stack < 1 for stack in stacks):
        raise TournamentLogicError("Each stack in a deal is a whole number of chips, 1 or more.")


def icm_equities(stacks: list[int], prizes: list[int]) -> list[Fraction]:
    """The Independent Chip Model (Malmuth-Harville): each player's expected prize, as exact fractions.

    A player finishes 1st with probability stack / all chips; given who finished above, each next place goes
    to a remaining player with probability proportional to their stack among the remaining chips.
    `prizes[k]` is the prize of place k + 1 (missing places pay 0).
    """
    _check_stacks(stacks)
    count = len(stacks)
    prizes = [*prizes[:count], *([0] * max(0, count - len(prizes)))]
    total = sum(stacks)
    equities = [Fraction(0)] * count

    @functools.cache
    def finish(remaining: frozenset[int]) -> tuple[Fraction, ...]:
        # Expected prize of each player from the places still open, given `remaining` are left.
        place = count - len(remaining)
        result = [Fraction(0)] * count
        if not remaining:
            return tuple(result)
        chips = sum(stacks[i] for i in remaining)
        for player in remaining:
            chance = Fraction(stacks[player], chips)
            result[player] += chance * prizes[place]
            rest = finish(remaining - {player})
            for other in remaining - {player}:
                result[other] += chance * rest[other]
        return tuple(result)

    if total:
        equities = list(finish(frozenset(range(count))))
    return equities


def whole_credits(shares: list[Fraction], stacks: list[int], total: int) -> list[int]:
    """Round exact shares summing to `total` to whole credits that sum to `total` (DEAL_ROUNDING_RULE)."""
    amounts = [int(share) for share in shares]  # shares are never negative: int() rounds down
    left = total - sum(amounts)
    order = sorted(range(len(shares)), key=lambda i: (-(shares[i] - amounts[i]), -stacks[i], i))
    for index in order[:left]:
        amounts[index] += 1
    return amounts


def icm_deal(stacks: list[int], prizes: list[int]) -> list[int]:
    """The ICM deal in whole credits: sums exactly to the prizes left for these players."""
    prizes = prizes[: len(stacks)]
    return whole_credits(icm_equities(stacks, prizes), stacks, sum(prizes))


def chip_chop(stacks: list[int], prizes: list[int]) -> list[int]:
    """A chip-count chop: every player is sure of the lowest prize left; the rest is shared by chips held."""
    _check_stacks(stacks)
    prizes = [*prizes[: len(stacks)], *([0] * max(0, len(stacks) - len(prizes)))]
    floor = prizes[len(stacks) - 1]
    rest = sum(prizes) - floor * len(stacks)
    chips = sum(stacks)
    shares = [Fraction(floor) + Fraction(rest * stack, chips) for stack in stacks]
    return whole_credits(shares, stacks, sum(prizes))
