"""Halcyon nights: each table plays one game in which every player deals once; the best of each table advance
to a final table; the final table decides the places, the others rank by round reached, then by place at their
table (`tournaments.halcyon`).

A table's game arrives as a `sabacc-replay/1` document (played online, by bots, or entered from a physical
table's hands): the engine replays it and checks it, so places come from what was really played. Seat names in
the document are the players' ids (`"p<id>"`), which keeps two players of the same name apart.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError
from league import services as league_services
from tournaments import halcyon
from tournaments.errors import TournamentLogicError
from tournaments.models import Format, Registration, RegistrationStatus, Tournament, TournamentStatus
from tournaments.services.registration import _check_manager, _lock


def seat_name(player_id: int) -> str:
    return f"p{player_id}"


def table_results(document: dict[str, Any]) -> tuple[list[halcyon.SeatResult], list[str]]:
    """Replay a table's game through the engine: each player's final credits and the hand they went out in,
    and the dealer of every hand (in order). Refuses a document the engine refuses, or an unfinished game."""
    from games.engine.errors import EngineError
    from games.engine.replay import play_replay

    try:
        result = play_replay(document)
    except (EngineError, ValueError, KeyError, TypeError) as exc:
        raise ApplicationError(f"The table's game cannot be replayed: {exc}", extra={"field": "replay"}) from exc
    if not result.get("finished"):
        raise ApplicationError("The table's game is not finished: every player deals once first.")
    out_hand: dict[str, int] = {}
    for hand in result["hands"]:
        for name, stack in hand["stacks"].items():
            if stack == 0 and name not in out_hand:
                out_hand[name] = hand["number"]
    seats = []
    for name, credits in result["stacks"].items():
        if not name.startswith("p") or not name[1:].isdigit():
            raise ApplicationError(f"Seat {name!r} is not a player of the tournament (seats are named p<player id>).")
        seats.append(halcyon.SeatResult(int(name[1:]), credits, out_hand.get(name)))
    return seats, [hand["dealer"] for hand in result["hands"]]


@retry_on_conflict
@transaction.atomic
def tournament_halcyon_table(*, actor: Any, tournament: Tournament, table_number: int, replay: dict[str, Any]) -> dict:
    """Record one table's game of the current Halcyon round. When the round's last table is in: with several
    tables, the best of each advance to a final table (the others are out); with one, the places are final."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.format != Format.HALCYON:
        raise ConflictError("Only a Halcyon tournament records table games by rounds.")
    if tournament.status != TournamentStatus.RUNNING:
        raise ConflictError("Start the tournament (draw and clock) before recording its tables.")
    seated = list(
        Registration.objects.select_for_update(of=("self",)).filter(
            tournament=tournament, status=RegistrationStatus.REGISTERED, table_number__isnull=False
        )
    )
    at_table = {r.player_id for r in seated if r.table_number == table_number}
    if not at_table:
        raise ApplicationError(f"Table {table_number} has nobody seated in this round.", extra={"field": "table"})
    rounds = [dict(item) for item in tournament.rounds]
    if not rounds:
        rounds.append({})
    current = rounds[-1]
    if str(table_number) in current:
        raise ConflictError(f"Table {table_number}'s game of this round is already recorded.")
    seats, dealers = table_results(replay)
    if {seat.player_id for seat in seats} != at_table:
        raise ApplicationError(
            f"The game's players are not the players seated at table {table_number}.", extra={"field": "replay"}
        )
    if sorted(dealers) != sorted(seat_name(p) for p in at_table):
        raise ApplicationError("In Halcyon every player deals exactly once; this game's dealers differ.")
    current[str(table_number)] = [[seat.player_id, seat.credits, seat.out_hand] for seat in seats]
    tournament.rounds = rounds
    tournament.save(update_fields=["rounds"])
    outcome: dict[str, Any] = {"round": len(rounds), "table": table_number, "advancing": [], "final": False}
    tables_now = {r.table_number for r in seated}
    if len(current) == len(tables_now):
        if len(tables_now) == 1:
            _final_places(tournament, seated)
            outcome["final"] = True
        else:
            outcome["advancing"] = _advance(tournament, seated, current)
    league_services.audit(
        actor=actor,
        action="tournament_halcyon_table",
        obj=tournament,
        league=tournament.event.season.league,
        data=outcome,
    )
    return outcome


def _results(table: list[list[int | None]]) -> list[halcyon.SeatResult]:
    return [halcyon.SeatResult(player, credits, out) for player, credits, out in table]


def _advance(tournament: Tournament, seated: list[Registration], current: dict[str, list]) -> list[int]:
    """The best of each table go on to one final table (seats in table order); the others are out for now
    (their places come when the final table ends)."""
    advancing: list[int] = []
    try:
        for number in sorted(current, key=int):
            advancing += halcyon.advancing(_results(current[number]), tournament.advance_per_table)
    except TournamentLogicError as exc:
        raise ApplicationError(str(exc)) from exc
    if len(advancing) > 8:
        raise ConflictError(
            f"{len(advancing)} players would reach the final table, which seats at most 8; advance fewer per table."
        )
    for registration in seated:
        registration.table_number = registration.seat_number = None
    Registration.objects.bulk_update(seated, ["table_number", "seat_number"])
    by_player = {r.player_id: r for r in seated}
    for seat, player_id in enumerate(advancing, start=1):
        by_player[player_id].table_number, by_player[player_id].seat_number = 1, seat
    for registration in seated:
        if registration.player_id not in advancing:
            registration.status = RegistrationStatus.ELIMINATED
    Registration.objects.bulk_update(seated, ["table_number", "seat_number", "status"])
    tournament.rounds = [*tournament.rounds, {}]
    tournament.save(update_fields=["rounds"])
    return advancing


def _final_places(tournament: Tournament, seated: list[Registration]) -> None:
    rounds = [
        [_results(table) for _, table in sorted(round_.items(), key=lambda i: int(i[0]))]
        for round_ in tournament.rounds
        if round_
    ]
    try:
        places = halcyon.halcyon_places(rounds)
    except TournamentLogicError as exc:
        raise ApplicationError(str(exc)) from exc
    everyone = list(
        Registration.objects.select_for_update(of=("self",)).filter(tournament=tournament, player_id__in=places)
    )
    for registration in everyone:
        registration.place = places[registration.player_id]
    Registration.objects.bulk_update(everyone, ["place"])
