"""RULES 3.3: who wins. Hand kinds and their order, equal hands, and deciding a pot with Sudden Demise."""

import pytest

from games.engine.classic.cards import parse_cards
from games.engine.classic.ranking import evaluate
from games.engine.classic.settle import decide, share


def hand(*codes: str, ranking: str = "magnitude"):
    return evaluate(parse_cards(codes), ranking)


def test_3_3_total_is_the_sum_of_all_cards():
    assert hand("+15s", "+7f").total == 22
    assert hand("-17", "-2", "+4c").total == -15


def test_3_3_idiots_array_is_the_idiot_a_suit_2_and_a_suit_3_and_beats_pure_sabacc():
    array = hand("0", "+2s", "+3t")
    assert array.hand == "idiots_array"
    assert array.total == 5
    pure = hand("+15s", "+8f")
    assert pure.hand == "pure_sabacc"
    assert array.key > pure.key


def test_3_3_pure_sabacc_is_plus_or_minus_23():
    assert hand("+15s", "+8f").hand == "pure_sabacc"
    assert hand("-17", "-8", "+2c").hand == "pure_sabacc"
    assert hand("+15s", "+8f").key > hand("-17", "-8", "+2c").key  # Ruling 3.3.2: +23 over -23
    assert hand("-17", "-8", "+2c").key > hand("+15s", "+7f").key


@pytest.mark.parametrize(("cards", "total"), [(("+15s", "+9f"), 24), (("-17", "-8"), -25), (("+2s", "-2"), 0)])
def test_3_3_above_23_below_minus_23_or_exactly_0_bombs_out(cards, total):
    score = hand(*cards)
    assert score.hand == "bomb_out"
    assert score.total == total
    assert score.key < hand("+1s").key


def test_3_3_1_magnitude_ranks_by_distance_to_23_and_signed_by_the_total():
    minus_22, plus_21 = ("-17", "-8", "+3s"), ("+15s", "+6f")
    assert hand(*minus_22).total == -22
    assert hand(*minus_22).key > hand(*plus_21).key  # -22 is nearer to -23 than +21 to +23
    assert hand(*minus_22, ranking="signed").key < hand(*plus_21, ranking="signed").key
    assert hand("+1s", ranking="signed").key > hand("-2", "+1s", ranking="signed").key  # +1 > -1
    assert hand(*minus_22, ranking="signed").key < hand("-2", "+1s", ranking="signed").key  # -22 is the worst
    assert hand("-17", "-8", "+2c", ranking="signed").key > hand("+15s", "+7f", ranking="signed").key  # -23 > +22


def test_3_3_2_at_the_same_distance_the_positive_total_wins():
    plus_20, minus_20 = hand("+15s", "+5f"), hand("-17", "-2", "-2", "+1s")
    assert minus_20.total == -20
    assert plus_20.key > minus_20.key
    assert hand("+1s").key > hand("-2", "+1s").key


def test_3_3_3_a_fourth_card_makes_an_ordinary_hand_and_the_queen_is_not_a_2():
    assert hand("0", "+2s", "+3t", "+1c").hand == "ordinary"
    assert hand("0", "-2", "+3t").hand == "ordinary"
    assert hand("0", "+2s", "+3t").key == hand("0", "+2f", "+3c").key  # all arrays are equal


def test_3_3_equal_hands_are_the_same_kind_with_the_same_total():
    assert hand("+10s", "+10f").key == hand("+15c", "+5t").key
    assert hand("+15s", "+5f").key != hand("-17", "-2", "-2", "+1s").key  # +20 and -20 are not equal
    assert hand("+15s", "+8f").key == hand("+15c", "+8t").key


def no_cards(seats):
    return False


def test_3_3_deciding_leaves_out_bombed_players_and_the_best_hand_wins():
    scores = {0: hand("+15s", "+9f"), 1: hand("+10s", "+8f"), 2: hand("+10c", "+5f")}
    assert decide([0, 1, 2], scores, no_cards) == [1]


def test_3_3_a_pot_nobody_can_win_has_no_winners():
    scores = {0: hand("+15s", "+9f"), 1: hand("+2s", "-2")}
    assert decide([0, 1], scores, no_cards) == []


def dealer_of(cards_by_seat: dict[int, list[str]], scores: dict, log: list):
    """A Sudden Demise dealer handing out the listed cards in turn, re-scoring as it goes."""
    held = {seat: [] for seat in cards_by_seat}

    def deal(seats):
        for seat in seats:
            card = cards_by_seat[seat].pop(0)
            held[seat].append(card)
            log.append((seat, card))
            scores[seat] = evaluate(parse_cards(base[seat] + held[seat]))
        return True

    base: dict = {}
    return deal, base


def test_3_3_sudden_demise_between_equal_best_hands():
    base = {0: ["+10s", "+10f"], 1: ["+15c", "+5t"], 2: ["+2s", "+3s"]}
    scores = {s: evaluate(parse_cards(c)) for s, c in base.items()}
    log: list = []
    deal, cards = dealer_of({0: ["+2c"], 1: ["+1c"]}, scores, log)
    cards.update(base)
    assert decide([0, 1, 2], scores, deal) == [0]
    assert log == [(0, "+2c"), (1, "+1c")]


def test_3_3_4_repeated_sudden_demise_among_its_own_players_only():
    base = {0: ["+10s", "+10f"], 1: ["+15c", "+5t"], 2: ["+11s", "+9s"], 3: ["+1s"]}
    scores = {s: evaluate(parse_cards(c)) for s, c in base.items()}
    log: list = []
    # A, B and C tie at 20; A and B draw 1, C draws -2: A and B tie again above C; both then bomb out.
    deal, cards = dealer_of({0: ["+1f", "+9c"], 1: ["+1t", "+8c"], 2: ["-2"]}, scores, log)
    cards.update(base)
    assert decide([0, 1, 2, 3], scores, deal) == [2]
    assert len(log) == 5


def test_3_3_step_3_when_every_player_of_a_sudden_demise_bombs_out_the_others_decide():
    base = {0: ["+10s", "+10f"], 1: ["+15c", "+5t"], 2: ["+4s"]}
    scores = {s: evaluate(parse_cards(c)) for s, c in base.items()}
    deal, cards = dealer_of({0: ["+15t"], 1: ["+14t"]}, scores, [])
    cards.update(base)
    assert decide([0, 1, 2], scores, deal) == [2]


def test_3_3_6_too_few_cards_for_a_sudden_demise_share_the_pot_odd_credits_from_the_dealers_left():
    scores = {4: hand("+10s", "+10f"), 1: hand("+15c", "+5t")}
    assert decide([4, 1], scores, no_cards) == [4, 1]
    assert share(7, [4, 1]) == {4: 4, 1: 3}
    assert share(8, [2, 0, 1]) == {2: 3, 0: 3, 1: 2}
