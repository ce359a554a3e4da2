"""Standings update incrementally, and the stored tables always equal a full recomputation.

A new or corrected result, a correction that changes who played (their results deleted, others' added), an
adjustment, an event that stops (or starts) counting and an event deleted with its results recomputes only the
players it touches (`league.services.standings.standings_refresh`) and re-ranks their tables; the property runs
random sequences of those through the real services and, after each, compares every stored row and table document
with what `standings_recompute` (kept for repairs) writes from scratch."""

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from config.errors import ApplicationError
from games.models import Game
from games.services import result_correct, result_record
from league.models import Event, EventStatus, League, LedgerEntry, Standing, StandingsTable
from league.services import (
    event_results_rebuild,
    event_update,
    league_data_changed,
    ledger_adjust,
    standings_recompute,
    standings_schedule,
)
from league.services.standings import SeatRow, standings_refresh
from tests.factories import EventFactory, SeasonFactory

BUY_IN = 450
FIELDS = ("scope", "season_id", "player_id", "display_name", "rank", "points", "wins", "net_credits")
FIELDS += ("average_place", "events_played", "events_counted", "biggest_pot")


def stored(league: League) -> tuple[list[tuple], dict[str, dict]]:
    rows = sorted(Standing.objects.filter(league=league).values_list(*FIELDS))
    tables = {scope: json.loads(payload) for scope, payload in league.standings_tables.values_list("scope", "payload")}
    return rows, tables


def recomputed(league: League) -> tuple[list[tuple], dict[str, dict]]:
    """What a full recomputation stores, rolled back afterwards so the sequence goes on from the updates."""
    from django.db import transaction

    with transaction.atomic():
        standings_recompute(league_id=league.pk)
        result = stored(league)
        transaction.set_rollback(True)
    return result


def finals(draw, n: int) -> list[int]:
    """n final counts adding up to what n buy-ins brought (ties and zeros included)."""
    cuts = sorted(draw(st.lists(st.sampled_from(range(0, BUY_IN * n + 1, 150)), min_size=n - 1, max_size=n - 1)))
    return [b - a for a, b in zip([0, *cuts], [*cuts, BUY_IN * n], strict=True)]


def places(world, seats: list[tuple[int, int]]) -> list[SeatRow]:
    """Seats as a higher app pushes them (`event_results_rebuild`): more final credits, a better place."""
    rows = []
    for player, final in seats:
        place = 1 + sum(1 for _, other in seats if other > final)
        rows.append(
            SeatRow(
                player_id=world.players[player].pk,
                round=1,
                place=place,
                buy_in=BUY_IN,
                rebuys=0,
                knockouts=0,
                biggest_pot=final,
            )
        )
    return rows


def event_delete(event) -> None:
    """Delete an event as the admin does (`league.admin.LeagueDataAdmin.delete_model`), on a copy: deleting clears
    the instance's pk, and the world's event is the next example's again after the rollback. An event with ledger
    lines (every game recorded brings some) is protected: the delete is refused and changes nothing."""
    from django.db import transaction
    from django.db.models import ProtectedError

    try:
        with transaction.atomic():
            Event.objects.get(pk=event.pk).delete()
            league_data_changed(league_id=event.season.league_id)
    except ProtectedError:
        assert LedgerEntry.objects.filter(event=event).exists()


@st.composite
def steps(draw):
    kinds = ["record", "record", "correct", "reseat", "push", "adjust", "exclude", "include", "unfinish", "delete"]
    kinds += ["delete"]
    kind = draw(st.sampled_from(kinds))
    event = draw(st.integers(0, 3))
    n = draw(st.integers(2, 5))
    players = draw(st.permutations(range(8)))[:n]
    return kind, event, list(zip(players, finals(draw, n), strict=True)), draw(st.integers(-300, 300))


rules = st.fixed_dictionaries(
    {
        "points_formula": st.sampled_from(["linear", "sqrt", "log", "fixed"]),
        "best_n": st.sampled_from([None, 1, 2]),
        "min_players": st.sampled_from([2, 3]),
        "ties_share_better_place": st.booleans(),
        "tie_breakers": st.sampled_from([[], ["points", "average_place"], ["wins", "biggest_pot", "events_played"]]),
    }
)


