"""A tournament played on online tables: eliminations reported by the tables, and tables opened from the
control room. Games never import this: the tables report busts through `games.hooks` (registered in
`TournamentsConfig.ready`), and opening a table calls `games.online.services`."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError
from config.inputs import Actor
from games.engine.variant import get_variant
from games.online import selectors as online_selectors
from games.online import services as online_services
from games.tabletop import tournament as realcards_tables
from league import services as league_services
from league.models import AuditEntry, Player
from tournaments import selectors, structures
from tournaments.models import Format, Registration, RegistrationStatus, Tournament, TournamentStatus
from tournaments.selectors import may_rebuy_again as _may_rebuy_again
from tournaments.selectors import rebuys_open, tournament_clock
from tournaments.selectors import registration_open as _registration_open
from tournaments.services.common import _audit, _check_manager, _check_table_number, _lock, _seated_at
from tournaments.services.eliminations import _eliminate
from tournaments.services.rebuys import tournament_rebuy


@retry_on_conflict
@transaction.atomic
def tournament_online_busts(
    *,
    event_id: int,
    table_id: int | str,
    hand: int,
    busts: list[dict[str, Any]],
    now: datetime | None = None,
    source: str = "online",
) -> list[int]:
    """Record the eliminations an online table reported after `hand`; returns the registrations eliminated.

    Once: a bust already recorded for that table and hand (or a player already out) is skipped, so the task
    may run twice. Players out in the same hand are placed by the stack they started it with (the smaller
    goes out first, in the worse place). While a re-buy tournament's re-buy period is open, a player who may
    still re-buy is not eliminated: the bust is noted (`tournament_bust_deferred`) and, if they have not
    re-bought when the period ends, they are eliminated then (`rebuy_period_sweep`), by the clock task or the
    next report, whichever comes first. A real-cards table reports the same way (`source` "real_cards", its
    `table_id` "real:<id>", kept apart from the online tables' ids).
    """
    now = now or timezone.now()
    tournament = Tournament.objects.filter(event_id=event_id).first()
    if tournament is None:
        return []
    tournament = _lock(tournament)
    if tournament.status != TournamentStatus.RUNNING or tournament.format == Format.HALCYON:
        return []  # a Halcyon table's places come from its whole game (tournaments.services.halcyon)
    period = rebuys_open(tournament, now)
    policy = league_services.effective_buy_in_policy(tournament.event) if period else None
    eliminated = []
    for bust in sorted(busts, key=lambda row: row["stack"]):
        player_id = bust["player_id"]
        recorded = AuditEntry.objects.filter(
            action__in=("tournament_eliminate", "tournament_bust_deferred"),
            data__table=table_id,
            data__hand=hand,
            data__player=player_id,
        ).exists()
        registration = (
            Registration.objects.select_for_update(of=("self",))
            .select_related("player")
            .filter(tournament=tournament, player_id=player_id, status=RegistrationStatus.REGISTERED)
            .first()
        )
        if recorded or registration is None:
            continue
        if period and _may_rebuy_again(registration, policy):
            _audit(
                actor=None,
                tournament=tournament,
                action="tournament_bust_deferred",
                obj=registration,
                data={
                    "player": player_id,
                    "table": table_id,
                    "hand": hand,
                    "stack": bust["stack"],
                    "knocked_out_by": bust.get("knocked_out_by"),
                },
            )
            continue
        if Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED).count() <= 1:
            break
        _eliminate(
            actor=None,
            tournament=tournament,
            registration=registration,
            eliminated_by=_knocked_out_by(tournament, bust.get("knocked_out_by"), player_id),
            data={"table": table_id, "hand": hand, "source": source},
        )
        eliminated.append(registration.pk)
    if not period:
        eliminated += rebuy_period_sweep(tournament, now=now)
    elif eliminated and tournament.format == Format.REBUY:
        # A table that waited for its busted players' re-buys ends once none of them may re-buy any more.
        online_services.tables_settle(event_id=event_id)
        realcards_tables.realtables_settle(event_id=event_id)
    return eliminated


def _knocked_out_by(tournament: Tournament, winner: int | None, player_id: int) -> Player | None:
    if not winner or winner == player_id:
        return None
    still_in = Registration.objects.filter(
        tournament=tournament, player_id=winner, status=RegistrationStatus.REGISTERED
    ).exists()
    return Player.objects.get(pk=winner) if still_in else None


def rebuy_period_sweep(tournament: Tournament, *, now: datetime) -> list[int]:
    """After a re-buy tournament's re-buy period (under the tournament's lock): every player still out of chips
    at an online table (or at a real-cards table, even one that has ended), with no re-buy on its way, is
    eliminated, the earliest bust first (the worse place; the
    same hand by the stack it started with), knocked out by the winner of the pot they lost; then the tables
    left with one player holding chips end. Safe to run again: it finds nobody the second time."""
    if tournament.format != Format.REBUY or tournament.status != TournamentStatus.RUNNING:
        return []
    if _registration_open(tournament, now):
        return []
    known = selectors.known_stacks(tournament.event_id)
    coming = online_selectors.rebuys_on_the_way(event_id=tournament.event_id) | realcards_tables.chips_on_the_way(
        event_id=tournament.event_id
    )
    out = [
        registration
        for registration in Registration.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(tournament=tournament, status=RegistrationStatus.REGISTERED)
        .order_by("pk")
        if (row := known.get(registration.player_id)) is not None
        # A real-cards table ends when one player holds its chips (it waits for no re-buy): its busted players are
        # out of chips there even once it has ended, unless a later table knows them (that row is the one read).
        and (row["active"] or "real_table" in row)
        and row["stack"] <= 0
        and registration.player_id not in coming
    ]
    if not out:
        return []
    busts = {}
    for entry in AuditEntry.objects.filter(
        action="tournament_bust_deferred", data__player__in=[r.player_id for r in out]
    ).order_by("pk"):
        busts[entry.data["player"]] = {**entry.data, "order": entry.pk}  # the latest bust of each player
    out.sort(key=lambda r: (busts.get(r.player_id, {}).get("order", 0), busts.get(r.player_id, {}).get("stack", 0)))
    eliminated = []
    for registration in out:
        if Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED).count() <= 1:
            break
        bust = busts.get(registration.player_id, {})
        _eliminate(
            actor=None,
            tournament=tournament,
            registration=registration,
            eliminated_by=_knocked_out_by(tournament, bust.get("knocked_out_by"), registration.player_id),
            data={"table": bust.get("table"), "hand": bust.get("hand"), "source": "rebuy_period_over"},
        )
        eliminated.append(registration.pk)
    online_services.tables_settle(event_id=tournament.event_id)
    realcards_tables.realtables_settle(event_id=tournament.event_id)
    return eliminated


def rebuys_open_at(*, event_id: int, player_ids: list[int]) -> bool:
    """`games.hooks.online_rebuys_open`: whether any of these players may still re-buy (the re-buy period is open,
    they are still in and the policy lets them re-buy once more)."""
    tournament = Tournament.objects.filter(event_id=event_id).select_related("event__season__league").first()
    if tournament is None or not rebuys_open(tournament, timezone.now()):
        return False
    policy = league_services.effective_buy_in_policy(tournament.event)
    return any(
        _may_rebuy_again(registration, policy)
        for registration in Registration.objects.filter(
            tournament=tournament, player_id__in=player_ids, status=RegistrationStatus.REGISTERED
        )
    )


def player_rebuy(*, actor: Actor, event_id: int, player_id: int) -> None:
    """`games.hooks.online_tournament_rebuy`: a player's own re-buy from their online table."""
    tournament = Tournament.objects.filter(event_id=event_id).first()
    if tournament is None:
        raise ConflictError("This table belongs to no tournament; there is no re-buy to make here.")
    tournament_rebuy(actor=actor, tournament=tournament, player=Player.objects.get(pk=player_id), kind="rebuy")


