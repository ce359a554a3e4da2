"""Classic Sabacc where a variant is chosen in the league app: the form choices, a league and season with its
presets and options, and manual entry with a Classic replay upload (its Sabacc pot left unpaid is accepted)."""

import copy
import json
from datetime import date
from pathlib import Path

import pytest

from config.errors import ApplicationError
from games.models import Seat
from games.services import result_record
from league.forms import LeagueForm, option_specs, preset_choices, variant_choices
from league.services.leagues import league_create, season_create
from tests.league.conftest import new_members

pytestmark = pytest.mark.django_db
EXAMPLE = json.loads(
    (Path(__file__).parents[1] / "engine" / "replays" / "classic" / "documented_example.json").read_text()
)["replay"]


def test_the_forms_offer_classic_its_presets_and_its_options(world):
    assert any(value == "classic" for value, _ in variant_choices())
    assert {"classic", "universe"} <= {value for value, _ in preset_choices()}
    names = {spec["name"] for spec in option_specs()}
    assert {"call_round", "max_rounds", "shift_rolls", "hand_ranking", "declare_totals", "sabacc_ante"} <= names
    form = LeagueForm()
    assert 'value="classic"' in str(form["variant"]) and "universe" in str(form["preset"])


def test_a_league_and_a_season_are_created_with_classic(world):
    league = league_create(
        actor=world.users["organiser"],
        name="Classic Circuit",
        variant="classic",
        preset="classic",
        option_overrides={"call_round": 3, "hand_ranking": "signed"},
    )
    assert (league.variant, league.preset, league.option_overrides["call_round"]) == ("classic", "classic", 3)
    season = season_create(
        actor=world.users["organiser"],
        league=league,
        name="Universe nights",
        starts_on=date(2026, 1, 1),
        preset="universe",
    )
    assert season.preset == "universe"
    with pytest.raises(ApplicationError, match="Unknown preset 'cantina'"):
        league_create(actor=world.users["organiser"], name="Bad", variant="classic", preset="cantina")


def test_manual_entry_with_a_classic_replay_keeps_the_sabacc_pot_unpaid(world):
    ann, bob = new_members(world, "Ann", "Bob")
    game = result_record(
        actor=world.users["organiser"],
        event=world.event,
        seats=[{"player": ann.pk, "buy_in": 50}, {"player": bob.pk, "buy_in": 50}],
        replay=copy.deepcopy(EXAMPLE),
    )
    assert (game.variant, game.preset) == ("classic", "classic")
    assert game.options["call_round"] == 1
    finals = dict(Seat.objects.filter(game=game).values_list("player__display_name", "final_credits"))
    assert finals == {"Ann": 55, "Bob": 43}  # the Sabacc pot's 2 credits stay unpaid
    with pytest.raises(ApplicationError, match="starts the replay with 50 credits but bought in for 60"):
        result_record(
            actor=world.users["organiser"],
            event=world.event,
            seats=[{"player": ann.pk, "buy_in": 60}, {"player": bob.pk, "buy_in": 50}],
            replay=copy.deepcopy(EXAMPLE),
        )
