"""Writes of online play: open a table, take and leave seats, start, bots, pause, and act.

Every write locks the table row, loads the engine state, checks, applies, saves, bumps the
table's `version` and publishes an event after the commit. A refusal raises `ApplicationError`
(or `ConflictError`) and writes nothing. The engine is the only judge of what is legal.
"""

import logging
import random
import secrets
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from config.errors import ApplicationError, ConflictError
from config.events import publish
from games import hooks as game_hooks
from games.engine import EngineError, Game
from games.engine.bots import BOTS, Decision, apply_decision
from games.models import Game as LeagueGame
from games.models import GameSource, GameStatus, Seat
from games.online import schedule
from games.online.models import (
    MAX_SEATS,
    MAX_TURN_SECONDS,
    MIN_SEATS,
    MIN_TURN_SECONDS,
    ActionSource,
    ChangeStatus,
    OnlineAction,
    OnlineSeat,
    OnlineTable,
    SeatChange,
    SeatKind,
    TableStatus,
)
from games.online.permissions import NotAllowed, can_run_table, can_sit, check_can_open
from league.models import MAX_CREDITS, Event, EventKind, EventStatus, LedgerEntry, LedgerKind, Player
from league.selectors import user_player_id
from league.services import (
    audit,
    effective_buy_in_policy,
    event_results_rebuild,
    league_data_changed,
    lock_event,
    resolve_game_rules,
    standings_schedule,
)

# Every variant's verbs: Coruscant Shift's, then Corellian Spike's card verbs (the engine refuses a verb
# of another variant, saying which verbs it has).
VERBS = ("select", "check", "call", "bet", "raise", "fold", "allin", "stand", "draw", "trade", "buy", "spike")
MAX_KEY_LENGTH = 80
# A sitting-out seat is acted for at once; this bounds that loop (each round needs a decision of someone).
MAX_AUTO_ACTIONS = 200

logger = logging.getLogger(__name__)


def table_topic(table_id: int) -> str:
    from django.conf import settings

    return f"{getattr(settings, 'ONLINE_EVENT_PREFIX', 'online')}.table.{table_id}"


def lobby_topic() -> str:
    from django.conf import settings

    return f"{getattr(settings, 'ONLINE_EVENT_PREFIX', 'online')}.lobby"


def _user(actor: Any) -> Any:
    return actor if getattr(actor, "is_authenticated", False) else None


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApplicationError(f"{what} must be a whole number from {low} to {high:,}; got {value!r}.")
    return value


def _lock(table: OnlineTable | int) -> OnlineTable:
    """Lock the table row only: its event, season and league are read, not locked, so the tables of one event
    do not wait for each other."""
    pk = table.pk if isinstance(table, OnlineTable) else table
    return _locked_rows().get(pk=pk)


def _locked_rows():
    """The table rows to lock, with their event, season and league. `results` (every finished hand, growing by
    one a hand) is deferred: most actions never read it, and a row saved without touching it is written
    without it; a service that reads it loads it under the same lock, and one that changes it assigns it."""
    return OnlineTable.objects.select_for_update(of=("self",)).select_related("event__season__league").defer("results")


def _lock_if_any(table_id: int) -> OnlineTable | None:
    """For tasks: a task for a table deleted since it was sent has nothing to do. The seats come along (read
    after the lock), so the task's later looks at them cost no query. Tasks do not read the event, season or
    league on the way (the end of a game reads them itself), so they are not joined; no ordering either."""
    rows = list(
        OnlineTable.objects.select_for_update()
        .defer("results")
        .order_by()
        .prefetch_related("seats")
        .filter(pk=table_id)
    )
    return rows[0] if rows else None


def _load(table: OnlineTable) -> Game:
    return Game.from_json(table.state, history=table.history or None)


def _save(table: OnlineTable, game: Game) -> None:
    table.state = game.to_json()
    table.history = game.history_json()


def _save_row(table: OnlineTable, *, unchanged: tuple[str, ...] = ()) -> None:
    """Save the table row without the fields that did not change: the deferred `results` unless assigned, and
    `unchanged` (the history, which grows by a hand each hand, is rewritten only when a hand ends)."""
    deferred = table.get_deferred_fields()
    fields = [
        f.name
        for f in table._meta.concrete_fields
        if not f.primary_key and f.attname not in deferred and f.name not in unchanged
    ]
    table.save(update_fields=fields)


def _announce(table: OnlineTable, what: str) -> None:
    """Tell viewers the table changed: the version only, never a card (each viewer fetches its own view).

    The lobby hears only of what it shows (seats, status), not of every decision in a hand: each lobby
    stream renders the list again for each message it hears."""
    publish(table_topic(table.pk), {"table": table.pk, "version": table.version, "what": what})
    if what != "changed":
        publish(lobby_topic(), {"table": table.pk, "version": table.version, "status": table.status})


# ----- opening and seats -------------------------------------------------------------------------