_playing_level = selectors.playing_level


def seated_stacks(tournament: Tournament, seated: list[Registration], *, advice: str) -> list[int]:
    """The stack each seated player brings to a table being opened: the one known from their last online or
    real-cards table, the starting stack when none is known. A player still playing elsewhere (told `advice`)
    or out of chips is refused, so no chip is counted twice."""
    known = selectors.known_stacks(tournament.event_id)
    stacks = []
    for registration in seated:
        row = known.get(registration.player_id)
        if row is None:
            stacks.append(tournament.starting_stack)
            continue
        name, where = registration.player.display_name, table_where(row)
        if row["active"]:
            raise ConflictError(f"{name} is still playing at {where}; {advice}.")
        if row["stack"] <= 0:
            raise ConflictError(
                f"{name} has no chips left (out at {where}); record their elimination or re-buy before opening "
                "this table."
            )
        stacks.append(row["stack"])
    return stacks


def table_where(row: dict[str, Any]) -> str:
    """Where a known stack sits, in words: "online table 2" or "real-cards table 2 (ABC234)"."""
    if "real_table" in row:
        return f"real-cards table {row['table']} ({row['real_table']})"
    return f"online table {row['table']}"


@retry_on_conflict
@transaction.atomic
def tournament_online_table_open(
    *, actor: Actor, tournament: Tournament, table_number: Any, turn_seconds: Any = 30, now: datetime | None = None
) -> Any:
    """Open an online table for a tournament table's seated players, at the level in force, with the event's
    rules: escalation off (the levels come from the clock, at each next hand), no re-buys at the table (the
    tournament takes them), each player bringing the stack known for them from their last online table (the
    starting stack when none is known). A player still playing at another online table is refused: they move
    between hands first, so no chip is counted twice."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    _check_table_number(table_number)
    if tournament.drawn_at is None or tournament.status not in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING):
        raise ConflictError("Online tables open after the seat draw, while the tournament is on.")
    seated = _seated_at(tournament, table_number)
    if online_selectors.tournament_table_in_play(event_id=tournament.event_id, number=table_number):
        raise ConflictError(f"Table {table_number} already has an online table; finish it before opening another.")
    if realcards_tables.table_in_play(event_id=tournament.event_id, number=table_number) is not None:
        raise ConflictError(f"Table {table_number} is being played on real cards; finish it before opening it online.")
    stacks = seated_stacks(
        tournament, seated, advice=f"move them between hands, or finish that table, before opening table {table_number}"
    )
    levels = structures.structure_from_json(tournament.structure)
    state = tournament_clock(tournament, now=now or timezone.now())
    level = _playing_level(levels, state.level_index if state else 0)
    event = tournament.event
    league, season = event.season.league, event.season
    overrides = {
        **league.option_overrides,
        **season.option_overrides,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "escalation": "none",
        "rebuys": False,
        "starting_stack": tournament.starting_stack,
    }
    # The tournament decides when a table ends (its last player moves on or wins), so players can move between
    # hands (engine join and leave), in every variant; odd credits go to a player, never to a carry-over, where
    # the variant lets them. A variant without blinds (Corellian Spike, Classic) keeps its own forced bets.
    overrides.update({"end_rule": "never", "odd_credits": "left_of_dealer"})
    names = {field.name for field in dataclasses.fields(get_variant(season.variant or league.variant).options_class)}
    overrides = {name: value for name, value in overrides.items() if name in names}
    if "small_blind" not in names and not overrides.get("ante"):
        overrides.pop("ante", None)  # a level of blinds only: the variant's ante (at least one credit) stays
    return online_services.table_open_seated(
        actor=actor,
        event=event,
        name=f"{event.name}: table {table_number}",
        players=[registration.player for registration in seated],
        stack=tournament.starting_stack,
        stacks=stacks,
        seat_count=tournament.seats_per_table,
        option_overrides=overrides,
        tournament_table=table_number,
        turn_seconds=turn_seconds,
    )


@retry_on_conflict
@transaction.atomic
def tournament_online_moves(*, actor: Actor, tournament: Tournament) -> dict[str, list]:
    """Carry out the balancing moves between running online tables (`selectors.online_moves`), each through
    `games.online.services.seat_move`: `{"made": [...], "waiting": [...]}`. A move whose source table is
    playing a hand waits for that hand to end and is made at its hand break by itself (`waiting`, cancellable);
    a player whose new table is playing a hand leaves now and sits down there at its hand break (`on_the_way`,
    also listed as waiting). Refused when nothing is to move. Asking twice moves nobody twice."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.status != TournamentStatus.RUNNING:
        raise ConflictError("Players move between online tables while the tournament is running.")
    registrations = list(
        Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED).select_related(
            "player"
        )
    )
    moves = selectors.online_moves(tournament, registrations)["to_make"]
    if not moves:
        raise ConflictError("No player waits to move between online tables; balance the tables first.")
    made, waiting, refused = [], [], []
    for move in moves:
        try:
            with transaction.atomic():
                outcome = online_services.seat_move(
                    actor=actor, source_id=move["source"], target_id=move["target"], player_id=move["player"]
                )
        except ApplicationError as exc:
            refused.append({**move, "reason": exc.message})
            continue
        if outcome == "made":
            made.append(move)
        elif outcome == "waiting":
            waiting.append({**move, "reason": f"waiting for the hand at table {move['from_table']} to end"})
        elif outcome == "on_the_way":
            waiting.append({**move, "reason": f"joins table {move['to_table']} when its hand ends"})
    if refused and not made and not waiting:
        raise ConflictError(" ".join(move["reason"] for move in refused))
    return {"made": made, "waiting": [*waiting, *refused]}


