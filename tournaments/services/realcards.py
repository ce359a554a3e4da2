"""A tournament's physical tables played with real cards (the site keeps the chips; docs/tournaments.md, "Physical
tables on real cards"): opened from the control room for a table's seated players, with the tournament's rules
and stacks; the clock's level reaches each next hand (`games.tabletop.tournament_hands`); a player out of credits
there is eliminated as at an online table; a finished Halcyon table's game is recorded into its round through the
same checked path as the control room's entry form (`halcyon._record`), once.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from django.db import transaction

from config.db import retry_on_conflict
from config.errors import ConflictError
from config.inputs import Actor
from games.engine.variant import get_variant
from games.online import selectors as online_selectors
from games.tabletop import tournament as realcards_tables
from games.tabletop.models import RealTable, RealTableStatus
from league import services as league_services
from tournaments.halcyon import HALCYON_VARIANT, OPENED_REAL
from tournaments.models import Format, Tournament, TournamentStatus
from tournaments.services.common import _audit, _check_manager, _check_table_number, _lock, _seated_at
from tournaments.services.halcyon import _record, _round_table_unrecorded, current_round
from tournaments.services.online import seated_stacks, tournament_online_busts

logger = logging.getLogger(__name__)


def _rules(tournament: Tournament) -> tuple[str, str, dict[str, Any]]:
    """The variant, preset and option overrides a tournament's real-cards table plays: Halcyon's preset (every
    player deals once), or the event's rules with the levels from the clock only (escalation off), no re-buys at
    the table (the tournament takes them) and odd credits to a player, never to a carry-over, where the variant
    lets them. A table whose players may re-buy or add on (a re-buy tournament, a buy-in policy with an add-on)
    is ended by the tournament, not by its engine (end rule "never", as an online tournament table): the chips
    booked join between hands (the engine's re-buy and add-on where the variant has them) and a table waits for
    its busted players' re-buys during the re-buy period (`games.tabletop.tournament_hands`)."""
    if tournament.format == Format.HALCYON:
        return HALCYON_VARIANT, "halcyon", {"starting_stack": tournament.starting_stack}
    event = tournament.event
    league, season = event.season.league, event.season
    variant = season.variant or league.variant
    preset = season.preset or league.preset
    overrides = {
        **league.option_overrides,
        **season.option_overrides,
        "escalation": "none",
        "rebuys": False,
        "odd_credits": "left_of_dealer",
        "starting_stack": tournament.starting_stack,
    }
    policy = league_services.effective_buy_in_policy(event)
    if tournament.format == Format.REBUY or (policy is not None and policy.addon_allowed):
        overrides.update({"end_rule": "never", "rebuys": True, "add_ons": True})
    names = {field.name for field in dataclasses.fields(get_variant(variant).options_class)}
    return variant, preset, {name: value for name, value in overrides.items() if name in names}


@retry_on_conflict
@transaction.atomic
def tournament_realcards_open(
    *, actor: Actor, tournament: Tournament, table_number: Any, has_dice: Any = True
) -> RealTable:
    """Open a tournament table on real cards for its seated players in seat order, started at once (seat 1 deals
    first; Halcyon: every player then deals once): the tournament's rules, each player's stack as the tournament
    knows it (from an earlier online or real-cards table; the starting stack when none is known; Halcyon: the
    starting stack), hosted by the organiser. A table being played online or on real cards already, a player still
    playing at another table, or out of chips, is refused (409), nothing written."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    _check_table_number(table_number)
    if tournament.drawn_at is None or tournament.status not in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING):
        raise ConflictError("Real-cards tables open after the seat draw, while the tournament is on.")
    halcyon = tournament.format == Format.HALCYON
    if halcyon and tournament.status != TournamentStatus.RUNNING:
        raise ConflictError("Start the tournament (draw and clock) before its Halcyon tables play.")
    seated = _seated_at(tournament, table_number)
    playing = realcards_tables.table_in_play(event_id=tournament.event_id, number=table_number)
    if playing is not None:
        raise ConflictError(f"Table {table_number} is already being played on real cards (table {playing.code}).")
    if online_selectors.tournament_table_in_play(event_id=tournament.event_id, number=table_number):
        raise ConflictError(f"Table {table_number} is being played online; finish it before playing it on real cards.")
    number = current_round(tournament) if halcyon else None
    if halcyon and tournament.rounds and str(table_number) in tournament.rounds[-1]:
        raise ConflictError(f"Table {table_number}'s game of round {number} is already recorded.")
    if halcyon:
        stacks = [tournament.starting_stack] * len(seated)
    else:
        advice = f"finish that table (or move them) before opening table {table_number} on real cards"
        stacks = seated_stacks(tournament, seated, advice=advice)
    variant, preset, options = _rules(tournament)
    table = realcards_tables.realtable_open_seated(
        actor=actor,
        event=tournament.event,
        tournament_table=table_number,
        players=[registration.player for registration in seated],
        stacks=stacks,
        variant=variant,
        preset=preset,
        options=options,
        has_dice=has_dice,
    )
    _audit(
        actor=actor,
        tournament=tournament,
        action=OPENED_REAL,
        data={"round": number, "table": table_number, "real_table": table.pk, "code": table.code},
    )
    return table


def tournament_realcards_busts(*, event_id: int, table_id: int, hand: int, busts: list[dict[str, Any]]) -> list[int]:
    """Players out of credits at a real-cards table after `hand`: eliminated as at an online table (the same
    service: place, knocked out by, the re-buy period), once per table, hand and player."""
    return tournament_online_busts(
        event_id=event_id, table_id=f"real:{table_id}", hand=hand, busts=busts, source="real_cards"
    )


@retry_on_conflict
@transaction.atomic
def tournament_realcards_result(*, table_id: int) -> dict | None:
    """A finished real-cards table of a Halcyon round: its game's result (each player's credits and the hand they
    went out in) recorded into the round through the entry form's checked path, once. A table recorded already,
    one not of the round being played, an unfinished game or a table of another format records nothing (None),
    so the task may run twice or late."""
    table = RealTable.objects.filter(pk=table_id, tournament_table__isnull=False).first()
    if table is None or table.status != RealTableStatus.FINISHED or table.event_id is None:
        return None
    tournament = _round_table_unrecorded(
        event_id=table.event_id, opened=OPENED_REAL, key="real_table", table_id=table.pk, what="Real-cards table"
    )
    if tournament is None:
        return None
    results = realcards_tables.final_seats(table)
    if results is None:
        return None  # ended early by its host: the organiser enters the table's result
    return _record(
        actor=None, tournament=tournament, table_number=table.tournament_table, entered=results, real_table=table.pk
    )
