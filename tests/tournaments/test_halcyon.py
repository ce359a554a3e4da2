import pytest

from tournaments.errors import TournamentLogicError
from tournaments.halcyon import SeatResult, advancing, halcyon_places, table_places


def test_places_at_a_table_rank_by_credits_then_by_the_hand_a_player_went_out():
    results = [SeatResult(1, 0, out_hand=3), SeatResult(2, 25), SeatResult(3, 0, out_hand=5), SeatResult(4, 15)]
    assert table_places(results) == {2: 1, 4: 2, 3: 3, 1: 4}


def test_equal_credits_share_a_place_and_a_seat_out_before_hand_1_is_last():
    results = [SeatResult(1, 20), SeatResult(2, 20), SeatResult(3, 0, out_hand=0), SeatResult(4, 0, out_hand=1)]
    assert table_places(results) == {1: 1, 2: 1, 4: 3, 3: 4}


def test_the_winner_advances_by_default_and_a_tie_at_the_cut_advances_both():
    results = [SeatResult(1, 30), SeatResult(2, 10), SeatResult(3, 0, out_hand=2)]
    assert advancing(results) == [1]
    assert advancing(results, 2) == [1, 2]
    assert sorted(advancing([SeatResult(1, 20), SeatResult(2, 20), SeatResult(3, 0, out_hand=4)])) == [1, 2]
    with pytest.raises(TournamentLogicError, match="At least one player advances"):
        advancing(results, 0)


def test_one_table_the_table_decides_the_places():
    table = [SeatResult(1, 5), SeatResult(2, 40), SeatResult(3, 0, out_hand=4)]
    assert halcyon_places([[table]]) == {2: 1, 1: 2, 3: 3}


def test_three_tables_and_a_final_table_places_below_by_round_then_table_place():
    first = [SeatResult(1, 30), SeatResult(2, 0, out_hand=6), SeatResult(3, 0, out_hand=2)]
    second = [SeatResult(4, 0, out_hand=5), SeatResult(5, 20), SeatResult(6, 10)]
    third = [SeatResult(7, 25), SeatResult(8, 5), SeatResult(9, 0, out_hand=1)]
    winners = [advancing(table)[0] for table in (first, second, third)]
    assert winners == [1, 5, 7]
    final = [SeatResult(1, 0, out_hand=3), SeatResult(5, 30), SeatResult(7, 0, out_hand=2)]
    places = halcyon_places([[first, second, third], [final]])
    # The final table decides 1 to 3; then the seconds of each table share 4th, the thirds share 7th.
    assert places == {5: 1, 1: 2, 7: 3, 2: 4, 6: 4, 8: 4, 3: 7, 4: 7, 9: 7}


def test_the_last_round_must_be_one_table():
    with pytest.raises(TournamentLogicError, match="one final table"):
        halcyon_places([[[SeatResult(1, 10)], [SeatResult(2, 10)]]])