@retry_on_conflict
@transaction.atomic
def tournament_online_move_cancel(*, actor: Actor, tournament: Tournament, move_id: Any) -> Any:
    """Cancel a move between online tables still waiting for a hand to end; it is listed to make again."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if isinstance(move_id, bool) or not isinstance(move_id, int) or move_id < 1:
        raise ApplicationError(f"Choose a waiting move by its id; got {move_id!r}.", extra={"field": "move"})
    change = online_services.change_cancel(change_id=move_id, event_id=tournament.event_id)
    _audit(
        actor=actor,
        tournament=tournament,
        action="tournament_online_move_cancel",
        data={"move": change.pk, "player": change.player_id},
    )
    return change


def move_wanted(*, event_id: int, player_id: int, to_table: int) -> str | None:
    """`games.hooks.online_move_wanted`: None while the tournament still seats the player at `to_table`."""
    registration = (
        Registration.objects.filter(tournament__event_id=event_id, player_id=player_id)
        .values("status", "table_number")
        .first()
    )
    if registration is None or registration["status"] != RegistrationStatus.REGISTERED:
        return "the player is out of the tournament"
    if registration["table_number"] != to_table:
        where = registration["table_number"]
        return f"the tournament seats them at table {where} now" if where else "the tournament no longer seats them"
    return None
