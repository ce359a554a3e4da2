import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.errors import TournamentLogicError
from tournaments.payouts import payouts, template_shares


def test_top_three_splits_50_30_20_and_odd_credits_go_to_the_best_places():
    assert payouts(pool=1000, entries=10, template="top_3") == [500, 300, 200]
    assert payouts(pool=1001, entries=10, template="top_3") == [501, 300, 200]
    # 1009 -> 504, 302, 201 rounded down; the 2 left over go one each to 1st and 2nd.
    assert payouts(pool=1009, entries=10, template="top_3") == [505, 303, 201]


def test_winner_takes_all():
    assert payouts(pool=457, entries=6, template="winner_takes_all") == [457]


def test_top_15_percent_pays_more_places_as_the_field_grows():
    assert len(template_shares("top_15_percent", 6)) == 1
    assert len(template_shares("top_15_percent", 20)) == 3
    assert len(template_shares("top_15_percent", 60)) == 9


def test_a_custom_table_must_add_up_to_100_percent_and_never_pay_a_worse_place_more():
    assert payouts(pool=99, entries=5, shares=[6000, 4000]) == [60, 39]
    with pytest.raises(TournamentLogicError, match="add up to 10000 basis points"):
        payouts(pool=100, entries=5, shares=[6000, 3000])
    with pytest.raises(TournamentLogicError, match="never gets less"):
        payouts(pool=100, entries=5, shares=[4000, 6000])
    with pytest.raises(TournamentLogicError, match="only 2 entries"):
        payouts(pool=100, entries=2, shares=[5000, 3000, 2000])


def test_an_unknown_template_names_the_known_ones():
    with pytest.raises(TournamentLogicError, match="winner_takes_all, top_3, top_15_percent"):
        payouts(pool=100, entries=5, template="everyone")


@settings(max_examples=100, deadline=None)
@given(
    pool=st.integers(0, 10**12),
    entries=st.integers(1, 500),
    template=st.sampled_from(["winner_takes_all", "top_3", "top_15_percent"]),
)
def test_payouts_always_sum_to_the_pool_and_never_favour_a_worse_place(pool, entries, template):
    amounts = payouts(pool=pool, entries=entries, template=template)
    assert sum(amounts) == pool
    assert all(amount >= 0 for amount in amounts)
    assert amounts == sorted(amounts, reverse=True)
    assert len(amounts) <= entries


def test_icm_matches_the_published_three_player_example():
    """Stacks 5,000 / 3,000 / 2,000 with prizes 50 / 30 / 20: $38.39, $32.75, $28.86 (Malmuth-Harville),
    the example most introductions to the Independent Chip Model work through."""
    from fractions import Fraction

    from tournaments.payouts import icm_equities

    equities = icm_equities([5000, 3000, 2000], [50, 30, 20])
    assert equities == [Fraction(1075, 28), Fraction(131, 4), Fraction(202, 7)]
    assert [round(float(e), 2) for e in equities] == [38.39, 32.75, 28.86]


@given(
    stacks=st.lists(st.integers(min_value=1, max_value=10**6), min_size=2, max_size=7),
    pool=st.integers(min_value=0, max_value=10**7),
    method=st.sampled_from(["icm", "chop"]),
)
def test_deals_always_sum_to_the_prizes_left_and_never_pay_a_smaller_stack_more(stacks, pool, method):
    from tournaments.payouts import chip_chop, icm_deal

    prizes = payouts(pool=pool, entries=max(len(stacks), 9), template="top_15_percent")[: len(stacks)]
    amounts = (icm_deal if method == "icm" else chip_chop)(stacks, prizes)
    assert sum(amounts) == sum(prizes)
    assert all(amount >= 0 for amount in amounts)
    for a, b in itertools.combinations(range(len(stacks)), 2):
        if stacks[a] > stacks[b]:
            assert amounts[a] >= amounts[b]