@transaction.atomic
def table_open(
    *,
    actor: Any,
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
    seats = _int(seats, "Seats", MIN_SEATS, MAX_SEATS)
    turn_seconds = _int(turn_seconds, "The turn time in seconds", MIN_TURN_SECONDS, MAX_TURN_SECONDS)
    if event.status == EventStatus.FINISHED:
        raise ApplicationError(f"{event} is finished; open a table at an event that is planned or running.")
    variant = variant or season.variant or league.variant
    preset = preset or season.preset or league.preset
    if option_overrides is None:
        option_overrides = {**league.option_overrides, **season.option_overrides}
    options = resolve_game_rules(variant=variant, preset=preset, overrides=option_overrides)
    policy = effective_buy_in_policy(event)
    buy_in = policy.buy_in if policy and policy.buy_in else options["starting_stack"]
    if not 1 <= buy_in <= MAX_CREDITS // MAX_SEATS:
        raise ApplicationError(f"The buy-in must be from 1 to {MAX_CREDITS // MAX_SEATS:,} credits; got {buy_in}.")
    table = OnlineTable.objects.create(
        event=event,
        name=name,
        variant=variant,
        preset=preset,
        options=options,
        seat_count=seats,
        buy_in=buy_in,
        turn_seconds=turn_seconds,
        created_by=_user(actor),
    )
    audit(actor=actor, action="online_table.open", obj=table, league=league, data={"seats": seats, "preset": preset})
    _announce(table, "opened")
    return table


@transaction.atomic
def table_open_seated(
    *,
    actor: Any,
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
    _int(stack, "The starting stack", 1, MAX_CREDITS // MAX_SEATS)
    stacks = list(stacks) if stacks is not None else [stack] * len(players)
    if len(stacks) != len(players):
        raise ApplicationError(f"Give one stack per player: {len(players)} players, {len(stacks)} stacks.")
    for each in stacks:
        _int(each, "A player's stack", 1, MAX_CREDITS // MAX_SEATS)
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
    table = _lock(table)
    _check_runner(actor, table)
    table.buy_in = stack
    table.tournament_table = tournament_table
    for number, (player, chips) in enumerate(zip(players, stacks, strict=True)):
        OnlineSeat.objects.create(
            table=table,
            number=number,
            kind=SeatKind.PLAYER,
            player=player,
            name=_seat_name(table, player.display_name),
            stack=None if chips == stack else chips,
        )
    table.version += 1
    table.save(update_fields=["buy_in", "tournament_table", "version", "updated_at"])
    _announce(table, "seat_taken")
    return table


def _player_of(actor: Any) -> Player:
    player_id = user_player_id(actor)
    if player_id is None:
        raise ApplicationError("You need a player profile to sit at a table; log in with a player account.")
    return Player.objects.get(pk=player_id)


def _free_number(table: OnlineTable, number: int | None) -> int:
    taken = set(table.seats.filter(left=False).values_list("number", flat=True))
    if number is None:
        free = [n for n in range(table.seat_count) if n not in taken]
        if not free:
            raise ConflictError(f"{table} is full: all {table.seat_count} seats are taken.")
        return free[0]
    number = _int(number, "The seat number", 0, table.seat_count - 1)
    if number in taken:
        raise ConflictError(f"Seat {number + 1} is taken; choose a free seat.")
    return number


def _seat_name(table: OnlineTable, wanted: str) -> str:
    names = set(table.seats.values_list("name", flat=True))
    name, suffix = wanted[:70], 2
    while name in names:
        name, suffix = f"{wanted[:70]} ({suffix})", suffix + 1
    return name


@transaction.atomic
def seat_take(*, actor: Any, table: OnlineTable, number: int | None = None) -> OnlineSeat:
    """Sit the actor's player at the table: before the game starts, or between hands of a running cash
    table (casino), where the buy-in is booked in the ledger at once."""
    table = _lock(table)
    if table.tournament_table is not None:
        raise ConflictError("The tournament seats the players at its tables: register for it, and the draw seats you.")
    if not can_sit(actor, table):
        raise NotAllowed(f"Only members of {table.event.season.league} can sit at this table; join it first.")
    player = _player_of(actor)
    if table.seats.filter(player=player, left=False).exists():
        raise ConflictError("You already have a seat at this table.")
    if table.status == TableStatus.FINISHED:
        raise ConflictError("The game is over; there are no seats to take.")
    if table.status != TableStatus.OPEN and table.options.get("end_rule") != "never":
        raise ConflictError(
            f"The game has started: at this table ({table.preset}) seats are taken before the start; only a cash "
            "table (casino) takes players between hands."
        )
    number = _free_number(table, number)
    if table.status != TableStatus.OPEN:
        return _join_running(actor, table, player, number)
    seat = OnlineSeat.objects.create(
        table=table, number=number, kind=SeatKind.PLAYER, player=player, name=_seat_name(table, player.display_name)
    )
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    _announce(table, "seat_taken")
    return seat


def _join_running(actor: Any, table: OnlineTable, player: Player, number: int) -> OnlineSeat:
    """A player sits down at a running cash table between hands: engine join, buy-in in the ledger."""
    game = _load(table)
    earlier = table.seats.filter(player=player, left=True).first()
    name = earlier.name if earlier else _seat_name(table, player.display_name)
    try:
        game.verify_join(name, table.buy_in)
    except EngineError as exc:
        raise ConflictError(f"You cannot sit down now: {exc}") from exc
    before = _turn_key(game)
    engine_seat = game.join(name, table.buy_in)
    if earlier is not None:
        seat = earlier
        seat.number, seat.left, seat.engine_seat, seat.away, seat.timeouts = number, False, engine_seat, False, 0
        seat.save(update_fields=["number", "left", "engine_seat", "away", "timeouts"])
    else:
        seat = OnlineSeat.objects.create(
            table=table, number=number, kind=SeatKind.PLAYER, player=player, name=name, engine_seat=engine_seat
        )
    row = Seat.objects.select_for_update().filter(game_id=table.game_id, player=player).first()
    if row is None:
        last = Seat.objects.filter(game_id=table.game_id).order_by("-number").values_list("number", flat=True).first()
        Seat.objects.create(game_id=table.game_id, player=player, number=(last or 0) + 1, buy_in=table.buy_in)
    else:
        row.buy_in += table.buy_in
        row.save(update_fields=["buy_in"])
    LedgerEntry.objects.create(
        event_id=table.event_id, game_id=table.game_id, player=player, kind=LedgerKind.BUY_IN, amount=table.buy_in
    )
    league_data_changed(league_id=table.event.season.league_id)  # the buy-in on the player and event pages
    table.results = [*table.results, {"join": name, "amount": table.buy_in}]
    audit(actor=actor, action="online_table.join", obj=table, league=table.event.season.league, data={"seat": number})
    _changed(table, game, before, what="seat_taken")
    return seat


@transaction.atomic
def seat_leave(*, actor: Any, table: OnlineTable) -> None:
    """Leave the table: any time before the start; once running only at a cash table (casino), between hands,
    cashing out the stack through the ledger at once."""
    table = _lock(table)
    player_id = user_player_id(actor)
    seat = table.seats.filter(player_id=player_id, left=False).first() if player_id else None
    if seat is None:
        raise ApplicationError("You have no seat at this table.")
    if table.tournament_table is not None:
        # Tournament chips are not credits: a player leaves a tournament's table by moving or going out.
        raise ConflictError(
            "You cannot leave a tournament's table: you move when the organiser balances the tables, or play until "
            "you are out. Step away instead: the clock acts for you."
        )
    if table.status == TableStatus.OPEN:
        seat.delete()
    elif table.status == TableStatus.FINISHED:
        raise ConflictError("The game is over; there is no seat to leave.")
    elif table.options.get("end_rule") != "never":
        raise ConflictError(
            f"You cannot leave a running game at this table ({table.preset}): the game plays until it ends. Only a "
            "cash table (casino) lets players leave between hands. Step away instead: the clock acts for you."
        )
    else:
        game = _load(table)
        try:
            game.verify_leave(seat.engine_seat)
        except EngineError as exc:
            raise ConflictError(f"You cannot leave now: {exc}") from exc
        before = _turn_key(game)
        stack = game.leave(seat.engine_seat)
        seat.left, seat.left_with = True, (seat.left_with or 0) + stack
        seat.save(update_fields=["left", "left_with"])
        if stack:
            LedgerEntry.objects.create(
                event_id=table.event_id,
                game_id=table.game_id,
                player_id=seat.player_id,
                kind=LedgerKind.PAYOUT,
                amount=-stack,
            )
            league_data_changed(league_id=table.event.season.league_id)  # the cash-out on the pages
        table.results = [*table.results, {"leave": seat.name, "amount": stack}]
        _changed(table, game, before, what="seat_left")
        return
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    _announce(table, "seat_left")


def _bot_player(kind: str, number: int) -> Player:
    """The guest player a bot seat plays as (one per bot kind and seat number, shared by every table)."""
    name = f"{kind.capitalize()} bot {number + 1}"
    player = Player.objects.filter(display_name=name, user=None, created_by=None).order_by("pk").first()
    return player or Player.objects.create(display_name=name)


@transaction.atomic
def table_fill_bots(*, actor: Any, table: OnlineTable, kind: str = "sensible") -> list[OnlineSeat]:
    """Fill every empty seat with a bot of `kind` (random or sensible)."""
    table = _lock(table)
    _check_runner(actor, table)
    if kind not in BOTS:
        raise ApplicationError(f"Unknown bot {kind!r}; the bots are: {', '.join(BOTS)}.", extra={"field": "kind"})
    if table.status != TableStatus.OPEN:
        raise ConflictError("Bots are seated before the game starts.")
    taken = set(table.seats.values_list("number", flat=True))
    created = []
    for number in range(table.seat_count):
        if number in taken:
            continue
        player = _bot_player(kind, number)
        created.append(
            OnlineSeat.objects.create(
                table=table,
                number=number,
                kind=SeatKind.BOT,
                bot_kind=kind,
                player=player,
                name=_seat_name(table, player.display_name),
            )
        )
    if not created:
        raise ConflictError("Every seat is taken already.")
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    audit(actor=actor, action="online_table.bots", obj=table, league=table.event.season.league, data={"kind": kind})
    _announce(table, "bots_seated")
    return created


def _check_runner(actor: Any, table: OnlineTable) -> None:
    if not can_run_table(actor, table):
        raise NotAllowed(f"Only organisers of {table.event.season.league} can run this table.")


# ----- starting, pausing ---------------------------------------------------------------------------


def _starting(table: OnlineTable, seat: OnlineSeat) -> int:
    """The chips a seat starts the game with: its own stack at a tournament table, else the buy-in."""
    return seat.stack if seat.stack is not None else table.buy_in


@transaction.atomic
def table_start(*, actor: Any, table: OnlineTable) -> OnlineTable:
    """Start the game: book every seat's buy-in in the ledger, create the league game, deal the first hand.

    Locks in the app's order: the league and the event first (the game and the ledger lines belong to them),
    then the table, so a tournament service holding the event never waits on a table that waits on it."""
    event_id = table.event_id if isinstance(table, OnlineTable) else OnlineTable.objects.get(pk=table).event_id
    event = lock_event(event_id)
    table = _lock(table)
    _check_runner(actor, table)
    if table.status != TableStatus.OPEN:
        raise ConflictError(f"The game has already started (the table is {table.get_status_display().lower()}).")
    seats = list(table.seats.select_related("player").order_by("number"))
    if len(seats) < MIN_SEATS:
        raise ConflictError(f"A game needs at least {MIN_SEATS} seats taken; take seats or fill them with bots.")
    try:
        game = Game.new(
            options=table.options,
            players=[(seat.name, _starting(table, seat)) for seat in seats],
            rng=random.Random(secrets.randbits(256)),
            variant=table.variant,
            preset=table.preset,
        )
    except EngineError as exc:
        raise ApplicationError(f"The engine refused to start this game: {exc}") from exc
    now = timezone.now()
    league_game = LeagueGame.objects.create(
        event=event,
        status=GameStatus.RUNNING,
        source=GameSource.ONLINE,
        variant=table.variant,
        preset=table.preset,
        options=table.options,
        played_at=now,
        recorded_by=_user(actor),
    )
    for index, seat in enumerate(seats):
        seat.engine_seat = index
    OnlineSeat.objects.bulk_update(seats, ["engine_seat"])
    Seat.objects.bulk_create(
        Seat(game=league_game, player=seat.player, number=index + 1, buy_in=_starting(table, seat))
        for index, seat in enumerate(seats)
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
            for seat in seats
        )
    if event.status == EventStatus.PLANNED:
        Event.objects.filter(pk=event.pk).update(status=EventStatus.RUNNING)
    table.game = league_game
    table.status = TableStatus.RUNNING
    before = _turn_key(game)
    game.start_hand()
    audit(actor=actor, action="online_table.start", obj=table, league=event.season.league)
    _changed(table, game, before, fresh_turn=True, what="started")
    return table


@transaction.atomic
def table_pause(*, actor: Any, table: OnlineTable) -> OnlineTable:
    """Stop the clock and the bots; nobody can act until the table resumes."""
    table = _lock(table)
    _check_runner(actor, table)
    if table.status != TableStatus.RUNNING:
        raise ConflictError("Only a running table can be paused.")
    table.status, table.deadline = TableStatus.PAUSED, None
    table.version += 1
    table.save(update_fields=["status", "deadline", "version", "updated_at"])
    audit(actor=actor, action="online_table.pause", obj=table, league=table.event.season.league)
    _announce(table, "paused")
    return table


@transaction.atomic
def table_resume(*, actor: Any, table: OnlineTable) -> OnlineTable:
    """Resume a paused table: the awaited decision gets a fresh turn time."""
    table = _lock(table)
    _check_runner(actor, table)
    if table.status != TableStatus.PAUSED:
        raise ConflictError("Only a paused table can be resumed.")
    table.status = TableStatus.RUNNING
    game = _load(table)
    audit(actor=actor, action="online_table.resume", obj=table, league=table.event.season.league)
    _changed(table, game, _turn_key(game), fresh_turn=True, what="resumed")
    return table


@transaction.atomic
def table_close(*, actor: Any, table: OnlineTable) -> OnlineTable:
    """Close a cash table (casino: the game never ends by itself) between hands: the game lands in the league
    with every stack as it is."""
    table = _lock(table)
    _check_runner(actor, table)
    if table.status not in (TableStatus.RUNNING, TableStatus.PAUSED):
        raise ConflictError("Only a running or paused game can be closed.")
    if SeatChange.objects.filter(target_id=table.pk, status=ChangeStatus.ON_THE_WAY).exists():
        raise ConflictError(
            "A player (or a re-buy's chips) is on the way to this table and sits down at its next hand break; "
            "close it after that."
        )
    game = _load(table)
    try:
        game.close_table()  # the game is over and its hand seeds are revealed (RULES 1.7)
    except EngineError as exc:
        raise ConflictError(f"The table cannot close now: {exc}") from exc
    table.deadline = None
    table.version += 1
    _save(table, game)
    _finish(table, game)
    table.save()
    audit(actor=actor, action="online_table.close", obj=table, league=table.event.season.league)
    _announce(table, "finished")
    return table


@transaction.atomic
def seat_rebuy(*, actor: Any, table: OnlineTable) -> OnlineSeat:
    """A player out of credits buys back in, between hands, where the rules and the event's policy allow it;
    the re-buy is booked in the ledger at once. At a tournament's table the tournament takes it (its re-buy
    period and rules, before any table lock: the tournament's lock comes first) and the chips join the stack at
    the next hand break."""
    if table.tournament_table is not None:
        player_id = user_player_id(actor)
        if player_id is None:
            raise ApplicationError("Only a player seated in the game can re-buy.")
        game_hooks.online_tournament_rebuy(actor=actor, event_id=table.event_id, player_id=player_id)
        return table.seats.filter(player_id=player_id, left=False).first()
    table = _lock(table)
    player_id = user_player_id(actor)
    seat = table.seats.select_related("player").filter(player_id=player_id, left=False).first() if player_id else None
    if seat is None or seat.engine_seat is None:
        raise ApplicationError("Only a player seated in the game can re-buy.")
    if table.status not in (TableStatus.RUNNING, TableStatus.PAUSED):
        raise ConflictError("Re-buys happen while the game runs, between hands.")
    event = Event.objects.select_related("season__league").get(pk=table.event_id)
    policy = effective_buy_in_policy(event)
    row = Seat.objects.select_for_update().get(game_id=table.game_id, player_id=seat.player_id)
    if policy is not None and not policy.rebuys_allowed:
        raise ConflictError(f"This event's buy-in policy ({policy}) allows no re-buys.")
    if policy is not None and policy.max_rebuys and row.rebuys >= policy.max_rebuys:
        raise ConflictError(f"This event allows at most {policy.max_rebuys} re-buys; you have had {row.rebuys}.")
    amount = (policy.rebuy_amount if policy and policy.rebuy_amount else 0) or table.buy_in
    game = _load(table)
    try:
        game.rebuy(seat.engine_seat, amount)
    except EngineError as exc:
        raise ConflictError(f"You cannot re-buy now: {exc}") from exc
    row.rebuys += 1
    row.rebuy_credits += amount
    row.save(update_fields=["rebuys", "rebuy_credits"])
    LedgerEntry.objects.create(
        event=event, game_id=table.game_id, player=seat.player, kind=LedgerKind.REBUY, amount=amount
    )
    league_data_changed(league_id=event.season.league_id)  # the ledger and prize pool on the pages
    table.results = [*table.results, {"rebuy": seat.name, "amount": amount}]
    before = _turn_key(game)
    _changed(table, game, before)
    return seat


@transaction.atomic
def seat_entropy(*, actor: Any, table: OnlineTable, value: str) -> None:
    """A seated player's browser contributes randomness to the next hand's deck (RULES 1.7), between hands.

    The table's version stays as it is: nothing anyone sees changes, and the next hand still starts on time."""
    table = _lock(table)
    player_id = user_player_id(actor)
    seat = table.seats.filter(player_id=player_id, left=False).first() if player_id else None
    if seat is None or seat.engine_seat is None:
        raise ApplicationError("Only a player seated in the game contributes to its decks.")
    if table.status not in (TableStatus.RUNNING, TableStatus.PAUSED):
        raise ConflictError("Entropy is contributed while the game runs, between hands.")
    game = _load(table)
    try:
        game.contribute_entropy(seat.engine_seat, value)
    except EngineError as exc:
        raise ApplicationError(str(exc)) from exc
    _save(table, game)
    table.save(update_fields=["state", "history", "updated_at"])


@transaction.atomic
def seat_return(*, actor: Any, table: OnlineTable) -> OnlineSeat:
    """A player marked away comes back: their decisions wait for them again."""
    table = _lock(table)
    player_id = user_player_id(actor)
    seat = table.seats.filter(player_id=player_id, left=False).first() if player_id else None
    if seat is None:
        raise ApplicationError("You have no seat at this table.")
    if not seat.away:
        raise ConflictError("You are not marked away.")
    seat.away, seat.timeouts = False, 0
    seat.save(update_fields=["away", "timeouts"])
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    if table.status == TableStatus.RUNNING and table.state:
        game = _load(table)
        if not game.waiting_for() and not game.over:
            # Between hands the next hand waits for the version it was scheduled at: schedule it again.
            schedule.later("next_hand", [table.pk, table.version], schedule.hand_pause())
    _announce(table, "returned")
    return seat


# ----- acting --------------------------------------------------------------------------------------


def _turn_key(game: Game) -> tuple:
    """What decision the table awaits: hand, phase and, in a betting round, whose turn."""
    waiting = game.waiting_for()
    if not waiting:
        return (game.hands_played, "none", None)
    phase = game.legal_actions(waiting[0]).phase
    return (game.hands_played, phase, None if phase in ("select", "improve") else waiting[0])


def _decision(
    verb: Any,
    cards: Any,
    amount: Any,
    card: Any = None,
    source: Any = None,
    *,
    classic: dict | None = None,
) -> Decision:
    """`classic`: Classic Sabacc's extra fields (`unlock`, `lock`, `call_hand`), given only at a classic table."""
    if classic is not None:
        return _classic_decision(verb, amount, card, **classic)
    if verb not in VERBS:
        raise ApplicationError(
            f"Unknown action {verb!r}; the actions are: {', '.join(VERBS)}.", extra={"field": "verb"}
        )
    if verb == "select":
        if not isinstance(cards, list | tuple) or not all(isinstance(c, str) for c in cards) or len(cards) > 10:
            raise ApplicationError(
                "Select needs `cards`, a list of the card codes you choose from your hand (it may be empty).",
                extra={"field": "cards"},
            )
        return Decision("select", cards=tuple(cards))
    if verb in ("bet", "raise"):
        what = "A bet" if verb == "bet" else "A raise (your new total for the round)"
        return Decision(verb, amount=_int(amount, what, 1, MAX_CREDITS))
    for name, value in (("card", card), ("source", source)):
        if value is not None and (not isinstance(value, str) or len(value) > 10):
            raise ApplicationError(f"`{name}` is a short text such as +7c or pilot.", extra={"field": name})
    if verb in ("trade", "spike") and card is None:
        raise ApplicationError(
            f"{verb.capitalize()} needs `card`, the card of your hand you give.", extra={"field": "card"}
        )
    if verb in ("trade", "buy") and source is None:
        raise ApplicationError(
            f"{verb.capitalize()} needs `source`: deck, pilot, wing, gunner or discard.", extra={"field": "source"}
        )
    return Decision(verb, card=card, source=source)


def _classic_decision(verb: Any, amount: Any, card: Any, unlock: Any, lock: Any, call_hand: Any) -> Decision:
    """A Classic Sabacc decision: a play turn (draw, trade with `card`, stand; each with an optional `unlock`
    and `lock`) or a betting action that may call the hand."""
    verbs = ("draw", "trade", "stand", "check", "call", "bet", "raise", "fold", "allin")
    if verb not in verbs:
        raise ApplicationError(
            f"Unknown action {verb!r}; the actions are: {', '.join(verbs)}.", extra={"field": "verb"}
        )
    for name, value in (("card", card), ("unlock", unlock), ("lock", lock)):
        if value is not None and (not isinstance(value, str) or len(value) > 10):
            raise ApplicationError(f"`{name}` is a card code such as +7s or -17.", extra={"field": name})
    if call_hand not in (None, False, True):
        raise ApplicationError("`call_hand` is true or false.", extra={"field": "call_hand"})
    if verb in ("draw", "trade", "stand"):
        if verb == "trade" and card is None:
            raise ApplicationError("Trade needs `card`, the card of your hand you give up.", extra={"field": "card"})
        return Decision(verb, card=card, unlock=unlock, lock=lock)
    if verb in ("bet", "raise"):
        what = "A bet" if verb == "bet" else "A raise (your new total for the round)"
        return Decision(verb, amount=_int(amount, what, 1, MAX_CREDITS), call_hand=bool(call_hand))
    return Decision(verb, call_hand=bool(call_hand))


def default_decision(game: Game, engine_seat: int) -> Decision:
    """What the clock does for a player: keep nothing new in select and improve, check if free, else fold."""
    legal = game.legal_actions(engine_seat)
    verbs = legal.verbs
    if "select" in verbs:
        return Decision("select", cards=())
    if "check" in verbs:
        return Decision("check")
    if "stand" in verbs:  # a card turn (Corellian Spike): change nothing
        return Decision("stand")
    if "spike" in verbs:  # the spike dice matched: a card must go; the first one held
        return Decision("spike", card=legal.cards[0])
    if "fold" in verbs:
        return Decision("fold")
    return Decision(verbs[0]) if verbs else Decision("fold")


def _apply(
    table: OnlineTable,
    game: Game,
    seat: OnlineSeat,
    decision: Decision,
    *,
    source: str,
    key: str,
    actor: Any = None,
) -> dict:
    """Apply one decision through the engine, log it, save, and schedule what follows."""
    before = _turn_key(game)
    hand_number = game.hands_played + (1 if game.in_hand else 0)
    phase = game.legal_actions(seat.engine_seat).phase
    try:
        apply_decision(game, seat.engine_seat, decision)
    except EngineError as exc:
        raise ApplicationError(str(exc), code="illegal_action") from exc
    version = table.version + 1
    response = {"applied": True, "verb": decision.verb, "hand": hand_number, "version": version}
    OnlineAction.objects.create(
        table=table,
        seat=seat,
        key=key,
        source=source,
        actor=_user(actor),
        verb=decision.verb,
        amount=decision.amount,
        hand=hand_number,
        phase=phase,
        version=version,
        response=response,
    )
    _changed(table, game, before)
    return response


def _check_version(table: OnlineTable, version: Any, actor: Any) -> None:
    if isinstance(version, bool) or not isinstance(version, int):
        raise ApplicationError(
            f"Every action carries `version`, the table version it was made against (a whole number); got {version!r}.",
            extra={"field": "version"},
        )
    if not table.turn_version <= version <= table.version:
        from games.online.selectors import table_state

        raise ConflictError(
            f"The table has moved on (version {table.version}; your action was made against {version}); nothing was "
            "done. Here is the table as it is now.",
            code="stale",
            extra={"version": table.version, "state": table_state(table, user=actor)},
        )


@transaction.atomic
def table_act(
    *,
    actor: Any,
    table: OnlineTable,
    verb: str,
    version: int,
    key: str,
    cards: list[str] | None = None,
    amount: int | None = None,
    card: str | None = None,
    source: str | None = None,
    unlock: str | None = None,
    lock: str | None = None,
    call_hand: bool | None = None,
) -> dict:
    """A player's decision (`card` and `source` for Corellian Spike's card turns and spikes; `card`, `unlock`,
    `lock` and `call_hand` for Classic Sabacc's play turns and calls). `key` makes it
    idempotent (a repeat returns the first answer and acts once);
    `version` is the table version it was made against (a stale one is refused with 409)."""
    if not isinstance(key, str) or not 1 <= len(key) <= MAX_KEY_LENGTH:
        raise ApplicationError(
            f"Every action carries `key`, an idempotency key of 1 to {MAX_KEY_LENGTH} characters; got {key!r}.",
            extra={"field": "key"},
        )
    table = _lock(table)
    player_id = user_player_id(actor)
    seat = table.seats.filter(player_id=player_id, left=False).first() if player_id else None
    if seat is None:
        raise ApplicationError("You have no seat at this table; only seated players act.", code="not_seated")
    key = f"p{seat.pk}:{key}"
    first = OnlineAction.objects.filter(table=table, key=key).first()
    if first is not None:
        return {**first.response, "repeated": True}
    extra = {"unlock": unlock, "lock": lock, "call_hand": call_hand} if table.variant == "classic" else None
    decision = _decision(verb, cards, amount, card, source, classic=extra)
    if table.status != TableStatus.RUNNING:
        raise ConflictError(f"The table is {table.get_status_display().lower()}: nobody can act now.")
    _check_version(table, version, actor)
    game = _load(table)
    if seat.engine_seat not in game.waiting_for():
        waiting = ", ".join(game.names[s] for s in game.waiting_for()) or "nobody (between hands)"
        raise ConflictError(f"It is not your decision; the table is waiting for {waiting}.", code="not_your_turn")
    response = _apply(table, game, seat, decision, source=ActionSource.PLAYER, key=key, actor=actor)
    if seat.timeouts or seat.away:
        OnlineSeat.objects.filter(pk=seat.pk).update(timeouts=0, away=False)
    return response


def _engine_seats(table: OnlineTable) -> dict[int, OnlineSeat]:
    """{engine seat: seat}; at a cash table a seat someone left may be reused, and the one seated now wins."""
    rows = sorted((s for s in table.seats.all() if s.engine_seat is not None), key=lambda s: not s.left)
    return {s.engine_seat: s for s in rows}


def _changed(table: OnlineTable, game: Game, before: tuple, *, fresh_turn: bool = False, what: str = "changed") -> None:
    """After the engine state changed: settle sitting-out seats, save, set the clock, schedule, announce."""
    seats = _engine_seats(table)
    played_before = before[0]
    table.version += 1
    after = _turn_key(game)
    turn_changed = fresh_turn or after != before
    if turn_changed:
        table.turn_version = table.version
    for _ in range(MAX_AUTO_ACTIONS):
        away = [s for s in game.waiting_for() if seats[s].away or seats[s].left]
        if not away or table.status != TableStatus.RUNNING:
            break
        seat = seats[away[0]]
        key = f"away:{table.turn_version}:{seat.number}"
        before = _turn_key(game)
        hand_number = game.hands_played + (1 if game.in_hand else 0)
        phase = game.legal_actions(seat.engine_seat).phase
        decision = default_decision(game, seat.engine_seat)
        apply_decision(game, seat.engine_seat, decision)
        table.version += 1
        OnlineAction.objects.create(
            table=table,
            seat=seat,
            key=key,
            source=ActionSource.AWAY,
            verb=decision.verb,
            hand=hand_number,
            phase=phase,
            version=table.version,
            response={"applied": True, "verb": decision.verb, "hand": hand_number, "version": table.version},
        )
        if _turn_key(game) != before:
            table.turn_version = table.version
            turn_changed = True
    if table.tournament_table is not None and game.hands_played > played_before and _decided(table, game, seats):
        game.close_table()  # a tournament's table plays on until one player there has chips (end rule "never")
    now = timezone.now()
    waiting = game.waiting_for()
    if game.over:
        table.deadline = None
    elif table.status == TableStatus.RUNNING and waiting and turn_changed:
        table.deadline = now + timedelta(seconds=table.turn_seconds)
        if any(not seats[s].is_bot for s in waiting):
            schedule.later("turn_timeout", [table.pk, table.turn_version], table.turn_seconds)
        for engine_seat in waiting:
            if seats[engine_seat].is_bot:
                schedule.later(
                    "bot_act", [table.pk, seats[engine_seat].number, table.turn_version], schedule.bot_delay()
                )
    elif table.status == TableStatus.RUNNING and not waiting:
        # Between hands: the next hand after the pause (any change between hands starts the pause again).
        table.deadline = None
        schedule.later("next_hand", [table.pk, table.version], schedule.hand_pause())
    finished_hands = game.hands_played - played_before
    if finished_hands > 0:
        table.results = [*table.results, *game.results[-finished_hands:]]
        _tell_busts(table, game, seats)
    if finished_hands > 0 and table.tournament_table is not None:
        # A tournament's player waiting for this hand to end leaves now, not after the pause (their new table may
        # deal meanwhile): games.online.tournament.
        from games.online.tournament import hand_ended

        hand_ended(table, game)
    history = table.history
    _save(table, game)
    if game.over:
        _finish(table, game)
    _save_row(table, unchanged=("history",) if table.history == history else ())
    _announce(table, "finished" if game.over else what)


def _decided(table: OnlineTable, game: Game, seats: dict[int, OnlineSeat]) -> bool:
    """A tournament table whose game the engine never ends itself (players move in and out between hands) is
    over between hands once at most one seated player has chips."""
    seated = {number for number, seat in seats.items() if not seat.left}
    alive = [number for number in game.seats_with_credits() if number in seated]
    if len(alive) > 1 or not game.can_close_table():
        return False
    # Not while a player or a re-buy's chips are on their way here or a player waits to leave for another table
    # (the hand break carries them out first), nor while those out may still re-buy.
    if SeatChange.objects.filter(
        Q(target_id=table.pk, status__in=(ChangeStatus.WAITING, ChangeStatus.ON_THE_WAY))
        | Q(source_id=table.pk, status=ChangeStatus.WAITING)
    ).exists():
        return False
    busted = [seat.player_id for number, seat in seats.items() if number in seated and game.stacks[number] == 0]
    return not (busted and game_hooks.online_rebuys_open(event_id=table.event_id, player_ids=busted))


def _tell_busts(table: OnlineTable, game: Game, seats: dict[int, OnlineSeat]) -> None:
    """After a hand: the players it left without credits, each with the winner of the pot they lost,
    for whoever listens (a tournament records the elimination), after the commit."""
    hand = game.hand
    # Only a tournament's own tables (opened for its seated players) report: a casual table at the event does not.
    if hand is None or not hand.is_complete or table.tournament_table is None:
        return
    busts = []
    for seat in hand.seats:
        if game.out_at.get(seat) != hand.number or game.stacks[seat] != 0 or seat not in seats:
            continue
        lost = [a for a in hand.awards if seat in a["eligible"] and seat not in a["winners"] and a["winners"]]
        winner = lost[0]["winners"][0] if lost else None
        busts.append(
            {
                "player_id": seats[seat].player_id,
                "knocked_out_by": seats[winner].player_id if winner in seats else None,
                "stack": hand.contributions.get(seat, 0),
            }
        )
    if busts:
        event_id, table_id, number = table.event_id, table.pk, hand.number
        transaction.on_commit(
            lambda: game_hooks.online_players_out(event_id=event_id, table_id=table_id, hand=number, busts=busts),
            robust=True,
        )


# ----- tasks (called by games.online.tasks with ids; each safe to run twice) -------------------------


@transaction.atomic
def turn_timeout(*, table_id: int, turn_version: int) -> int:
    """The turn clock ran out: act for every player still awaited at `turn_version`, once.

    Returns how many seats were acted for (0 when the decision was already made or the table paused)."""
    table = _lock_if_any(table_id)
    if table is None or table.status != TableStatus.RUNNING or table.turn_version != turn_version:
        return 0
    game = _load(table)
    seats = _engine_seats(table)
    acted = 0
    for engine_seat in game.waiting_for():
        if table.turn_version != turn_version or engine_seat not in game.waiting_for():
            break
        seat = seats[engine_seat]
        if seat.is_bot:
            continue
        seat.timeouts += 1
        seat.away = seat.away or seat.timeouts >= 2
        seat.save(update_fields=["timeouts", "away"])
        _apply(
            table,
            game,
            seat,
            default_decision(game, engine_seat),
            source=ActionSource.TIMEOUT,
            key=f"timeout:{turn_version}:{seat.number}",
        )
        acted += 1
    return acted


@transaction.atomic
def bot_act(*, table_id: int, seat_number: int, turn_version: int) -> bool:
    """A bot's decision, from its seat's view only; nothing when it is no longer the bot's decision."""
    table = _lock_if_any(table_id)
    if table is None or table.status != TableStatus.RUNNING or table.turn_version != turn_version:
        return False
    seat = next((s for s in table.seats.all() if s.number == seat_number and s.kind == SeatKind.BOT), None)
    if seat is None:
        return False
    game = _load(table)
    # Under the lock, the engine says whether the bot is still awaited: a repeat of this task, or one for a
    # decision the bot made already, finds it is not (the action's unique key backs this up).
    if seat.engine_seat not in game.waiting_for():
        return False
    key = f"bot:{turn_version}:{seat_number}"
    bot = BOTS[seat.bot_kind](random.Random(secrets.randbits(64)))
    decision = bot.decide(game.view_for(seat.engine_seat))
    _apply(table, game, seat, decision, source=ActionSource.BOT, key=key)
    return True


@transaction.atomic
def next_hand(*, table_id: int, version: int) -> bool:
    """Deal the next hand after the pause; nothing if the table changed since (paused, or dealt already)."""
    table = _lock_if_any(table_id)
    if table is None or table.status != TableStatus.RUNNING or table.version != version:
        return False
    game = _load(table)
    if not game.between_hands:
        return False
    before = _turn_key(game)
    # A tournament's seat changes waiting for this hand break (moves, re-buys' chips), once, under the lock.
    from games.online.tournament import hand_break

    if hand_break(table, game) and not game.can_start_hand():
        _changed(table, game, before, what="seat_change")
        return False
    if not game.can_start_hand():
        return False
    _apply_pending_levels(table, game)
    game.start_hand()
    _changed(table, game, before, fresh_turn=True)
    return True


def _apply_pending_levels(table: OnlineTable, game: Game) -> None:
    """A tournament's level announced since the last hand (games.online.tournament): the engine takes it
    between hands, and it is cleared in the same transaction, so it is applied once."""
    pending = table.pending_levels
    if not pending:
        return
    amounts = {key: pending[key] for key in ("ante", "small_blind", "big_blind")}
    if not game.variant.has_blinds:
        # Corellian Spike, Classic: the level's ante is the hand-pot ante (a level without one keeps the ante in
        # force); blinds are not posted (docs/rules.md, "Tournament levels").
        amounts = {"ante": amounts["ante"] or game.levels.ante, "small_blind": 0, "big_blind": 0}
    try:
        game.set_levels(**amounts)
    except EngineError as exc:  # a structure validated by the tournament never gets here; keep playing
        logger.warning("Online table %s: level %s refused by the engine: %s", table.pk, pending, exc)
    table.pending_levels = None


# ----- the end of the game -----------------------------------------------------------------------


def _finish(table: OnlineTable, game: Game) -> None:
    """The game is over: results, places, hand-by-hand ledger, replay and standings for the league game."""
    from games.engine.replay import export_replay

    table.status = TableStatus.FINISHED
    if table.tournament_table is not None and game.can_pay_leftovers():
        # No chip leaves a tournament: the Sabacc pot and carry-over go to the players holding chips there.
        game.pay_leftovers()
        _save(table, game)
    league_game = LeagueGame.objects.select_for_update().get(pk=table.game_id)
    event = Event.objects.select_related("season__league").get(pk=league_game.event_id)
    seats = {s.name: s for s in table.seats.select_related("player")}
    places = {row["player"]: row for row in game.standings()}
    rows = {s.player_id: s for s in Seat.objects.select_for_update().filter(game=league_game)}
    starting = set(game.starting_names)
    previous = {name: _starting(table, seat) if name in starting else 0 for name, seat in seats.items()}
    deltas: dict[str, list[int]] = {name: [] for name in seats}
    history = []
    credits_in = sum(previous.values())
    for result in table.results:
        if "rebuy" in result or "join" in result:  # credits brought to the table between hands
            previous[result.get("rebuy") or result["join"]] += result["amount"]
            credits_in += result["amount"]
            continue
        if "leave" in result:  # cashed out (booked in the ledger when the player left)
            previous[result["leave"]] = 0
            continue
        stacks = result["stacks"]
        for name in seats:
            deltas[name].append(stacks.get(name, 0) - previous[name])
            previous[name] = stacks.get(name, 0)
        history.append({str(seats[name].player_id): stacks.get(name, 0) for name in seats})
    entries = []
    for name, seat in seats.items():
        row = rows[seat.player_id]
        at_table = 0 if seat.left else game.stacks[seat.engine_seat]
        row.final_credits = at_table + (seat.left_with or 0)
        row.place = places.get(name, {}).get("place")
        row.biggest_pot = max([0, *deltas[name]])
        for number, delta in enumerate(deltas[name], start=1):
            if delta:
                kind = LedgerKind.HAND_WON if delta > 0 else LedgerKind.HAND_LOST
                entries.append(
                    LedgerEntry(event=event, game=league_game, player=seat.player, kind=kind, amount=delta, hand=number)
                )
        if at_table:
            entries.append(
                LedgerEntry(event=event, game=league_game, player=seat.player, kind=LedgerKind.PAYOUT, amount=-at_table)
            )
    if any(seat.left_with for seat in seats.values()):
        # Someone cashed out at a cash table: places go by all the credits each player took away.
        totals = sorted((row.final_credits for row in rows.values()), reverse=True)
        for row in rows.values():
            row.place = totals.index(row.final_credits) + 1
    # Corellian Spike and Classic leave the Sabacc pot and the carry-over unpaid at the end (RULES Rulings 2.6.1,
    # 3.7.2), except at a tournament's table (paid above).
    unpaid = game.carry + sum(game.pools.values())
    credits_out = sum(row.final_credits for row in rows.values()) + unpaid
    if credits_in != credits_out:  # a bug, never a user error: the engine conserves credits
        raise RuntimeError(f"Online table {table.pk}: {credits_in} credits came in but {credits_out} went out.")
    Seat.objects.bulk_update(list(rows.values()), ["final_credits", "place", "biggest_pot"])
    if table.tournament_table is None:  # tournament chips are not credits (see table_start)
        LedgerEntry.objects.bulk_create(entries)
    try:
        document = export_replay(game)
    except EngineError:
        document = None
    league_game.status = GameStatus.FINISHED
    league_game.replay_document = document
    league_game.replay_result = {
        "hands": [result for result in table.results if "stacks" in result],
        "standings": game.standings(),
        "stacks": {name: game.stacks[s] for s, name in enumerate(game.names)},
        **({"unpaid": {"carry_over": game.carry, **game.pools}} if unpaid else {}),
    }
    league_game.hands = history
    league_game.save(update_fields=["status", "replay_document", "replay_result", "hands"])
    if event.kind == EventKind.GAME and event.status != EventStatus.FINISHED:
        Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
    event_results_rebuild(event=event)
    standings_schedule(league_id=event.season.league_id)
    publish("game.result_recorded", {"game": league_game.pk, "event": event.pk, "league": event.season.league.slug})
    if table.tournament_table is not None:  # a tournament listening may record the table's game (Halcyon)
        event_id, table_id, number = event.pk, table.pk, table.tournament_table
        transaction.on_commit(
            lambda: game_hooks.online_table_finished(event_id=event_id, table_id=table_id, tournament_table=number),
            robust=True,
        )
