"""`make run`'s demo holds a tournament in progress with a running clock, on its pages; loading it again keeps it."""

import io

from django.test import Client

from tournaments import services
from tournaments.demo import DEMO_TOURNAMENT, load_demo_data
from tournaments.models import ClockEvent, Tournament, TournamentStatus


def test_the_demo_has_a_tournament_in_progress_with_a_running_clock(db):
    load_demo_data(io.StringIO())
    tournament = Tournament.objects.get(event__name=DEMO_TOURNAMENT)
    assert tournament.status == TournamentStatus.RUNNING and tournament.drawn_at is not None
    state = services.tournament_clock(tournament)
    assert state is not None and not state.paused and not state.finished_structure and state.seconds_left
    assert ClockEvent.objects.filter(tournament=tournament, kind="level").exists()  # the clock has ticked
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Table 1" in page and f'<strong data-clock="level_number">{state.level_index + 1}</strong>' in page
    load_demo_data(io.StringIO())
    assert Tournament.objects.filter(event__name=DEMO_TOURNAMENT).count() == 1
