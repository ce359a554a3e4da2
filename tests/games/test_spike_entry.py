"""Corellian Spike everywhere a variant is chosen: the rule choices, leagues and seasons with its presets,
manual entry with a replay upload (the Sabacc pot left unpaid at the end is accepted, RULES Ruling 2.6.1)."""

import copy
import json
from datetime import date
from pathlib import Path

import pytest

from config.errors import ApplicationError
from games.models import Seat
from games.services import result_record
from games.words import card_name
from league.forms import LeagueForm, option_specs, preset_choices, variant_choices
from league.providers import games
from league.services.leagues import league_create, season_create
from tests.engine.spike.helpers import scripted_document
from tests.league.conftest import new_members

pytestmark = pytest.mark.django_db
EXAMPLE = json.loads(
    (Path(__file__).parents[1] / "engine" / "replays" / "spike" / "galaxy_worked_example.json").read_text()
)["replay"]


def test_the_rule_choices_offer_the_variant_and_its_presets(world):
    choices = games().rule_choices()
    assert choices["corellian_spike"] == ("galaxy_series", "cantina_spike")
    assert ("corellian_spike", "Corellian Spike") in variant_choices()
    assert {"galaxy_series", "cantina_spike", "cantina"} <= {value for value, _ in preset_choices()}
    names = {spec["name"] for spec in option_specs()}
    assert {"sabacc_ante", "market", "market_prices", "gain_from_discard", "spike_dice", "ante_increments"} <= names
    form = LeagueForm()
    assert "corellian_spike" in str(form["variant"]) and "galaxy_series" in str(form["preset"])


def test_a_league_and_a_season_are_created_with_corellian_spike(world):
    league = league_create(
        actor=world.users["organiser"],
        name="Spike Circuit",
        variant="corellian_spike",
        preset="galaxy_series",
        option_overrides={"sabacc_ante": 2, "market_prices": [1, 2, 4]},
    )
    assert (league.variant, league.preset, league.option_overrides["sabacc_ante"]) == (
        "corellian_spike",
        "galaxy_series",
        2,
    )
    season = season_create(
        actor=world.users["organiser"],
        league=league,
        name="Cantina nights",
        starts_on=date(2026, 1, 1),
        preset="cantina_spike",
    )
    assert season.preset == "cantina_spike"
    with pytest.raises(ApplicationError, match="the presets are: galaxy_series, cantina_spike"):
        league_create(actor=world.users["organiser"], name="Bad", variant="corellian_spike", preset="better")


def example_game(world):
    """Bob and Jane's game of `EXAMPLE` (a buy-in of 50 each) entered at `world`'s event; with Bob and Jane."""
    bob, jane = new_members(world, "Bob", "Jane")
    game = result_record(
        actor=world.users["organiser"],
        event=world.event,
        seats=[{"player": bob.pk, "buy_in": 50}, {"player": jane.pk, "buy_in": 50}],
        replay=copy.deepcopy(EXAMPLE),
    )
    return game, bob, jane


def test_manual_entry_with_a_corellian_spike_replay(world):
    game, bob, _ = example_game(world)
    assert (game.variant, game.preset) == ("corellian_spike", "galaxy_series")
    assert game.options["market_prices"] == [1, 2, 3]
    assert dict(Seat.objects.filter(game=game).values_list("player__display_name", "final_credits")) == {
        "Bob": 64,
        "Jane": 36,
    }
    assert Seat.objects.get(game=game, player=bob).place == 1


def test_manual_entry_accepts_a_sabacc_pot_left_unpaid_and_still_checks_the_credits(world):
    ann, bob = new_members(world, "Ann", "Bob")
    # Two Nulrheks: Bob's +1 wins the main pot; the Sabacc pot (2) carries over and the game ends there.
    document = scripted_document({"Ann": ["+9c", "-6s"], "Bob": ["+7c", "-6t"]}, stacks=50)
    game = result_record(
        actor=world.users["organiser"],
        event=world.event,
        seats=[{"player": ann.pk, "buy_in": 50}, {"player": bob.pk, "buy_in": 50}],
        replay=document,
    )
    finals = dict(Seat.objects.filter(game=game).values_list("player__display_name", "final_credits"))
    assert finals == {"Ann": 47, "Bob": 51}
    with pytest.raises(ApplicationError, match="starts the replay with 50 credits but bought in for 60"):
        result_record(
            actor=world.users["organiser"],
            event=world.event,
            seats=[{"player": ann.pk, "buy_in": 60}, {"player": bob.pk, "buy_in": 50}],
            replay=document,
        )


def test_the_hand_history_of_a_corellian_spike_game_names_no_hidden_card(world):
    from games.history import public_history

    history = public_history(copy.deepcopy(EXAMPLE))
    (hand,) = history["hands"]
    texts = [step["text"] for step in hand["steps"]]
    assert texts[0] == "Bob deals two cards each; +2 circle is turned up as the Pilot."
    assert "Jane buys from the pilot." in texts and "Bob trades a card for one from the draw pile." in texts
    assert "Jane spikes a card." in texts and texts[-1] == "Reveal: Bob wins 26."
    body = json.dumps(hand["steps"][:-1])
    for hidden in ("-8s", "-9c", "+3c"):  # traded away, drawn unseen, spiked: neither the code nor the name
        assert hidden not in body and card_name(hidden, "corellian_spike") not in body


def test_the_game_page_of_a_corellian_spike_game_shows_the_reveal(world, client):
    game, _, _ = example_game(world)
    steps = len(public_history_steps())
    page = client.get(f"/games/{game.pk}/?hand=1&step={steps}")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Prime Sabacc" in text and "Target None" not in text


def public_history_steps() -> list:
    from games.history import public_history

    return public_history(copy.deepcopy(EXAMPLE))["hands"][0]["steps"]
