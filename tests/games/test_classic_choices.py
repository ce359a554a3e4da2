"""Classic Sabacc is offered wherever a variant is chosen: the games provider that league forms, league rules
checks and online tables ask (`rule_choices`, `resolve_rules`), with its two presets and checked overrides."""

import pytest

from config.errors import ApplicationError
from games.providers import resolve_rules, rule_choices
from league.providers import RulesRefused
from league.services.rules import resolve_game_rules


def test_rule_choices_offer_classic_with_its_two_presets():
    choices = rule_choices()
    assert choices["classic"] == ("classic", "universe")
    assert "coruscant_shift" in choices


def test_resolve_rules_gives_the_full_classic_option_set_with_overrides():
    options = resolve_rules(variant="classic", preset="universe", overrides={"call_round": 6, "ante": 2})
    assert options["call_round"] == 6 and options["ante"] == 2
    assert options["shift_rolls"] == "rounds" and options["declare_totals"] is False
    # `end_rule` is an option (last_player or never); a resolved set leaves out the variant's own rule.
    assert "end_rule" not in options


def test_a_bad_classic_override_is_refused_with_what_is_allowed():
    with pytest.raises(RulesRefused, match="'shift_rolls' must be one of turns_and_rounds, rounds, off"):
        resolve_rules(variant="classic", preset="classic", overrides={"shift_rolls": "never"})
    with pytest.raises(ApplicationError, match="These game rules are not allowed: Unknown option 'blinds'"):
        resolve_game_rules(variant="classic", preset="classic", overrides={"blinds": 2})


def test_the_forms_offer_each_variant_only_its_own_choices(db):
    import re

    from league.forms import LeagueForm

    html = str(LeagueForm()["opt_end_rule"])
    groups = dict(re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', html, re.S))
    assert set(groups) == {"Coruscant Shift", "Corellian Spike", "Classic"}
    assert re.findall(r'value="(\w+)"', groups["Coruscant Shift"]) == ["last_player", "everyone_deals", "never"]
    for variant in ("Corellian Spike", "Classic"):
        assert re.findall(r'value="(\w+)"', groups[variant]) == ["last_player", "never"]
    # Classic's own choice options are choices, not numbers; an option every variant offers alike is one list.
    assert re.findall(r'value="(\w+)"', str(LeagueForm()["opt_shift_rolls"])) == ["turns_and_rounds", "rounds", "off"]
    assert "<optgroup" not in str(LeagueForm()["opt_min_raise"])
    with pytest.raises(ApplicationError, match="'end_rule' must be one of last_player, never"):
        resolve_game_rules(variant="classic", preset="classic", overrides={"end_rule": "everyone_deals"})
