"""The Classic table-page partial (templates/tables/variants/classic.html) renders an engine view:
fields (public), rolls and Shifts as they happen, and both pots; nobody's hand cards."""

import re

from django.template.loader import render_to_string

from tests.engine.classic.helpers import act, check_round, hand_of, new_game, seat, start


def test_partial_shows_fields_rolls_shifts_and_pots_but_no_hand_card():
    game = new_game(stacks=[100, 100, 100])
    hands = {"Ann": ["+1s", "+2s"], "Bob": ["+3s", "+4s"], "Cat": ["+5s", "+6s"]}
    start(game, hands, then=["+7s"], rolls=[(1, 2), (4, 4)] + [(1, 2)] * 10, piles=[["+11f", "+12f", "+13f"]])
    act(game, "Bob", "draw", lock="+7s")
    act(game, "Cat", "stand", lock="+6s")  # then 4-4: a Shift
    html = render_to_string("tables/variants/classic.html", {"view": game.view_for(seat(game, "Ann"))})
    assert 'data-field-card="+7s"' in html and 'data-field-card="+6s"' in html
    assert "data-last-roll>4-4<" in html and "Sabacc Shift at roll 2" in html
    assert "data-sabacc-pot>3<" in html and "data-hand-pot>3<" in html
    # A declared total is the two-card total after the deal (Ruling 3.2.2), said so: the cards change after it.
    assert "declared 7 at the deal" in html and "declared 11 at the deal" in html
    # Set apart from the count of cards in hand that follows it (on a phone the two ran together).
    assert re.search(r"declared 7 at the deal</small>\s*<span[^>]*>·</span>\s*<span class=\"held\">", html)
    for name in ("Bob", "Cat"):
        for code in hand_of(game, name):
            assert f">{code}<" not in html and f'data-code="{code}"' not in html
    act(game, "Ann", "stand")
    check_round(game)
    later = render_to_string("tables/variants/classic.html", {"view": game.spectator_view()})
    assert "4 rolls this hand" in later and "Round <strong>2</strong>" in later


def test_partial_renders_nothing_for_another_variant():
    assert render_to_string("tables/variants/classic.html", {"view": {"hand": {"target": 5}}}).strip() == ""
