"""The whole demo (`manage.py demo_data`, `make run`): the games app's leagues, seasons and games, then the
tournament night, a freezeout in progress with a running clock. Idempotent."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.structures import structure_to_json, time_preset

DEMO_TOURNAMENT = "Friday freezeout"


def demo_structure() -> list[dict[str, Any]]:
    """Fifteen-minute levels with a break every four: long enough to stay in progress through a demo evening."""
    return structure_to_json(
        time_preset(big_blinds=[10, 20, 30, 50, 100, 150, 200, 300, 400, 600, 800, 1000], minutes=15)
    )


@transaction.atomic
def load_demo_data(out: Any) -> None:
    """Everything of the demo, in one transaction: the apps below first, then the tournament night."""
    from games.demo import load_games_demo

    load_games_demo(out)
    load_demo(out=out)


def load_demo(*, out: Any) -> None:
    from league import services as league_services
    from league.demo import DEMO_LEAGUE, DEMO_ORGANISER
    from league.models import EventKind, EventStatus, League
    from tournaments import services
    from tournaments.models import Tournament

    league = League.objects.filter(slug=DEMO_LEAGUE).first()
    if league is None:
        return
    organiser = league.memberships.filter(player__user__username=DEMO_ORGANISER).first()
    if organiser is None:
        return
    actor = organiser.player.user
    tournament = Tournament.objects.filter(event__season__league=league, event__name=DEMO_TOURNAMENT).first()
    if tournament is None:
        season = league.seasons.order_by("-starts_on").first()
        event = league_services.event_create(
            actor=actor,
            season=season,
            name=DEMO_TOURNAMENT,
            kind=EventKind.TOURNAMENT,
            starts_at=timezone.now() - datetime.timedelta(minutes=40),
            status=EventStatus.RUNNING,
            counts_for_standings=True,
        )
        tournament = services.tournament_create(
            actor=actor,
            event=event,
            structure=demo_structure(),
            starting_stack=450,
            seats_per_table=4,
            late_registration_level=4,
        )
        members = [
            membership.player
            for membership in league.memberships.select_related("player").order_by("pk")
            if membership.player.user_id != actor.pk
        ][:9]
        for player in members:
            services.tournament_register(actor=actor, tournament=tournament, player=player)
        services.tournament_publish_seed(actor=actor, tournament=tournament)
        services.tournament_draw(actor=actor, tournament=tournament)
        services.tournament_clock_start(
            actor=actor, tournament=tournament, now=timezone.now() - datetime.timedelta(minutes=22)
        )
        services.tournament_clock_tick(tournament_id=tournament.pk)  # the announcements so far, without a worker
        out.write(f"Demo tournament {DEMO_TOURNAMENT!r}: {len(members)} players, clock running.\n")
        return
    state = services.tournament_clock(tournament)
    if state is not None and state.finished_structure:
        # A demo run again hours later: the clock goes back to level 2 so the night is still in progress.
        services.tournament_clock_move(actor=actor, tournament=tournament, levels=1 - state.level_index)
        out.write(f"Demo tournament {DEMO_TOURNAMENT!r}: clock moved back to level 2.\n")
