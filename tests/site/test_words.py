"""The game's codes in words (`games.words` and its template filters): every card of every deck has a name
without its code, phases and presets read as words, and the ledger reads from the player's side."""

import pytest
from django.template import Context, Template

from games import words
from games.engine.variant import get_variant, variant_names
from games.online.views import _league_chips_text
from league.models import LedgerKind
from league.pages import player_side


def test_the_issues_cards_in_words():
    assert words.card_name("-3t", "coruscant_shift") == "\u22123 triangle"
    assert words.card_name("+7c", "corellian_spike") == "+7 circle"
    assert words.card_name("0", "coruscant_shift") == "Sylop"
    assert words.card_name("0", "classic") == "The Idiot"
    assert words.card_name("-17", "classic") == "The Star (\u221217)"
    assert words.card_name("+12c", "classic") == "12 Coins (Commander)"
    assert words.cards_words("-8c -2t +10s", "coruscant_shift") == "\u22128 circle, \u22122 triangle, +10 square"


@pytest.mark.parametrize("variant", variant_names())
def test_every_card_of_every_deck_has_a_name_that_is_no_code(variant):
    for card in get_variant(variant).deck():
        name = words.card_name(card.code, variant)
        assert name and name != card.code
        assert not words.codes_in(name), (card.code, name)


@pytest.mark.parametrize("variant", variant_names())
def test_every_phase_and_preset_reads_as_words(variant):
    spec = get_variant(variant)
    for phase in spec.phases:
        assert not words.codes_in(words.phase_title(variant, phase)), phase
    for preset in spec.presets:
        title = words.rules_title(variant, preset)
        assert not words.codes_in(title) and "_" not in title, title


def test_rules_read_as_the_league_pages_name_them():
    assert words.rules_title("corellian_spike", "galaxy_series") == "Corellian Spike (Galaxy Series)"
    assert words.rules_title("classic", "universe") == "Classic (Universe)"


def test_an_unknown_code_is_returned_as_it_came():
    assert words.card_name("zz", "classic") == "zz" and words.card_name("+99q") == "+99q"


@pytest.mark.parametrize("code", ["\u00b9c", "\u00b9", "+-3c", "--3", "+\u00b2f", "-4f", "\u00b9\u00b9", "c", "+"])
@pytest.mark.parametrize("variant", [None, "coruscant_shift", "classic"])
def test_a_code_with_digits_int_refuses_is_returned_as_it_came(code, variant):
    """`'\u00b9'.isdigit()` is true and `int('\u00b9')` fails, as does `int('+-3')`: such a code raised."""
    assert words.card_name(code, variant) == code
    assert words.card(code, variant)["code"] == code


def test_the_filters_in_a_template():
    html = Template(
        "{% load words %}{{ '-3t'|card_name:'coruscant_shift' }} | {{ 'cards_1'|phase_title:'corellian_spike' }}"
        " | {% rules_title 'coruscant_shift' 'better' %} | {{ 'starting_stack'|option_label }}"
        " | {{ 'double_blinds'|option_words:'escalation' }} | {{ 'c'|suit_name }}"
    ).render(Context())
    assert html == (
        "\u22123 triangle | Round 1: card turns | Better Coruscant Shift | Starting credits"
        " | the blinds double each time the button passes the first dealer | circle"
    )


def test_the_ledger_reads_from_the_players_side():
    assert player_side(LedgerKind.BUY_IN, 450) == (-450, True)  # money going out
    assert player_side(LedgerKind.REBUY, 200) == (-200, True)
    assert player_side(LedgerKind.PAYOUT, -600) == (600, True)  # money taken home
    assert player_side(LedgerKind.HAND_WON, 30) == (30, False)
    assert player_side(LedgerKind.HAND_LOST, -20) == (-20, False)


class Chip:
    def __init__(self, name: str, value: int) -> None:
        self.name, self.colour, self.value = name, "", value


def test_a_stack_is_shown_in_the_leagues_chips():
    crystal = [Chip("Crystal", 200), Chip("Gold", 100), Chip("Bronze", 5)]
    assert _league_chips_text(crystal, 505) == "2 Crystal, 1 Gold, 1 Bronze"
    assert _league_chips_text(crystal, 203) == "1 Crystal + 3 credits"
    assert _league_chips_text(crystal, 1) == "1 credit"
    assert _league_chips_text([Chip("Chip", 1)], 264) == ""  # one credit a chip: the count repeats the stack


def test_the_classic_table_says_its_rolls_in_a_sentence():
    """ "No roll yet this hand" before the first roll; then "Last roll 4-4 · 2 rolls this hand", never the two run
    together ("no roll yet 0 rolls this hand")."""
    from django.template.loader import render_to_string

    from tests.engine.classic.helpers import act, new_game, start

    game = new_game(stacks=[100, 100, 100])
    hands = {"Ann": ["+1s", "+2s"], "Bob": ["+3s", "+4s"], "Cat": ["+5s", "+6s"]}
    start(game, hands, then=["+7s"], rolls=[(1, 2), (4, 4)] + [(1, 2)] * 10, piles=[["+11f", "+12f", "+13f"]])
    before = " ".join(render_to_string("tables/variants/classic.html", {"view": game.spectator_view()}).split())
    assert "No roll yet this hand" in before and "rolls this hand" not in before
    act(game, "Bob", "draw", lock="+7s")
    act(game, "Cat", "stand", lock="+6s")
    after = " ".join(render_to_string("tables/variants/classic.html", {"view": game.spectator_view()}).split())
    assert "Last roll <span" in after and "data-last-roll>4-4</span> · " in after
    assert "2 rolls this hand" in after and "No roll yet" not in after
