"""The demo data loads, is idempotent, and leaves standings to read."""

import io

from django.contrib.auth import get_user_model

from games.models import Game
from games.online.models import OnlineTable
from league.demo import DEMO_LEAGUE, VARIANT_LEAGUES
from league.models import EventStatus, League, LedgerEntry, Standing
from league.selectors import standings_rows
from tournaments.demo import load_demo_data


def test_the_demo_loads_once_and_keeps_the_organiser_login(db):
    load_demo_data(io.StringIO())
    counts = (Game.objects.count(), LedgerEntry.objects.count(), Standing.objects.count())
    load_demo_data(io.StringIO())
    assert (Game.objects.count(), LedgerEntry.objects.count(), Standing.objects.count()) == counts
    assert get_user_model().objects.get(username="organiser").check_password("sabacc-demo")
    league = League.objects.get(slug=DEMO_LEAGUE)
    assert league.memberships.count() == 13  # twelve players and the organiser
    past, current = league.seasons.order_by("starts_on")
    assert past.events.filter(status=EventStatus.FINISHED).count() == 6
    assert current.events.filter(status=EventStatus.RUNNING, kind="tournament").exists()
    table = standings_rows(league=league, season=past)
    assert len(table) >= 8 and table[0]["rank"] == 1 and table[0]["points"] > table[-1]["points"]
    # Every game balances in the ledger: what came in went out (the tournament still running holds its prize pool).
    settled = LedgerEntry.objects.exclude(event__name="Friday freezeout")
    assert sum(settled.values_list("amount", flat=True)) == 0
    # Beside it a league of each other variant, with a table of that variant waiting in the lobby.
    for slug, _, variant, preset, _ in VARIANT_LEAGUES:
        other = League.objects.get(slug=slug)
        assert (other.variant, other.preset) == (variant, preset)
        table = OnlineTable.objects.get(event__season__league=other)
        assert table.variant == variant and table.status == "open"
        members = set(other.memberships.values_list("player__display_name", flat=True))
        assert {"Han", "Lando", "Leia", "Chewbacca"} <= members  # the demo player may sit down at its table
    assert {league.variant for league in League.objects.all()} == {"coruscant_shift", "corellian_spike", "classic"}
