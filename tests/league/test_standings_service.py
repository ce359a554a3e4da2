"""Stored standings: season overrides, league options and what counts, through the real services."""

import math

import pytest

from config.errors import ApplicationError
from games.services import result_record
from league.models import EventStatus
from league.selectors import standings_rows
from league.services import league_update, season_update, standings_recompute
from tests.factories import EventFactory


def play(world, finals, *, status=EventStatus.FINISHED):
    event = EventFactory(season=world.season, status=status)
    seats = [{"player": p.pk, "final_credits": f} for p, f in zip(world.players, finals, strict=False)]
    result_record(actor=world.users["organiser"], event=event, seats=seats)
    return event


def points(world, season):
    standings_recompute(league_id=world.league.pk)
    return {r["display_name"]: r["points"] for r in standings_rows(league=world.league, season=season)}


def test_a_season_formula_overrides_the_league_formula_for_its_own_table(world):
    play(world, [1350, 450, 0, 0])
    season_update(
        actor=world.users["organiser"],
        season=world.season,
        points_formula="fixed",
        points_parameters={"table": [10, 5]},
    )
    assert points(world, world.season) == {"Han": 10, "Lando": 5, "Leia": 0, "Chewie": 0}
    assert points(world, None) == {"Han": 4, "Lando": 3, "Leia": 2, "Chewie": 2}  # all-time: linear, shared third


def test_league_options_best_n_minimum_players_and_ties(world):
    organiser = world.users["organiser"]
    play(world, [900, 0])  # two players: Han wins
    play(world, [0, 1350, 0])  # three players: Lando wins, Han and Leia share second
    league_update(actor=organiser, league=world.league, min_players=3, ties_share_better_place=False)
    assert points(world, world.season) == {"Lando": 3, "Han": 1.5, "Leia": 1.5}  # (2 + 1) / 2 each
    league_update(actor=organiser, league=world.league, min_players=2, ties_share_better_place=True, best_n=1)
    assert points(world, world.season) == {"Han": 2, "Lando": 3, "Leia": 2}
    league_update(actor=organiser, league=world.league, points_formula="log")
    assert points(world, world.season)["Lando"] == pytest.approx(math.log(4 / 1))


def test_planned_and_excluded_events_do_not_count(world):
    play(world, [900, 0])
    excluded = play(world, [0, 900])
    excluded.counts_for_standings = False
    excluded.save()
    assert points(world, world.season) == {"Han": 2, "Lando": 1}


def test_bad_settings_leave_the_league_as_it_was(world):
    with pytest.raises(ApplicationError, match="Unknown points formula"):
        league_update(actor=world.users["organiser"], league=world.league, points_formula="elo", best_n=3)
    world.league.refresh_from_db()
    assert world.league.points_formula == "linear" and world.league.best_n is None
