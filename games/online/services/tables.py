"""The table's lifecycle, run by its organisers: open a table (a tournament's with its players seated), fill
empty seats with bots, start the game, pause, resume, and close a cash table."""

import random
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.errors import ApplicationError, ConflictError
from config.inputs import Actor, user_or_none, whole_number_from
from games.engine import EngineError, Game
from games.engine.bots import BOTS
from games.models import Game as LeagueGame
from games.models import GameSource, GameStatus, Seat
from games.online.models import (
    MAX_SEATS,
    MAX_TURN_SECONDS,
    MIN_SEATS,
    MIN_TURN_SECONDS,
    ChangeStatus,
    OnlineSeat,
    OnlineTable,
    SeatChange,
    SeatKind,
    TableStatus,
)
from games.online.permissions import (
    NOBODY_SEATED,
    NotAllowed,
    can_run_table,
    check_can_open,
    has_person,
    seat_filter,
    start_refusal,
)
from games.online.services import clock
from games.online.services.base import (
    announce,
    load_game,
    lock_table,
    save_game,
    seat_name,
    starting_chips,
)
from games.online.services.clock import turn_key
from games.online.services.finish import end_at_break, finish_game
from games.online.services.moves import hand_ended
from games.online.services.turns import changed
from league.models import MAX_CREDITS, Event, EventStatus, LedgerEntry, LedgerKind, Player
from league.services import audit, effective_buy_in_policy, lock_event, resolve_game_rules


def new_table(*, buy_in: int, **fields: Any) -> OnlineTable:
    """A new table's row, its buy-in checked: every seat's chips together stay within the ledger's credits."""
    if not 1 <= buy_in <= MAX_CREDITS // MAX_SEATS:
        raise ApplicationError(f"The buy-in must be from 1 to {MAX_CREDITS // MAX_SEATS:,} credits; got {buy_in}.")
    return OnlineTable.objects.create(buy_in=buy_in, **fields)


@transaction.atomic
def table_open(
    *,
    actor: Actor,
    event: Event,
    name: str,
    seats: int = 6,
    turn_seconds: int = 30,
    preset: str | None = None,
    option_overrides: dict | None = None,
    variant: str | None = None,
) -> OnlineTable:
    """Open a table at `event`: the league's (or season's) rules unless a preset or overrides are given,
    checked by the engine; the buy-in comes from the event's buy-in policy. `variant` is the league's unless
    given (a Halcyon tournament plays Coruscant Shift)."""
    event = Event.objects.select_related("season__league").get(pk=event.pk)
    league, season = event.season.league, event.season
    check_can_open(actor, league)
    name = (name or "").strip()
    if not name or len(name) > 80:
        raise ApplicationError("A table needs a name of 1 to 80 characters.", extra={"field": "name"})
    seats = whole_number_from(seats, "Seats", MIN_SEATS, MAX_SEATS)
    turn_seconds = whole_number_from(turn_seconds, "The turn time in seconds", MIN_TURN_SECONDS, MAX_TURN_SECONDS)
    if event.status == EventStatus.FINISHED:
        raise ApplicationError(f"{event} is finished; open a table at an event that is planned or running.")
    variant = variant or season.variant or league.variant
    preset = preset or season.preset or league.preset
    if option_overrides is None:
        option_overrides = {**league.option_overrides, **season.option_overrides}
    options = resolve_game_rules(variant=variant, preset=preset, overrides=option_overrides)
    policy = effective_buy_in_policy(event)
    buy_in = policy.buy_in if policy and policy.buy_in else options["starting_stack"]
    if buy_in != options["starting_stack"]:
        # The buy-in sets the stake: the players start with it, so the options (the game page, the replay, the
        # rules line) say it too; the engine checks the stake as any option.
        options = resolve_game_rules(
            variant=variant, preset=preset, overrides={**option_overrides, "starting_stack": buy_in}
        )
    table = new_table(
        event=event,
        name=name,
        variant=variant,
        preset=preset,
        options=options,
        seat_count=seats,
        buy_in=buy_in,
        turn_seconds=turn_seconds,
        created_by=user_or_none(actor),
    )
    audit(actor=actor, action="online_table.open", obj=table, league=league, data={"seats": seats, "preset": preset})
    announce(table, "opened")
    return table


