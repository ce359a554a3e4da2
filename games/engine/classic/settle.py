"""Deciding a pot (RULES 3.3): bombed-out players left out, the best hand wins, equal best hands play a
Sudden Demise among themselves only (Ruling 3.3.4), and when all of a Sudden Demise bomb out the pot
goes to the best of the others. Pure: cards are dealt through a callback.
"""

from collections.abc import Callable

from games.engine.classic.ranking import ClassicScore, best_of

# deal(seats) deals one Sudden Demise card to each of `seats` (in that order) and returns True, or returns
# False without dealing when too few cards are left (Ruling 3.3.6).
Deal = Callable[[list[int]], bool]


def decide(seats: list[int], scores: dict[int, ClassicScore], deal: Deal) -> list[int]:
    """The winners of a pot among `seats` (seat order from the dealer's left), reading `scores` as they stand
    (they change as Sudden Demise cards are dealt). Empty when nobody can win it (Ruling 3.4.5); two or more
    when a Sudden Demise cannot be dealt and they share it (Ruling 3.3.6)."""
    left = [s for s in seats if not scores[s].bombed]
    return _resolve(left, scores, deal) if left else []


def _resolve(seats: list[int], scores: dict[int, ClassicScore], deal: Deal) -> list[int]:
    tied = best_of(scores, seats)
    if len(tied) == 1:
        return tied
    if not deal(tied):
        return tied
    survivors = [s for s in tied if not scores[s].bombed]
    winners = _resolve(survivors, scores, deal) if survivors else []
    if winners:
        return winners
    others = [s for s in seats if s not in tied and not scores[s].bombed]
    return _resolve(others, scores, deal) if others else []


def share(amount: int, winners: list[int]) -> dict[int, int]:
    """`amount` split equally, odd credits one each to the winners in the order given (dealer's left first)."""
    base, odd = divmod(amount, len(winners))
    return {seat: base + (1 if index < odd else 0) for index, seat in enumerate(winners)}
