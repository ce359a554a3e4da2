"""RULES 1.4, side pots: `side_pots` answers the common case (every seat still in has put in the most) at once; the
answer is the slicing's own, for any contributions, folds and carry-over (the slicing as written before the shortcut
is the reference here)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.pots import Pot, side_pots


def sliced(contributions: dict[int, int], folded: set[int], carry: int) -> list[Pot]:
    levels = sorted(level for level in set(contributions.values()) if level > 0)
    pots: list[Pot] = []
    dead_below = previous = 0
    for level in levels:
        amount = sum(min(c, level) - previous for c in contributions.values() if c > previous)
        eligible = tuple(sorted(s for s, c in contributions.items() if c >= level and s not in folded))
        previous = level
        if not eligible and not pots:
            dead_below += amount
        elif pots and (pots[-1].eligible == eligible or not eligible):
            pots[-1] = Pot(pots[-1].amount + amount, pots[-1].eligible)
        else:
            pots.append(Pot(amount + dead_below, eligible))
            dead_below = 0
    if dead_below:
        pots.append(Pot(dead_below, ()))
    if carry:
        if pots:
            pots[0] = Pot(pots[0].amount + carry, pots[0].eligible)
        else:
            pots.append(Pot(carry, tuple(sorted(s for s in contributions if s not in folded))))
    return pots


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from([0, 1, 5, 20, 40]), min_size=2, max_size=6),
    st.sets(st.integers(0, 5)),
    st.sampled_from([0, 3]),
    st.booleans(),
)
def test_1_4_side_pots_equal_the_slicing(amounts, folded, carry, called):
    # `called`: every seat still in matches the top contribution (the shortcut's case), as after a closed round.
    contributions = dict(enumerate(amounts))
    folded = {s for s in folded if s in contributions}
    if called:
        top = max(amounts)
        contributions = {s: (top if s not in folded else c) for s, c in contributions.items()}
    assert side_pots(contributions, folded, carry) == sliced(contributions, folded, carry)


def test_1_4_a_called_round_makes_one_pot_of_every_credit():
    assert side_pots({0: 20, 1: 20, 2: 5, 3: 20}, {2}, 3) == [Pot(68, (0, 1, 3))]
