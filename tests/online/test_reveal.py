"""The reveal says who won each pot and why, in the order the rules decide (RULES 1.3)."""

from games.online.views import pot_reason


def row(cards: int, distance: int, suit: int) -> dict:
    return {"cards": ["+1c"] * cards, "distance": distance, "suit_count": suit}


def test_the_smaller_distance_wins():
    showdown = {"Ann": row(2, 1, 0), "Bob": row(3, 4, 3)}
    assert pot_reason({"eligible": ["Ann", "Bob"], "winners": ["Ann"]}, showdown) == "closest to the target"


def test_the_suit_count_breaks_a_tie_on_distance():
    showdown = {"Ann": row(2, 0, 1), "Bob": row(3, 0, 2)}
    reason = pot_reason({"eligible": ["Ann", "Bob"], "winners": ["Bob"]}, showdown)
    assert reason == "closest to the target, and 2 in the target suit breaks the tie on distance"


def test_a_full_tie_is_shared_or_drawn_for():
    showdown = {"Ann": row(2, 0, 1), "Bob": row(3, 0, 1)}
    assert "shared" in pot_reason({"eligible": ["Ann", "Bob"], "winners": ["Ann", "Bob"]}, showdown)
    drawn = {"eligible": ["Ann", "Bob"], "winners": ["Bob"], "draws": {"Ann": ["-2c"], "Bob": ["+3s"]}}
    assert "draw from the deck" in pot_reason(drawn, showdown)


def test_an_empty_selection_cannot_win_and_a_lone_player_wins_because_the_others_folded():
    showdown = {"Ann": row(0, 0, 0), "Bob": row(1, 9, 0)}
    assert "empty selection" in pot_reason({"eligible": ["Ann", "Bob"], "winners": ["Bob"]}, showdown)
    assert pot_reason({"eligible": ["Bob"], "winners": ["Bob"]}, {"Bob": row(1, 9, 0)}) == "everyone else folded"


def test_a_side_pot_is_judged_among_its_own_contenders():
    showdown = {"Ann": row(2, 0, 0), "Bob": row(2, 3, 0), "Cy": row(2, 3, 2)}
    side = {"eligible": ["Bob", "Cy"], "winners": ["Cy"]}  # Ann, all in for less, is not in the side pot
    assert "breaks the tie on distance" in pot_reason(side, showdown)


def test_the_table_shows_the_pot_as_a_number_and_each_pot_with_its_reason():
    from games.online.views import present

    result = {
        "pots": [{"amount": 7, "eligible": ["Ann", "Bob"], "winners": ["Bob"], "paid": {"Bob": 7}}],
        "showdown": {"Ann": row(1, 0, 1), "Bob": row(3, 0, 2)},
        "folded": [],
    }
    state = {"view": {"hand": {"phase": "complete", "result": result, "pots": []}, "players": []}, "seats": []}
    shown = present(state)
    assert shown["pot"] == 7
    assert shown["reveal"]["pots"][0]["why"].endswith("breaks the tie on distance")