@settings(
    max_examples=16, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(league_rules=rules, sequence=st.lists(steps(), min_size=1, max_size=7))
@example(  # always once: results deleted with their event, results of others deleted by a correction
    league_rules={"points_formula": "linear", "best_n": None, "min_players": 2, "ties_share_better_place": True}
    | {"tie_breakers": []},
    sequence=[
        ("push", 1, [(0, 900), (1, 450), (2, 0)], 0),
        ("record", 0, [(1, 900), (3, 0)], 0),
        ("delete", 1, [], 0),
        ("reseat", 0, [(4, 450), (5, 450)], 0),
        ("delete", 0, [], 0),
    ],
)
def test_stored_standings_equal_a_full_recomputation_after_every_change(
    world, django_capture_on_commit_callbacks, league_rules, sequence
):
    from django.db import transaction

    with transaction.atomic():
        League.objects.filter(pk=world.league.pk).update(**league_rules)
        league = League.objects.get(pk=world.league.pk)
        second = SeasonFactory(league=league)
        events = [world.event, EventFactory(season=world.season), EventFactory(season=second)]
        events.append(EventFactory(season=second))
        standings_recompute(league_id=league.pk)
        organiser = world.users["organiser"]
        for kind, index, seats, amount in sequence:
            event = events[index]
            games = list(Game.objects.filter(event=event).order_by("pk"))
            payload = [{"player": world.players[p].pk, "final_credits": c} for p, c in seats]
            with django_capture_on_commit_callbacks(execute=True) as callbacks:
                if kind == "record" or (kind in ("correct", "reseat") and not games):
                    event.refresh_from_db()
                    if event.status != EventStatus.FINISHED:
                        event_update(actor=organiser, event=event, status=EventStatus.FINISHED)
                    result_record(actor=organiser, event=event, seats=payload)
                elif kind == "correct":
                    game = games[-1]
                    again = list(game.seats.values_list("player_id", flat=True))
                    totals = [c for _, c in seats] + [0] * len(again)
                    totals[0] += BUY_IN * len(again) - sum(totals[: len(again)])
                    if min(totals[: len(again)]) < 0:
                        totals = [BUY_IN] * len(again)
                    changed = [{"player": p, "final_credits": c} for p, c in zip(again, totals, strict=False)]
                    finals = dict(game.seats.values_list("player_id", "final_credits"))
                    if {seat["player"]: seat["final_credits"] for seat in changed} == finals:
                        # The recount found the same credits: refused, and nothing changes.
                        with pytest.raises(ApplicationError, match="changes nothing"):
                            result_correct(actor=organiser, game=game, reason="recount", seats=changed)
                    else:
                        result_correct(actor=organiser, game=game, reason="recount", seats=changed)
                elif kind == "reseat":  # the recount finds other players sat: some results deleted, some added
                    try:
                        result_correct(actor=organiser, game=games[-1], reason="wrong table", seats=payload)
                    except ApplicationError as error:
                        assert "changes nothing" in str(error)
                elif kind == "push" and not games:  # a higher app's places, no ledger (a free tournament's)
                    with transaction.atomic():
                        event_results_rebuild(event=event, seats=places(world, seats))
                        standings_schedule(league_id=league.pk)
                elif kind == "delete":  # as the admin deletes an event: its results go with it
                    event_delete(event)
                    if not Event.objects.filter(pk=event.pk).exists():
                        events[index] = EventFactory(season=event.season)
                elif kind == "adjust" and games and amount:
                    ledger_adjust(
                        actor=organiser, event=event, player=world.players[seats[0][0]], amount=amount, reason="fix"
                    )
                elif kind == "exclude":
                    event_update(actor=organiser, event=event, counts_for_standings=False)
                elif kind == "include":
                    event_update(actor=organiser, event=event, counts_for_standings=True)
                elif kind == "unfinish":
                    event_update(actor=organiser, event=event, status=EventStatus.RUNNING)
            # The update was incremental: nothing queued the full recomputation.
            assert not [c for c in callbacks if getattr(c, "standings_league_id", None) == league.pk]
            assert stored(league) == recomputed(league), (kind, index, seats)
        transaction.set_rollback(True)


def test_a_new_result_writes_only_the_rows_it_changes(world):
    """Three players' rows exist; a new result between two of them rewrites those two and whoever moved."""
    organiser = world.users["organiser"]
    han, lando, leia = world.players[:3]
    result_record(
        actor=organiser,
        event=world.event,
        seats=[{"player": p.pk, "final_credits": c} for p, c in ((han, 900), (lando, 450), (leia, 0))],
    )
    before = {row.pk: row for row in Standing.objects.filter(league=world.league)}
    assert len(before) == 6
    event = EventFactory(season=world.season)
    result_record(
        actor=organiser,
        event=event,
        seats=[{"player": p.pk, "final_credits": c} for p, c in ((leia, 900), (lando, 0))],
    )
    after = {row.pk: row for row in Standing.objects.filter(league=world.league)}
    kept = before.keys() & after.keys()
    # Han is untouched and still first in both tables (linear: 3 points; Leia 1 + 2, Lando 2 + 1, all tied on
    # points in the season's table, so ranks follow wins): his rows stay as they were.
    assert {after[pk].player_id for pk in kept} == {han.pk}
    assert stored(world.league) == recomputed(world.league)


@pytest.mark.django_db
def test_refresh_of_a_league_gone_writes_nothing():
    assert standings_refresh(league_id=987654, touched={1: {1}}) == 0
    assert not StandingsTable.objects.exists()


def test_results_rebuilt_with_nothing_scheduled_after_are_applied_once_committed(
    world, django_capture_on_commit_callbacks
):
    """A service may rebuild an event's results and schedule nothing after (a tournament completing does): the
    notes left at commit are applied then, in a transaction of their own."""
    from django.db import transaction

    from games.models import Seat
    from games.selectors import finished_seat_rows
    from league.services import event_results_rebuild

    organiser = world.users["organiser"]
    han, lando = world.players[:2]
    with django_capture_on_commit_callbacks(execute=True):
        result_record(
            actor=organiser,
            event=world.event,
            seats=[{"player": han.pk, "final_credits": 900}, {"player": lando.pk, "final_credits": 0}],
        )
    assert Standing.objects.get(league=world.league, scope="all", rank=1).player_id == han.pk
    version = League.objects.values_list("data_version", flat=True).get(pk=world.league.pk)
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            Seat.objects.filter(game__event=world.event, player=han).update(place=2)
            Seat.objects.filter(game__event=world.event, player=lando).update(place=1)
            event_results_rebuild(event=world.event, seats=finished_seat_rows(world.event.pk))
        assert Standing.objects.get(league=world.league, scope="all", rank=1).player_id == han.pk  # not yet
    assert Standing.objects.get(league=world.league, scope="all", rank=1).player_id == lando.pk
    # Written after the commit: the league's pages are told again, or one rendered in between would be kept.
    assert League.objects.values_list("data_version", flat=True).get(pk=world.league.pk) > version
    assert stored(world.league) == recomputed(world.league)


def test_a_season_deleted_with_its_events_leaves_the_standings_a_full_recomputation_would(
    world, django_capture_on_commit_callbacks
):
    """Deleting a season (the admin; its events have results pushed without ledger lines, as a free tournament's)
    deletes its events and their results: the all-time table loses them, the season's rows and stored table go,
    and nothing queues the full recomputation."""
    from django.db import transaction

    organiser = world.users["organiser"]
    han, lando, leia = world.players[:3]
    second = SeasonFactory(league=world.league)
    later = EventFactory(season=second, status=EventStatus.FINISHED)
    with django_capture_on_commit_callbacks(execute=True):
        result_record(
            actor=organiser,
            event=world.event,
            seats=[{"player": han.pk, "final_credits": 900}, {"player": lando.pk, "final_credits": 0}],
        )
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        event_results_rebuild(event=later, seats=places(world, [(2, 900), (1, 0)]))
        standings_schedule(league_id=world.league.pk)
    scope = f"season-{second.pk}"
    assert Standing.objects.filter(league=world.league, scope="all", player=leia).exists()
    assert StandingsTable.objects.filter(league=world.league, scope=scope).exists()
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        second.delete()
    assert not [c for c in callbacks if getattr(c, "standings_league_id", None) == world.league.pk]
    assert not StandingsTable.objects.filter(league=world.league, scope=scope).exists()
    assert not Standing.objects.filter(league=world.league, player=leia).exists()
    assert stored(world.league) == recomputed(world.league)
