"""What the clock says: a finished tournament's clock is stopped where it was completed and says so (page, API,
projector); a Halcyon tournament's clock shows the ante its tables pay, not the levels' blinds, and the control
room gives no chip-race advice for it."""

import re
from datetime import timedelta

from django.test import Client
from django.utils import timezone

from tournaments import selectors, services
from tournaments.models import Format, TournamentStatus
from tournaments.templatetags.clock_text import clock_time

from .conftest import colour_up_control_room, drawn, signed_in


def run(night, tournament, players=4):
    drawn(night, tournament, players)


def test_a_finished_tournaments_clock_is_stopped_and_says_so(night, tournament):
    run(night, tournament)
    for player in night.players[1:4]:
        services.tournament_eliminate(actor=night.organiser, tournament=tournament, player=player)
    services.tournament_complete(actor=night.organiser, tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    later = tournament.completed_at + timedelta(hours=3)  # long past every level's end
    clock = selectors.clock_summary(tournament, now=later)
    assert clock["finished"] is True and clock["seconds_left"] is None and not clock["paused"]
    assert clock["level_number"] == 1 and clock["next_level_label"] == ""
    api = Client().get(f"/api/tournaments/{tournament.pk}/clock/").json()
    assert api["finished"] is True and api["seconds_left"] is None
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "stopped: the tournament is finished" in page
    projector = Client().get(f"/tournaments/{tournament.pk}/clock/").content.decode()
    assert 'aria-live="off">Finished</p>' in projector


def test_a_running_tournaments_clock_counts(night, tournament):
    run(night, tournament)
    clock = selectors.clock_summary(tournament, now=timezone.now())
    assert clock["finished"] is False and clock["seconds_left"] > 0 and clock["level_label"] == "Blinds 5/10"
    # Before the script first runs, the time left reads as it will: m:ss on the projector, "m min ss s" in the panel
    projector = Client().get(f"/tournaments/{tournament.pk}/clock/").content.decode()
    shown = projector.split('aria-live="off">', 1)[1].split("</p>", 1)[0]
    assert re.fullmatch(r"\d+:[0-5]\d", shown) and "Blinds 5/10" in projector
    assert clock_time(335, "projector") == "5:35" and clock_time(335) == "5 min 35 s" and clock_time(None) == "\u2013"


def test_a_halcyon_clock_shows_its_tables_ante_and_no_chip_race(night):
    structure = [
        {"small_blind": 5, "big_blind": 10, "length": 10},
        {"small_blind": 50, "big_blind": 100, "length": 10},
    ]
    tournament = services.tournament_create(
        actor=night.organiser, event=night.event, structure=structure, format=Format.HALCYON, seats_per_table=4
    )
    run(night, tournament)
    clock = selectors.clock_summary(tournament)
    assert clock["level_label"] == "ante 1 · pay 1 to stay (Halcyon)"
    assert clock["next_level_label"] == clock["level_label"]
    page = signed_in(night.organiser).get(f"/manage/tournaments/{tournament.pk}/").content.decode()
    assert "ante 1 · pay 1 to stay (Halcyon)" in page and "5/10" not in page.split('id="clock"')[1].split("</dl>")[0]
    assert "Chip race and colour-up" not in page  # a freezeout with these levels would be told to colour up


def test_the_same_levels_at_a_freezeout_do_prompt_the_chip_race(night):
    assert "Chip race and colour-up" in colour_up_control_room(night)