@transaction.atomic
def table_open_seated(
    *,
    actor: Actor,
    event: Event,
    name: str,
    players: list[Player],
    stack: int,
    option_overrides: dict,
    tournament_table: int,
    turn_seconds: int = 30,
    stacks: list[int] | None = None,
    seat_count: int | None = None,
    variant: str | None = None,
    preset: str | None = None,
) -> OnlineTable:
    """Open a tournament's table with its players seated in order (the control room's "play online"):
    organisers only; each player starts with `stack` chips, or with their own of `stacks` (the stack each
    brings from earlier in the tournament); it starts when the organiser starts it."""
    if not MIN_SEATS <= len(players) <= MAX_SEATS:
        raise ConflictError(f"An online table seats {MIN_SEATS} to {MAX_SEATS} players; this table has {len(players)}.")
    whole_number_from(stack, "The starting stack", 1, MAX_CREDITS // MAX_SEATS)
    stacks = list(stacks) if stacks is not None else [stack] * len(players)
    if len(stacks) != len(players):
        raise ApplicationError(f"Give one stack per player: {len(players)} players, {len(stacks)} stacks.")
    for each in stacks:
        whole_number_from(each, "A player's stack", 1, MAX_CREDITS // MAX_SEATS)
    table = table_open(
        actor=actor,
        event=event,
        name=name,
        seats=max(len(players), min(seat_count or 0, MAX_SEATS)),  # room for players moving in (balancing)
        turn_seconds=turn_seconds,
        option_overrides=option_overrides,
        variant=variant,
        preset=preset,
    )
    table = lock_table(table)
    _check_runner(actor, table)
    table.buy_in = stack
    table.options = {**table.options, "starting_stack": stack}  # the tournament's stack is the game's stake
    table.tournament_table = tournament_table
    for number, (player, chips) in enumerate(zip(players, stacks, strict=True)):
        OnlineSeat.objects.create(
            table=table,
            number=number,
            kind=SeatKind.PLAYER,
            player=player,
            name=seat_name(table, player.display_name),
            stack=None if chips == stack else chips,
        )
    table.version += 1
    table.save(update_fields=["buy_in", "options", "tournament_table", "version", "updated_at"])
    announce(table, "seat_taken")
    return table


def _bot_name(kind: str, number: int) -> str:
    """A bot seat's name ("Sensible bot 3"): bots are never league players, so the name is all there is."""
    return f"{kind.capitalize()} bot {number + 1}"


@transaction.atomic
def table_fill_bots(*, actor: Actor, table: OnlineTable, kind: str = "sensible") -> list[OnlineSeat]:
    """Fill every empty seat with a bot of `kind` (random or sensible)."""
    table = lock_table(table)
    _check_runner(actor, table)
    if kind not in BOTS:
        raise ApplicationError(f"Unknown bot {kind!r}; the bots are: {', '.join(BOTS)}.", extra={"field": "kind"})
    if table.status != TableStatus.OPEN:
        raise ConflictError("Bots are seated before the game starts.")
    if table.tournament_table is not None:
        raise ConflictError("A tournament's table seats its registered players only; bots do not play tournaments.")
    if table.is_casual and not has_person(table.seats.all()):
        raise ConflictError(NOBODY_SEATED)  # every seat a bot's, nobody could sit down to start it
    taken = set(table.seats.values_list("number", flat=True))
    created = []
    for number in range(table.seat_count):
        if number in taken:
            continue
        created.append(
            OnlineSeat.objects.create(
                table=table,
                number=number,
                kind=SeatKind.BOT,
                bot_kind=kind,
                player=None,
                name=seat_name(table, _bot_name(kind, number)),
            )
        )
    if not created:
        raise ConflictError("Every seat is taken already.")
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    audit(actor=actor, action="online_table.bots", obj=table, league=_league(table), data={"kind": kind})
    announce(table, "bots_seated")
    return created


def _league(table: OnlineTable) -> Any:
    """The table's league for the audit line; None for a casual game."""
    return table.event.season.league if table.event_id is not None else None


def _check_runner(actor: Actor, table: OnlineTable) -> None:
    if not can_run_table(actor, table):
        if table.event_id is None:
            raise NotAllowed("Only the host who started this game runs it (starts, pauses, resumes, closes).")
        raise NotAllowed(
            f"Only organisers of {table.event.season.league} and the member who opened this table (its host) can "
            "run it (fill bots, start, pause, resume, end, close)."
        )


@transaction.atomic
def table_start(*, actor: Actor, table: OnlineTable) -> OnlineTable:
    """Start the game: book every seat's buy-in in the ledger, create the league game, deal the first hand.

    Locks in the app's order: the league and the event first (the game and the ledger lines belong to them),
    then the table, so a tournament service holding the event never waits on a table that waits on it."""
    event_id = table.event_id if isinstance(table, OnlineTable) else OnlineTable.objects.get(pk=table).event_id
    if event_id is None:
        return _start_casual(actor, table)
    event = lock_event(event_id)
    table = lock_table(table)
    _check_runner(actor, table)
    if table.status != TableStatus.OPEN:
        raise ConflictError(f"The game has already started (the table is {table.get_status_display().lower()}).")
    if event.status == EventStatus.FINISHED:
        raise ConflictError(
            f"{event} is finished, so its results are final: a game started now would land in a finished event. "
            "An organiser may reopen the event on its page first, or open a table at another event."
        )
    seats = list(table.seats.select_related("player").order_by("number"))
    refusal = start_refusal(table, seats)
    if refusal is not None:
        raise ConflictError(refusal)
    game = _deal_in(table, seats)
    now = timezone.now()
    league_game = LeagueGame.objects.create(
        event=event,
        status=GameStatus.RUNNING,
        source=GameSource.ONLINE,
        variant=table.variant,
        preset=table.preset,
        options=table.options,
        played_at=now,
        recorded_by=user_or_none(actor),
    )
    # The league game seats people only: a bot's chips are the house's, its result stays on the game's record.
    people = [seat for seat in seats if seat.player_id is not None]
    Seat.objects.bulk_create(
        Seat(game=league_game, player=seat.player, number=number, buy_in=starting_chips(table, seat))
        for number, seat in enumerate(people, start=1)
    )
    if table.tournament_table is None:  # a tournament's table plays its chips; the tournament books the money
        LedgerEntry.objects.bulk_create(
            LedgerEntry(
                event=event,
                game=league_game,
                player=seat.player,
                kind=LedgerKind.BUY_IN,
                amount=table.buy_in,
                author=None,
            )
            for seat in people
        )
    if event.status == EventStatus.PLANNED:
        Event.objects.filter(pk=event.pk).update(status=EventStatus.RUNNING)
    table.game = league_game
    return _begin(actor, table, game, league=event.season.league)


def _start_casual(actor: Actor, table: OnlineTable) -> OnlineTable:
    """Start a casual game: its host fills the empty seats with the table's bots and deals; no league game, no
    ledger (the game belongs to no league)."""
    table = lock_table(table)
    _check_runner(actor, table)
    if table.status != TableStatus.OPEN:
        raise ConflictError(f"The game has already started (the table is {table.get_status_display().lower()}).")
    refusal = start_refusal(table, table.seats.all())
    if refusal is not None:
        raise ConflictError(refusal)
    taken = set(table.seats.values_list("number", flat=True))
    for number in range(table.seat_count):
        if number not in taken:
            OnlineSeat.objects.create(
                table=table,
                number=number,
                kind=SeatKind.BOT,
                bot_kind=table.bot_kind or "sensible",
                name=seat_name(table, _bot_name(table.bot_kind or "sensible", number)),
            )
    seats = list(table.seats.order_by("number"))
    game = _deal_in(table, seats)
    return _begin(actor, table, game, league=None, data={"casual": True})


def _deal_in(table: OnlineTable, seats: list[OnlineSeat]) -> Game:
    """The engine's game for `seats` (in seat order, each with its starting credits); each seat learns its
    engine seat. A refusal of the engine's is the user's error, with its words."""
    try:
        game = Game.new(
            options=table.options,
            players=[(seat.name, starting_chips(table, seat)) for seat in seats],
            rng=random.Random(secrets.randbits(256)),
            variant=table.variant,
            preset=table.preset,
        )
    except EngineError as exc:
        raise ApplicationError(f"The engine refused to start this game: {exc}") from exc
    for index, seat in enumerate(seats):
        seat.engine_seat = index
    OnlineSeat.objects.bulk_update(seats, ["engine_seat"])
    return game


def _begin(actor: Actor, table: OnlineTable, game: Game, *, league: Any, data: dict | None = None) -> OnlineTable:
    """The table runs: the first hand dealt, the start audited, the change saved and announced."""
    table.status = TableStatus.RUNNING
    before = turn_key(game)
    game.start_hand()
    audit(actor=actor, action="online_table.start", obj=table, league=league, data=data)
    changed(table, game, before, fresh_turn=True, what="started", hand_ended=hand_ended)
    return table


# Pause and resume: the status a table must have, the one it gets, the refusal otherwise, and the audit action.
SWITCHES = {
    "pause": (TableStatus.RUNNING, TableStatus.PAUSED, "Only a running table can be paused.", "online_table.pause"),
    "resume": (TableStatus.PAUSED, TableStatus.RUNNING, "Only a paused table can be resumed.", "online_table.resume"),
}


def _switch(actor: Actor, table: OnlineTable, switch: str) -> OnlineTable:
    """Pause and resume alike: lock the table, check its runner and its status, set the new status and audit it;
    the caller saves and announces."""
    was, becomes, refusal, action = SWITCHES[switch]
    table = lock_table(table)
    _check_runner(actor, table)
    if table.status != was:
        raise ConflictError(refusal)
    table.status = becomes
    audit(actor=actor, action=action, obj=table, league=_league(table))
    return table


@transaction.atomic
def table_pause(*, actor: Actor, table: OnlineTable) -> OnlineTable:
    """Stop the clock and the bots; nobody can act until the table resumes."""
    table = _switch(actor, table, "pause")
    clock.stop(table)
    table.version += 1
    table.save(update_fields=["status", "deadline", "version", "updated_at"])
    announce(table, "paused")
    return table


@transaction.atomic
def table_resume(*, actor: Actor, table: OnlineTable) -> OnlineTable:
    """Resume a paused table: the awaited decision gets a fresh turn time."""
    table = _switch(actor, table, "resume")
    table.paused_for = ""
    # Whoever resumes is at the table: their decisions wait for them again (a casual game pauses itself when
    # every person is away; resuming it must not hand their turns straight back to the clock).
    table.seats.filter(seat_filter(actor), left=False, away=True).update(away=False, timeouts=0)
    game = load_game(table)
    changed(table, game, turn_key(game), fresh_turn=True, what="resumed", hand_ended=hand_ended)
    return table


@transaction.atomic
def table_close(*, actor: Actor, table: OnlineTable) -> OnlineTable:
    """Close a cash table (casino: the game never ends by itself) between hands: the game lands in the league
    with every stack as it is. A casual game that has not started (its host's, seated or not: everyone may have
    left) closes at once, unplayed: no game, no result."""
    table = lock_table(table)
    _check_runner(actor, table)
    if table.status == TableStatus.OPEN and table.is_casual:
        return _close_unplayed(actor, table)
    if table.status == TableStatus.FINISHED:
        # Asked twice (two tabs, a double click): say what happened, not what a closable game looks like.
        if table.is_casual and table.outcome is None and not table.state:
            raise ConflictError("This game is already closed: it was closed before it started, with no hand played.")
        raise ConflictError("This game is already over: there is nothing left to close.")
    if table.status not in (TableStatus.RUNNING, TableStatus.PAUSED):
        raise ConflictError("Only a running or paused game can be closed.")
    if SeatChange.objects.filter(target_id=table.pk, status=ChangeStatus.ON_THE_WAY).exists():
        raise ConflictError(
            "A player (or a re-buy's chips) is on the way to this table and sits down at its next hand break; "
            "close it after that."
        )
    game = load_game(table)
    try:
        game.close_table()  # the game is over and its hand seeds are revealed (RULES 1.7)
    except EngineError as exc:
        raise ConflictError(f"The table cannot close now: {exc}") from exc
    clock.stop(table)
    table.version += 1
    save_game(table, game)
    finish_game(table, game)
    table.save()
    audit(actor=actor, action="online_table.close", obj=table, league=_league(table))
    announce(table, "finished")
    return table


@transaction.atomic
def table_end(*, actor: Actor, table: OnlineTable) -> OnlineTable:
    """End a running (or paused) league table's game at its next hand break, by its runner: the game ends there and
    its result is booked from the stacks as they stand (`finish.end_at_break`). Between hands it ends at once."""
    table = lock_table(table)
    _check_runner(actor, table)
    if table.event_id is None or table.tournament_table is not None:
        raise ConflictError(
            "Only a league table's game is ended this way; a casual game ends by itself (or its host closes it) and "
            "a tournament's table ends through its tournament."
        )
    if table.options.get("end_rule") == "never":
        raise ConflictError("A cash table is closed (Close the table), not ended.")
    if table.status not in (TableStatus.RUNNING, TableStatus.PAUSED):
        raise ConflictError(
            f"Only a running or paused game can be ended; this table is {table.get_status_display().lower()}."
        )
    if table.ending:
        raise ConflictError("This game already ends at the next hand break.")
    game = load_game(table)
    if game.between_hands:
        end_at_break(table, game, actor=actor)
        return table
    table.ending = True
    table.version += 1
    table.save(update_fields=["ending", "version", "updated_at"])
    audit(actor=actor, action="online_table.end_requested", obj=table, league=_league(table))
    announce(table, "ending")
    return table


def _close_unplayed(actor: Actor, table: OnlineTable) -> OnlineTable:
    """A casual game closed before it started: finished with no game and no outcome; its seats stay as they were
    (it is still its host's, in My games)."""
    table.status = TableStatus.FINISHED
    table.version += 1
    table.save(update_fields=["status", "version", "updated_at"])
    audit(actor=actor, action="online_table.close", obj=table, league=None, data={"unplayed": True})
    announce(table, "finished")
    return table
