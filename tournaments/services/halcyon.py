"""Halcyon nights: each table plays one game in which every player deals once; the best of each table advance
to a final table; the final table decides the places, the others rank by round reached, then by place at their
table (`tournaments.halcyon`).

A table's game arrives either as a `sabacc-replay/1` document (a physical table's hands, or a game played
elsewhere), where seat names are the players' ids (`"p<id>"`, which keeps two players of the same name apart), or
from an online table the control room opened with the Halcyon preset: when it finishes, `games.hooks` tells the
task `tournaments.halcyon_online_table`, which records the league game's replay the same way (its seats named by
the online seats). Either way the engine replays the game, so places come from what was really played. A physical
table's result may also be entered without a replay (`tournament_halcyon_table_entered`: each player's credits and
out hand, checked against the Halcyon rules), recorded through the same path.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError
from config.inputs import Actor, is_digits
from games.online import services as online_services
from games.online.models import OnlineTable, TableStatus
from games.tabletop import tournament as realcards_tables
from league.models import AuditEntry, Player
from tournaments import halcyon
from tournaments.errors import TournamentLogicError
from tournaments.halcyon import HALCYON_VARIANT, OPENED
from tournaments.models import Format, Registration, RegistrationStatus, Tournament, TournamentStatus
from tournaments.services.common import _audit, _check_manager, _check_table_number, _lock

logger = logging.getLogger(__name__)


def seat_name(player_id: int) -> str:
    return f"p{player_id}"


def table_results(
    document: dict[str, Any], *, players: dict[str, int] | None = None
) -> tuple[list[halcyon.SeatResult], list[str]]:
    """Replay a table's game through the engine: each player's final credits and the hand they went out in,
    and the dealer of every hand (in order). Refuses a document the engine refuses, or an unfinished game.
    Seats are named `p<player id>`, or by `players` (seat name -> player id: an online table's seat names)."""
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
        if players is not None and name in players:
            player_id = players[name]
        elif players is None and name.startswith("p") and is_digits(name[1:]):
            player_id = int(name[1:])
        else:
            raise ApplicationError(f"Seat {name!r} is not a player of the tournament (seats are named p<player id>).")
        seats.append(halcyon.SeatResult(player_id, credits, out_hand.get(name)))
    return seats, [hand["dealer"] for hand in result["hands"]]


def current_round(tournament: Tournament) -> int:
    """The round being played: 1 until the first round's last table is in, then 2 (the final table)."""
    return max(len(tournament.rounds), 1)


ONLINE_STATUSES = (TableStatus.OPEN, TableStatus.RUNNING, TableStatus.PAUSED)


@retry_on_conflict
@transaction.atomic
def tournament_halcyon_table(
    *, actor: Actor, tournament: Tournament, table_number: int, replay: dict[str, Any]
) -> dict:
    """Record one table's game of the current Halcyon round (a physical table's, or one played elsewhere). When
    the round's last table is in: with several tables, the best of each advance to a final table (the others are
    out); with one, the places are final."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    _check_running(tournament)
    _check_not_online(tournament, table_number)
    return _record(actor=actor, tournament=tournament, table_number=table_number, replay=replay)


@retry_on_conflict
@transaction.atomic
def tournament_halcyon_table_entered(*, actor: Actor, tournament: Tournament, table_number: int, results: Any) -> dict:
    """Record one physical table's game of the current Halcyon round without a replay: for each player seated at
    the table, their final credits and, for a player who went out, the hand they went out in. Checked as
    `_entered_seats` says, then recorded through the same path as a replay (places, advancing, audit "entered")."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    _check_running(tournament)
    _check_not_online(tournament, table_number)
    return _record(actor=actor, tournament=tournament, table_number=table_number, entered=results)


def _playing_online(tournament: Tournament, table_number: int) -> OnlineTable | None:
    """The online table that plays this tournament table now (open, running or paused), if there is one."""
    return OnlineTable.objects.filter(
        event_id=tournament.event_id, tournament_table=table_number, status__in=ONLINE_STATUSES
    ).first()


def _check_not_online(tournament: Tournament, table_number: int) -> None:
    """A table being played online or on real cards has its game recorded when it ends: entering one for it is
    refused."""
    playing = _playing_online(tournament, table_number)
    if playing is not None:
        raise ConflictError(
            f"Table {table_number} is being played online (online table {playing.pk}); its game is recorded "
            "when it ends."
        )
    _check_not_real_cards(tournament, table_number)


def _check_not_real_cards(tournament: Tournament, table_number: int) -> None:
    real = realcards_tables.table_in_play(event_id=tournament.event_id, number=table_number)
    if real is not None:
        raise ConflictError(
            f"Table {table_number} is being played on real cards (table {real.code}); its game is recorded when it "
            "ends."
        )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entered_seats(tournament: Tournament, table_number: int, at_table: set[int], entered: Any) -> list:
    """A table's results entered by hand, checked against the Halcyon rules: exactly the players seated at the
    table, once each; credits whole and at least 0, adding up to what the table started with (the starting stack
    times the players: a Halcyon game pays every pot out, odd credits of its last hand included, so no credit is
    left over); at least one player still holding credits; a player on 0 went out in a hand from 0 (before hand 1)
    to the number of players (every player deals once), and a player still holding credits has no out hand."""
    if not isinstance(entered, list | tuple) or not all(isinstance(row, dict) for row in entered):
        raise ApplicationError(
            'Give the results as a list of {"player": id, "credits": n, "out_hand": h or null}, one per player.',
            extra={"field": "results"},
        )
    players = [row.get("player") for row in entered]
    names = dict(Player.objects.filter(pk__in=at_table).values_list("pk", "display_name"))
    if not all(_whole(p) for p in players) or len(set(players)) != len(players) or set(players) != at_table:
        raise ApplicationError(
            f"Enter each player seated at table {table_number} once: the players are "
            f"{', '.join(f'{names[p]} ({p})' for p in sorted(at_table))}; "
            f"got {', '.join(map(str, players)) or 'none'}.",
            extra={"field": "results"},
        )
    hands = len(at_table)
    seats = []
    for row in entered:
        player, credits, out = row["player"], row.get("credits"), row.get("out_hand")
        who = f"{names[player]} (player {player})"
        if not _whole(credits) or credits < 0:
            raise ApplicationError(
                f"{who}: the credits must be a whole number of 0 or more; got {credits!r}.",
                extra={"field": f"credits_{player}"},
            )
        if out is not None and (not _whole(out) or not 0 <= out <= hands):
            raise ApplicationError(
                f"{who}: the out hand must be a hand from 1 to {hands} (every player deals once; 0 = before "
                f"hand 1), or empty if they never went out; got {out!r}.",
                extra={"field": f"out_hand_{player}"},
            )
        if credits == 0 and out is None:
            raise ApplicationError(
                f"{who} ends on 0 credits: give the hand they went out in (1 to {hands}).",
                extra={"field": f"out_hand_{player}"},
            )
        if credits > 0 and out is not None:
            raise ApplicationError(
                f"{who} still holds {credits} credits, so never went out: leave the out hand empty.",
                extra={"field": f"out_hand_{player}"},
            )
        seats.append(halcyon.SeatResult(player, credits, out))
    started = tournament.starting_stack * hands
    total = sum(seat.credits for seat in seats)
    if total != started:
        raise ApplicationError(
            f"The credits add up to {total}; table {table_number} started with {started} ({hands} players of "
            f"{tournament.starting_stack}) and a Halcyon game pays every credit out, so they must add up to {started}.",
            extra={"field": "results"},
        )
    return seats


def _check_running(tournament: Tournament) -> None:
    if tournament.format != Format.HALCYON:
        raise ConflictError("Only a Halcyon tournament records table games by rounds.")
    if tournament.status != TournamentStatus.RUNNING:
        raise ConflictError("Start the tournament (draw and clock) before recording its tables.")


def _seated(tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.select_for_update(of=("self",)).filter(
            tournament=tournament, status=RegistrationStatus.REGISTERED, table_number__isnull=False
        )
    )


def _record(
    *,
    actor: Actor,
    tournament: Tournament,
    table_number: int,
    replay: dict[str, Any] | None = None,
    players: dict[str, int] | None = None,
    online_table: int | None = None,
    entered: Any = None,
    real_table: int | None = None,
) -> dict:
    """The one path a table's game takes into its round (replay upload, online table and results entered by
    hand alike), under the tournament's lock: the engine replays a game and its players and dealers are checked,
    or the entered credits and out hands are checked (`_entered_seats`); then the round moves on."""
    seated = _seated(tournament)
    at_table = {r.player_id for r in seated if r.table_number == table_number}
    if not at_table:
        raise ApplicationError(f"Table {table_number} has nobody seated in this round.", extra={"field": "table"})
    rounds = [dict(item) for item in tournament.rounds]
    if not rounds:
        rounds.append({})
    current = rounds[-1]
    if str(table_number) in current:
        raise ConflictError(f"Table {table_number}'s game of this round is already recorded.")
    if entered is not None:
        seats = _entered_seats(tournament, table_number, at_table, entered)
    else:
        seats, dealers = table_results(replay or {}, players=players)
        if {seat.player_id for seat in seats} != at_table:
            raise ApplicationError(
                f"The game's players are not the players seated at table {table_number}.", extra={"field": "replay"}
            )
        _check_dealers(seats, dealers, players)
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
    _audit(
        actor=actor,
        tournament=tournament,
        action="tournament_halcyon_table",
        data={
            **outcome,
            "source": "online"
            if online_table
            else "real_cards"
            if real_table
            else "entered"
            if entered is not None
            else "replay",
            "online_table": online_table,
            **({"real_table": real_table} if real_table else {}),
        },
    )
    return outcome


def _check_dealers(seats: list[halcyon.SeatResult], dealers: list[str], players: dict[str, int] | None) -> None:
    """Every player deals once: nobody twice, and whoever never dealt went out of credits before their turn."""
    names = (
        {p: n for n, p in players.items()}
        if players is not None
        else {s.player_id: seat_name(s.player_id) for s in seats}
    )
    twice = sorted({name for name in dealers if dealers.count(name) > 1})
    missing = [s for s in seats if names[s.player_id] not in dealers and s.out_hand is None]
    if twice or missing:
        problem = (
            f"{', '.join(twice)} dealt more than once"
            if twice
            else (f"{', '.join(names[s.player_id] for s in missing)} never dealt")
        )
        raise ApplicationError(f"In Halcyon every player deals exactly once; in this game {problem}.")


@retry_on_conflict
@transaction.atomic
def tournament_halcyon_online_open(
    *, actor: Actor, tournament: Tournament, table_number: Any, turn_seconds: Any = 30
) -> OnlineTable:
    """Open a Halcyon table of the current round online for its seated players: Coruscant Shift's Halcyon preset
    (every player deals once) with the tournament's starting stack each; the clock's levels leave it alone. When
    its game ends, `tournament_halcyon_online_result` records it into the round."""
    from games.engine.errors import EngineError
    from games.engine.options import resolve_options

    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    _check_table_number(table_number)
    _check_running(tournament)
    seated = sorted(
        (r for r in _seated(tournament) if r.table_number == table_number),
        key=lambda r: (r.seat_number or 0, r.pk),
    )
    if not seated:
        tables = sorted({r.table_number for r in _seated(tournament)})
        raise ApplicationError(
            f"Table {table_number} has nobody seated in this round; the tables are "
            f"{', '.join(map(str, tables)) or 'none'}.",
            extra={"field": "table"},
        )
    number = current_round(tournament)
    if tournament.rounds and str(table_number) in tournament.rounds[-1]:
        raise ConflictError(f"Table {table_number}'s game of round {number} is already recorded.")
    playing = _playing_online(tournament, table_number)
    if playing is not None:
        raise ConflictError(
            f"Table {table_number} already has an online table ({playing.pk}); its game is recorded when it ends."
        )
    _check_not_real_cards(tournament, table_number)
    try:
        options = resolve_options(HALCYON_VARIANT, "halcyon", {"starting_stack": tournament.starting_stack})
    except EngineError as exc:
        raise ApplicationError(f"The Halcyon rules refuse this tournament's starting stack: {exc}") from exc
    event = tournament.event
    registrations = Registration.objects.select_related("player").filter(pk__in=[r.pk for r in seated])
    players = {r.pk: r.player for r in registrations}
    round_name = "final table" if number > 1 else f"table {table_number}"
    table = online_services.table_open_seated(
        actor=actor,
        event=event,
        name=f"{event.name}: Halcyon {round_name}"[:80],
        players=[players[r.pk] for r in seated],
        stack=tournament.starting_stack,
        seat_count=len(seated),
        option_overrides=options,
        tournament_table=table_number,
        turn_seconds=turn_seconds,
        variant=HALCYON_VARIANT,
        preset="halcyon",
    )
    _audit(
        actor=actor,
        tournament=tournament,
        action=OPENED,
        data={"round": number, "table": table_number, "online_table": table.pk},
    )
    return table


@retry_on_conflict
@transaction.atomic
def tournament_halcyon_online_record(*, actor: Actor, tournament: Tournament, table_number: Any) -> dict:
    """The organiser records a finished online table of the round being played whose game the task did not record
    (it was refused, or the task has not run yet): the same path, with the reason shown when it is refused."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    _check_running(tournament)
    _check_table_number(table_number)
    number = current_round(tournament)
    opened = (
        AuditEntry.objects.filter(
            object_type=Tournament._meta.label,
            object_id=str(tournament.pk),
            action=OPENED,
            data__round=number,
            data__table=table_number,
        )
        .order_by("-pk")
        .first()
    )
    if opened is None:
        raise ApplicationError(
            f"Table {table_number} has not been played online in round {number}.", extra={"field": "table"}
        )
    table = OnlineTable.objects.filter(pk=opened.data["online_table"]).select_related("game").first()
    if table is None or table.status != TableStatus.FINISHED:
        raise ConflictError(f"Table {table_number}'s online game is not finished; it is recorded when it ends.")
    return _record_online(actor=actor, tournament=tournament, table=table, table_number=table_number)


@retry_on_conflict
@transaction.atomic
def tournament_halcyon_online_result(*, table_id: int) -> dict | None:
    """Record a finished online Halcyon table's game into its round, from the league game's replay, through the
    same path as an uploaded replay. Once: a table recorded already, a table that is not a Halcyon table of the
    round being played, or an unfinished one records nothing (None), so the task may run twice or late."""
    table = OnlineTable.objects.filter(pk=table_id).select_related("game").first()
    if table is None or table.tournament_table is None or table.status != TableStatus.FINISHED:
        return None
    tournament = _round_table_unrecorded(
        event_id=table.event_id, opened=OPENED, key="online_table", table_id=table_id, what="Halcyon online table"
    )
    if tournament is None:
        return None
    return _record_online(actor=None, tournament=tournament, table=table, table_number=table.tournament_table)


def _round_table_unrecorded(*, event_id: int, opened: str, key: str, table_id: int, what: str) -> Tournament | None:
    """The event's Halcyon tournament, locked, when the table it opened (`what`: audit action `opened`, the table's
    id under `key` in the audit data) belongs to the round being played and is not recorded yet; else None, so a
    task recording a finished table may run twice or late."""
    tournament = Tournament.objects.filter(event_id=event_id, format=Format.HALCYON).first()
    if tournament is None:
        return None
    tournament = _lock(tournament)
    mine = AuditEntry.objects.filter(object_type=Tournament._meta.label, object_id=str(tournament.pk))
    if mine.filter(action="tournament_halcyon_table", **{f"data__{key}": table_id}).exists():
        return None
    opening = mine.filter(action=opened, **{f"data__{key}": table_id}).first()
    if opening is None or tournament.status != TournamentStatus.RUNNING:
        return None
    if opening.data["round"] != current_round(tournament):
        logger.warning("%s %s belongs to round %s, not the round being played", what, table_id, opening.data)
        return None
    return tournament


def _record_online(*, actor: Actor | None, tournament: Tournament, table: OnlineTable, table_number: int) -> dict:
    """A finished online table's game recorded into the round from its replay; refused when it has none."""
    document = table.game.replay_document if table.game is not None else None
    if not document:
        raise ConflictError(f"Online table {table.pk}'s game has no replay to record; enter the game instead.")
    return _record(
        actor=actor,
        tournament=tournament,
        table_number=table_number,
        replay=document,
        players={seat.name: seat.player_id for seat in table.seats.all()},
        online_table=table.pk,
    )


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
