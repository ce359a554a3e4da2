"""Points formulas against worked examples, and the standings options: best-N, minimum players, ties."""

import math

import pytest

from config.errors import ApplicationError
from league.standings.compute import ResultRow, Rules, compute_standings, event_points
from league.standings.formulas import FORMULAS, PlaceResult, validate_formula
from league.standings.metrics import validate_tie_breakers


def points(key: str, players: int, place: int, parameters: dict | None = None, **extra) -> float:
    return FORMULAS[key].points(PlaceResult(players=players, place=place, **extra), parameters or {})


def test_linear_is_n_minus_place_plus_one():
    assert points("linear", 8, 3) == 6
    assert points("linear", 8, 1) == 8
    assert points("linear", 8, 8) == 1


def test_square_root_of_eight_players_third_place():
    assert points("sqrt", 8, 3) == pytest.approx(10 * math.sqrt(8) / math.sqrt(3))
    assert points("sqrt", 8, 3) == pytest.approx(16.3299, abs=1e-4)
    assert points("sqrt", 4, 1) == pytest.approx(20.0)


def test_logarithmic_of_eight_players_third_place():
    assert points("log", 8, 3) == pytest.approx(math.log(9 / 3))
    assert points("log", 8, 3) == pytest.approx(1.0986, abs=1e-4)
    assert points("log", 8, 9) == pytest.approx(0.0)


def test_fixed_table_is_editable_and_places_past_it_score_nothing():
    table = {"table": [10, 6, 3]}
    assert [points("fixed", 8, place, table) for place in (1, 2, 3, 4)] == [10, 6, 3, 0]
    assert points("fixed", 8, 1) == 25  # the default table


def test_fixed_table_must_be_numbers():
    with pytest.raises(ApplicationError, match="non-empty list of numbers"):
        validate_formula("fixed", {"table": ["ten", 5]})


def test_custom_formula_over_named_variables():
    parameters = validate_formula("custom", {"expression": "(players - place + 1) * 2 + knockouts + prize_pool / 100"})
    assert points("custom", 8, 3, parameters, knockouts=2, prize_pool=3600) == (8 - 3 + 1) * 2 + 2 + 36
    assert points("custom", 8, 3, validate_formula("custom", {"expression": "sqrt(players) / place"})) == pytest.approx(
        math.sqrt(8) / 3
    )


@pytest.mark.parametrize(
    "expression",
    [
        "__import__('os').system('true')",
        "open('/etc/passwd').read()",
        "players.__class__",
        "().__class__.__bases__[0].__subclasses__()",
        "secret_variable + 1",
        "9 ** 9 ** 9",
        "'x' * 10",
    ],
)
def test_unsafe_or_broken_custom_formula_is_refused_when_saved(expression):
    with pytest.raises(ApplicationError, match=r"cannot be used|custom formula"):
        validate_formula("custom", {"expression": expression})


def test_unknown_formula_names_the_choices():
    with pytest.raises(ApplicationError, match="linear"):
        validate_formula("golden", {})


def test_tie_breakers_must_be_known_metrics():
    assert validate_tie_breakers(["wins", "net_credits"]) == ["wins", "net_credits"]
    with pytest.raises(ApplicationError, match="Unknown tie-breaker luck"):
        validate_tie_breakers(["luck"])


def rows(*results):
    """results: (event, player, place, players[, tied, credits_in, credits_out])"""
    built = []
    for event, player, place, players, *rest in results:
        tied, credits_in, credits_out = (rest + [1, 0, 0][len(rest) :]) if rest else (1, 0, 0)
        built.append(
            ResultRow(
                event_id=event,
                player_id=player,
                place=place,
                players=players,
                tied=tied,
                credits_in=credits_in,
                credits_out=credits_out,
            )
        )
    return built


def ranked(result):
    return [(rank, tally.player_id, round(tally.points, 4)) for rank, tally in result]


def test_tie_breakers_order_players_equal_on_points():
    # Players 1 and 2 both score 4 points (linear, 4 players), player 1 wins more; player 3 nets more credits.
    data = rows(
        (1, 1, 1, 4, 1, 100, 300),
        (2, 1, 4, 4, 1, 100, 0),
        (1, 2, 2, 4, 1, 100, 50),
        (2, 2, 3, 4, 1, 100, 50),
        (1, 3, 3, 4, 1, 100, 50),
        (2, 3, 2, 4, 1, 100, 350),
    )
    by_wins = compute_standings(data, Rules(formula="linear", parameters={}, tie_breakers=("points", "wins")))
    assert (by_wins[0][0], by_wins[0][1].player_id) == (1, 1)
    by_credits = compute_standings(data, Rules(formula="linear", parameters={}, tie_breakers=("points", "net_credits")))
    assert [t.player_id for _, t in by_credits] == [3, 1, 2]
    # Average place cannot split them (2.5 each) and events played neither: all three share first place.
    shared = compute_standings(
        data, Rules(formula="linear", parameters={}, tie_breakers=("points", "average_place", "events_played"))
    )
    assert [rank for rank, _ in shared] == [1, 1, 1]


def test_best_n_counts_only_the_best_events():
    data = rows((1, 1, 1, 4), (2, 1, 4, 4), (3, 1, 2, 4), (1, 2, 2, 4), (2, 2, 2, 4), (3, 2, 2, 4))
    all_count = ranked(compute_standings(data, Rules(formula="linear", parameters={})))
    assert all_count == [(1, 2, 9.0), (2, 1, 8.0)]  # player 2: 3+3+3; player 1: 4+1+3
    best_two = compute_standings(data, Rules(formula="linear", parameters={}, best_n=2))
    assert ranked(best_two) == [(1, 1, 7.0), (2, 2, 6.0)]
    assert best_two[0][1].events_counted == 2 and best_two[0][1].events_played == 3


def test_events_with_too_few_players_do_not_count():
    data = rows((1, 1, 1, 2), (1, 2, 2, 2), (2, 2, 1, 5), (2, 1, 5, 5))
    result = compute_standings(data, Rules(formula="linear", parameters={}, min_players=3))
    assert ranked(result) == [(1, 2, 5.0), (2, 1, 1.0)]
    assert all(t.events_played == 1 for _, t in result)


def test_tied_players_share_the_better_place_or_the_average():
    # Two players tie for second of four: better place gives both 3 points; otherwise (3 + 2) / 2.
    row = ResultRow(event_id=1, player_id=1, place=2, players=4, tied=2)
    assert event_points(row, Rules(formula="linear", parameters={}, ties_share_better_place=True)) == 3
    assert event_points(row, Rules(formula="linear", parameters={}, ties_share_better_place=False)) == 2.5
    sqrt_average = (10 * math.sqrt(4) / math.sqrt(2) + 10 * math.sqrt(4) / math.sqrt(3)) / 2
    assert event_points(row, Rules(formula="sqrt", parameters={}, ties_share_better_place=False)) == pytest.approx(
        sqrt_average
    )
