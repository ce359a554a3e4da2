"""Classic Sabacc is offered wherever a variant is chosen: the games hooks that league forms, league rules
checks and online tables ask (`rule_choices`, `resolve_rules`), with its two presets and checked overrides."""

import pytest

from config.errors import ApplicationError
from games.hooks import resolve_rules, rule_choices
from league import hooks
from league.services.rules import resolve_game_rules


def test_rule_choices_offer_classic_with_its_two_presets():
    choices = rule_choices()
    assert choices["classic"] == ("classic", "universe")
    assert "coruscant_shift" in choices


def test_resolve_rules_gives_the_full_classic_option_set_with_overrides():
    options = resolve_rules(variant="classic", preset="universe", overrides={"call_round": 6, "ante": 2})
    assert options["call_round"] == 6 and options["ante"] == 2
    assert options["shift_rolls"] == "rounds" and options["declare_totals"] is False
    assert "end_rule" not in options  # fixed in this variant, not an option


def test_a_bad_classic_override_is_refused_with_what_is_allowed():
    with pytest.raises(hooks.RulesRefused, match="'shift_rolls' must be one of turns_and_rounds, rounds, off"):
        resolve_rules(variant="classic", preset="classic", overrides={"shift_rolls": "never"})
    with pytest.raises(ApplicationError, match="These game rules are not allowed: Unknown option 'blinds'"):
        resolve_game_rules(variant="classic", preset="classic", overrides={"blinds": 2})
