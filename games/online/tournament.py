"""What a tournament's clock asks of an event's online tables (called by tournaments, never the reverse).

A new level takes effect at a table's next hand. A table not yet started takes the level's blinds and ante
into its options (its first hand uses them). A running or paused game records the level as pending
(`OnlineTable.pending_levels`); `services.next_hand` applies it through the engine's `Game.set_levels` just
before it deals, under the table's lock, and clears it, so it is applied once. Announcing the same level
again changes nothing.
"""

from typing import Any

from django.db import transaction

from config.errors import ApplicationError, ConflictError
from config.events import publish
from games import hooks as game_hooks
from games.engine import Game
from games.engine.variant import get_variant
from games.models import Seat
from games.online import schedule
from games.online.models import ChangeKind, ChangeStatus, OnlineSeat, OnlineTable, SeatChange, SeatKind, TableStatus
from games.online.services.common import _load, _lock, _lock_if_any, _seat_name, lobby_topic, table_topic
from games.online.services.seats import _free_number
from games.online.services.turns import _changed, _decided, _engine_seats, _turn_key
from league.services import audit


@transaction.atomic
def level_changed(
    *, event_id: int, small_blind: int, big_blind: int, ante: int, level: int | None = None
) -> dict[str, Any]:
    """Apply a level to the event's open tables and make it pending at running ones; returns the table ids
    of each (a table that already has this level, applied or pending, is in neither)."""
    applied, told = [], []
    amounts = {"ante": ante, "small_blind": small_blind, "big_blind": big_blind}
    tables = OnlineTable.objects.select_for_update(no_key=True, of=("self",)).filter(
        event_id=event_id, status__in=(TableStatus.OPEN, TableStatus.RUNNING, TableStatus.PAUSED)
    )
    for table in tables.order_by("pk"):
        if table.status == TableStatus.OPEN:
            options = _level_options(table.variant, amounts)
            if all(table.options.get(key) == value for key, value in options.items()):
                continue
            table.options = {**table.options, **options}
            table.save(update_fields=["options", "updated_at"])
            applied.append(table.pk)
        else:
            pending = {"level": level, **amounts}
            if table.pending_levels == pending:
                continue
            # The version is left alone: the next-hand task already scheduled stays current.
            table.pending_levels = pending
            table.save(update_fields=["pending_levels", "updated_at"])
            told.append(table.pk)
        publish(table_topic(table.pk), {"table": table.pk, "version": table.version, "what": "level"})
    if applied or told:
        publish(lobby_topic(), {"event": event_id, "what": "level"})
    return {"applied": applied, "told": told}


def _level_options(variant: str, amounts: dict[str, int]) -> dict[str, int]:
    """A level as a table not yet started takes it into its options: a variant without blinds (Corellian Spike,
    Classic) takes only the ante, as its hand-pot ante, and keeps its own when the level has none."""
    if get_variant(variant).has_blinds:
        return amounts
    return {"ante": amounts["ante"]} if amounts["ante"] else {}


ACTIVE = (TableStatus.OPEN, TableStatus.RUNNING, TableStatus.PAUSED)
MOVED, DROPPED = "online_table.tournament_move", "online_table.tournament_move_dropped"


def seated_online(*, event_id: int) -> dict[int, dict[str, int]]:
    """Where each player sits online now: `{"online_table", "table"}` (the tournament table), by player id."""
    rows = OnlineSeat.objects.filter(
        table__event_id=event_id, table__tournament_table__isnull=False, table__status__in=ACTIVE, left=False
    ).values_list("player_id", "table_id", "table__tournament_table")
    return {player_id: {"online_table": table_id, "table": number} for player_id, table_id, number in rows}


def known_stacks(*, event_id: int) -> dict[int, dict[str, Any]]:
    """Each player's stack at the event's tournament tables, by player id (stacks are public): from the latest
    online table each sat at, `{"stack", "table", "online_table", "active"}`. A hand in progress counts what
    the player had when it was dealt (their stack plus what they put in this hand); a player moving between
    tables counts the stack they carry, at the table they are going to. Three queries."""
    tables = {
        row["pk"]: row
        for row in OnlineTable.objects.filter(event_id=event_id, tournament_table__isnull=False)
        .order_by()
        .values("pk", "tournament_table", "status", "state", "buy_in")
    }
    seats = (
        OnlineSeat.objects.filter(table_id__in=tables)
        .order_by("table_id")
        .values("table_id", "player_id", "name", "engine_seat", "stack", "left")
    )
    games: dict[int, Game | None] = {}
    known: dict[int, dict[str, Any]] = {}
    for seat in seats:
        table = tables[seat["table_id"]]
        if seat["left"]:
            continue
        if table["pk"] not in games:
            games[table["pk"]] = Game.from_json(table["state"]) if table["state"] else None
        game = games[table["pk"]]
        if game is None or seat["engine_seat"] is None:
            stack = seat["stack"] if seat["stack"] is not None else table["buy_in"]
        else:
            stack = game.stacks[seat["engine_seat"]]
            if game.in_hand:
                stack += game.hand.contributions.get(seat["engine_seat"], 0)
        # Tables come in the order they were opened: a later table's stack replaces an earlier one's.
        known[seat["player_id"]] = {
            "stack": stack,
            "table": table["tournament_table"],
            "online_table": table["pk"],
            "active": table["status"] in ACTIVE,
        }
    moving = SeatChange.objects.filter(
        event_id=event_id, kind=ChangeKind.MOVE, status=ChangeStatus.ON_THE_WAY, target_id__in=tables
    ).values_list("player_id", "stack", "target_id")
    for player_id, stack, target_id in moving:
        table = tables[target_id]
        known[player_id] = {
            "stack": stack or 0,
            "table": table["tournament_table"],
            "online_table": target_id,
            "active": table["status"] in ACTIVE,
        }
    return known


def _lock_other(current_id: int, other_id: int) -> OnlineTable | None:
    """Lock a second table during `current_id`'s hand break, only if nobody holds it now (None otherwise: the
    change is made at a later hand break). A hand break never waits for a lock while it holds its table's, so
    it can never be part of a deadlock (the next-hand task is not retried)."""
    return (
        OnlineTable.objects.select_for_update(of=("self",), skip_locked=True)
        .select_related("event__season__league")
        .defer("results")
        .filter(pk=other_id)
        .first()
    )


def _between_hands(table: OnlineTable, game: Game) -> bool:
    return table.status in (TableStatus.RUNNING, TableStatus.PAUSED) and game.between_hands


def _leave(source: OnlineTable, game: Game, leaving: OnlineSeat) -> int:
    """The player leaves `source` between hands with their stack (tournament chips: no ledger line). The last
    player holding chips there takes what is left in its Sabacc pot and carry-over with them (no chip leaves
    a tournament)."""
    if game.seats_with_credits() == [leaving.engine_seat] and game.can_pay_leftovers():
        game.pay_leftovers()
    stack = game.stacks[leaving.engine_seat]
    game.leave(leaving.engine_seat)
    leaving.left, leaving.left_with = True, (leaving.left_with or 0) + stack
    leaving.save(update_fields=["left", "left_with"])
    source.results = [*source.results, {"leave": leaving.name, "amount": stack}]
    return stack


def _join(target: OnlineTable, game: Game, player_id: int, name: str, stack: int) -> None:
    """The player sits down at `target` between hands with `stack` chips (engine `join`); the league game's
    seat row records the chips in."""
    earlier = target.seats.filter(player_id=player_id, left=True).first()
    name = earlier.name if earlier is not None else _seat_name(target, name)
    number = _free_number(target, None)
    engine_seat = game.join(name, stack)
    if earlier is not None:  # back at a table they left earlier in the tournament
        earlier.number, earlier.left, earlier.engine_seat, earlier.away, earlier.timeouts = (
            number,
            False,
            engine_seat,
            False,
            0,
        )
        earlier.save(update_fields=["number", "left", "engine_seat", "away", "timeouts"])
    else:
        OnlineSeat.objects.create(
            table=target, number=number, kind=SeatKind.PLAYER, player_id=player_id, name=name, engine_seat=engine_seat
        )
    row = Seat.objects.select_for_update().filter(game_id=target.game_id, player_id=player_id).first()
    if row is None:
        last = Seat.objects.filter(game_id=target.game_id).order_by("-number").values_list("number", flat=True).first()
        Seat.objects.create(game_id=target.game_id, player_id=player_id, number=(last or 0) + 1, buy_in=stack)
    else:
        row.buy_in += stack
        row.save(update_fields=["buy_in"])
    target.results = [*target.results, {"join": name, "amount": stack}]


def _audit_move(
    action: str,
    actor: Any,
    *,
    event_id: int,
    player_id: int,
    source: OnlineTable | int | None,
    target: OnlineTable,
    **extra,
) -> None:
    """The audit line of a move between two tables, made or dropped: the player, both tables' ids and numbers,
    and `extra` (the stack moved, or why the move was dropped)."""
    if isinstance(source, OnlineTable):
        source_id, source_table = source.pk, source.tournament_table
    else:
        source_id = source
        source_table = (
            OnlineTable.objects.filter(pk=source).values_list("tournament_table", flat=True).first() if source else None
        )
    audit(
        actor=actor,
        action=action,
        obj=target,
        league=target.event.season.league,
        data={
            "event": event_id,
            "player": player_id,
            "from": source_id,
            "to": target.pk,
            "from_table": source_table,
            "to_table": target.tournament_table,
            **extra,
        },
    )


def _check_pair(source: OnlineTable, target: OnlineTable) -> None:
    for table in (source, target):
        if table.tournament_table is None or table.event_id != source.event_id:
            raise ApplicationError("Players move only between the online tables of one tournament.")
    for table in (source, target):
        if table.status not in (TableStatus.RUNNING, TableStatus.PAUSED):
            raise ConflictError(
                f"{table} is {table.get_status_display().lower()}; players move between running tables."
            )


def _after_leaving(actor: Any, source: OnlineTable, game: Game) -> None:
    """A table everyone left is closed: its game lands in the league, empty. So is one where nobody left holds
    chips (only players out of chips stay seated, who may not re-buy): it is broken."""
    if not game.can_close_table():
        return
    if not source.seats.filter(left=False).exists():
        game.close_table()
    elif not game.seats_with_credits():
        getattr(source, "_prefetched_objects_cache", {}).pop("seats", None)
        if _decided(source, game, _engine_seats(source)):
            game.close_table()


@transaction.atomic
def seat_move(*, actor: Any, source_id: int, target_id: int, player_id: int) -> str:
    """Move a player between two running online tables of a tournament (balancing), between hands: they leave
    the source with their stack (engine `leave`) and join the target with it (engine `join`).

    Returns `"made"`; `"already"` when the move is made or under way (so asking twice moves once). When the
    source is playing a hand the move waits for it to end (`"waiting"`: a `SeatChange`, carried out by the
    source's next hand break, `hand_break`); when only the target is, the player leaves the source now and
    joins the target at its next hand break (`"on_the_way"`). The caller holds the tournament's lock; the two
    tables are locked in id order so two moves never wait on each other crosswise."""
    if source_id == target_id:
        raise ApplicationError("A player moves between two different tables.")
    locked = {table.pk: table for table in (_lock(pk) for pk in sorted((source_id, target_id)))}
    source, target = locked[source_id], locked[target_id]
    sitting = target.seats.filter(player_id=player_id, left=False).first()
    leaving = source.seats.filter(player_id=player_id, left=False).first()
    if sitting is not None and leaving is None:
        return "already"
    if SeatChange.objects.filter(event_id=source.event_id, player_id=player_id, status__in=OPEN).exists():
        return "already"
    if leaving is None:
        raise ConflictError(f"The player has no seat at {source}; nothing to move.")
    if sitting is not None:
        raise ConflictError(f"The player already sits at {target}.")
    _check_pair(source, target)
    if leaving.engine_seat is None:
        raise ConflictError(f"{source} has not started; open the tables again after their players move.")
    source_game, target_game = _load(source), _load(target)
    for table, game in ((source, source_game), (target, target_game)):
        if getattr(game.options, "end_rule", None) != "never":
            raise ConflictError(
                f"{table} plays until its game ends by itself ({table.preset}): players cannot join or leave it "
                "between hands. Finish it, then open the table again."
            )
    if source_game.stacks[leaving.engine_seat] <= 0:
        raise ConflictError(f"{leaving.name} has no chips left at {source}; record the elimination instead.")
    if not target.seats.filter(left=False).count() < target.seat_count:
        raise ConflictError(f"{target} is full: all {target.seat_count} seats are taken.")
    user = getattr(actor, "pk", None) and actor
    if not _between_hands(source, source_game):
        SeatChange.objects.create(
            event_id=source.event_id,
            kind=ChangeKind.MOVE,
            player_id=player_id,
            source=source,
            target=target,
            requested_by=user or None,
        )
        _announce_change(source, target)
        return "waiting"
    before = _turn_key(source_game)
    stack = _leave(source, source_game, leaving)
    _after_leaving(actor, source, source_game)
    _changed(source, source_game, before, what="seat_left")
    if not _between_hands(target, target_game):
        SeatChange.objects.create(
            event_id=source.event_id,
            kind=ChangeKind.MOVE,
            player_id=player_id,
            source=source,
            target=target,
            status=ChangeStatus.ON_THE_WAY,
            stack=stack,
            requested_by=user or None,
        )
        _announce_change(source, target)
        return "on_the_way"
    before = _turn_key(target_game)
    _join(target, target_game, player_id, leaving.name, stack)
    _changed(target, target_game, before, what="seat_taken")
    _audit_move(MOVED, actor, event_id=source.event_id, player_id=player_id, source=source, target=target, stack=stack)
    return "made"


OPEN = (ChangeStatus.WAITING, ChangeStatus.ON_THE_WAY)


def _announce_change(*tables: OnlineTable) -> None:
    for table in tables:
        publish(table_topic(table.pk), {"table": table.pk, "version": table.version, "what": "seat_change"})


def _drop(change: SeatChange, reason: str) -> None:
    change.status, change.note = ChangeStatus.DROPPED, reason[:300]
    change.save(update_fields=["status", "note", "updated_at"])
    _audit_change(DROPPED, change, reason=reason)


def _audit_change(action: str, change: SeatChange, **extra) -> None:
    """A waiting move's audit line, made or dropped at a hand break (nobody's request)."""
    _audit_move(
        action,
        None,
        event_id=change.event_id,
        player_id=change.player_id,
        source=change.source_id,
        target=change.target,
        **extra,
    )


def hand_break(table: OnlineTable, game: Game) -> bool:
    """At `table`'s hand break, under its lock, before the next hand is dealt (`services.next_hand`): carry out
    the seat changes waiting for it, once each. A player waiting to leave leaves now (and joins the target now
    if it is between hands too, else at its next hand break); chips on their way here join their stack. A move
    no longer needed (the player is out of chips or out of the tournament, or seated elsewhere since) is dropped
    with an audit line. Returns whether anything changed."""
    if table.tournament_table is None:
        return False
    changed = _departures(table, game)
    arrivals = list(
        SeatChange.objects.select_for_update(of=("self",), skip_locked=True)
        .select_related("target__event__season__league")
        .filter(target=table, status=ChangeStatus.ON_THE_WAY)
    )
    for change in arrivals:
        changed = _arrive(table, game, change) or changed
    # A move whose source is between hands while this table waits for it: made now when the source is free.
    for change in SeatChange.objects.select_for_update(skip_locked=True).filter(
        target=table, status=ChangeStatus.WAITING
    ):
        source = _lock_other(table.pk, change.source_id)
        if source is None:
            continue
        if source.status not in (TableStatus.RUNNING, TableStatus.PAUSED):
            change.target = table
            _drop(change, f"Not moved: {source} is {source.get_status_display().lower()}.")
            changed = True
            continue
        source_game = _load(source) if source.state else None
        if source_game is None or not _between_hands(source, source_game) or not _has_room(table):
            continue
        change.target = table
        before = _turn_key(source_game)
        if _depart(source, source_game, change, target_game=game):
            _changed(source, source_game, before, what="seat_left")
            changed = True
    if changed:
        _settle(table, game)
    return changed


def hand_ended(table: OnlineTable, game: Game) -> bool:
    """As soon as a hand ends at `table` (under its lock, before the pause): the players waiting to leave it leave
    now, so a player whose new table deals during this table's pause is dealt in there (they are in no hand
    here any more). Their arrival is as at `hand_break`. Returns whether anything changed."""
    if table.tournament_table is None or not game.between_hands:
        return False
    changed = _departures(table, game)
    if changed:
        _settle(table, game)
    return changed


def _departures(table: OnlineTable, game: Game) -> bool:
    """The moves waiting for `table`'s hand to end, carried out (or dropped) once each."""
    changed = False
    departures = list(
        SeatChange.objects.select_for_update(of=("self",), skip_locked=True)
        .select_related("target__event__season__league")
        .filter(source=table, status=ChangeStatus.WAITING)
    )
    for change in departures:
        changed = _depart(table, game, change) or changed
    return changed


def _settle(table: OnlineTable, game: Game) -> None:
    """After seat changes: the seats prefetched with the table are stale; a table left with at most one player
    holding chips is over."""
    getattr(table, "_prefetched_objects_cache", {}).pop("seats", None)
    if game.between_hands and _decided(table, game, _engine_seats(table)):
        game.close_table()


def arrivals(*, table_id: int) -> bool:
    """The `seat_changes` task: chips on their way to a table whose lock a hand break could not take (it skips a
    table busy at that moment). Between hands they join now and the next hand is scheduled again (a table waiting
    for them, with nobody else to play, deals then); mid-hand they join at its hand break. Safe to run twice."""
    with transaction.atomic():
        table = _lock_if_any(table_id)
        if table is None or not table.state or table.tournament_table is None:
            return False
        game = _load(table)
        if not _between_hands(table, game):
            return False
        before = _turn_key(game)
        changed = False
        for change in (
            SeatChange.objects.select_for_update(of=("self",), skip_locked=True)
            .select_related("target__event__season__league")
            .filter(target=table, status=ChangeStatus.ON_THE_WAY)
        ):
            changed = _arrive(table, game, change) or changed
        if changed:
            _settle(table, game)
            _changed(table, game, before, what="seat_taken")
        return changed


def _depart(source: OnlineTable, game: Game, change: SeatChange, *, target_game: Game | None = None) -> bool:
    """Carry out a waiting move at `source`'s hand break (both locked by the caller when `target_game` is
    given, else the target is locked here if it can be)."""
    leaving = source.seats.filter(player_id=change.player_id, left=False).first()
    target = change.target
    reason = None
    if leaving is None or leaving.engine_seat is None:
        reason = f"the player no longer sits at {source}"
    elif game.stacks[leaving.engine_seat] <= 0:
        reason = f"{leaving.name} has no chips left at {source}"
    elif target.status not in (TableStatus.RUNNING, TableStatus.PAUSED):
        reason = f"{target} is {target.get_status_display().lower()}"
    else:
        reason = game_hooks.online_move_wanted(
            event_id=source.event_id, player_id=change.player_id, to_table=target.tournament_table
        )
    if reason:
        _drop(change, f"Not moved: {reason}.")
        return True
    stack = _leave(source, game, leaving)
    _after_leaving(None, source, game)
    change.stack = stack
    change.status = ChangeStatus.ON_THE_WAY
    change.save(update_fields=["status", "stack", "updated_at"])
    if target_game is None:
        locked = _lock_other(source.pk, target.pk)
        if locked is None:
            # The target is busy this moment (perhaps its own hand break): look again once this one commits, so
            # a target between hands, even one waiting with nobody else to play, seats the player before it deals.
            schedule.later("seat_changes", [target.pk], 0)
            return True
        target = change.target = locked
        target_game = _load(target)
        if _between_hands(target, target_game):
            before = _turn_key(target_game)
            if _arrive(target, target_game, change):
                _changed(target, target_game, before, what="seat_taken")
        return True
    _arrive(target, target_game, change)
    return True


def _has_room(table: OnlineTable) -> bool:
    return table.seats.filter(left=False).count() < table.seat_count


def _arrive(target: OnlineTable, game: Game, change: SeatChange) -> bool:
    """Chips on their way to `target` join it at its hand break: a moved player sits down with their stack, a
    re-buy's or an add-on's chips join the player's stack (engine `leave`, then `join` with the stack and the
    chips: the same seat, for every variant). A player whose seat was taken meanwhile waits for the next hand break."""
    seat = target.seats.filter(player_id=change.player_id, left=False).first()
    if seat is None and not _has_room(target):
        return False
    name = (
        OnlineSeat.objects.filter(player_id=change.player_id).values_list("name", flat=True).last()
        or change.player.display_name
    )
    if change.kind == ChangeKind.MOVE:
        _join(target, game, change.player_id, name, change.stack)
        _audit_change(MOVED, change, stack=change.stack)
    else:
        if seat is not None and seat.engine_seat is not None:
            held = game.stacks[seat.engine_seat]
            game.leave(seat.engine_seat)
            game.join(seat.name, held + change.stack)
            row = Seat.objects.select_for_update().get(game_id=target.game_id, player_id=change.player_id)
            if change.kind == ChangeKind.REBUY:
                row.rebuys += 1
                row.rebuy_credits += change.stack
            else:
                row.addon_credits += change.stack
            row.save(update_fields=["rebuys", "rebuy_credits", "addon_credits"])
            # `_finish` counts a re-buy's chips (and an add-on's) as chips brought to the table.
            target.results = [*target.results, {"rebuy": seat.name, "amount": change.stack}]
        else:  # moved since: the chips sit down with them as a join
            _join(target, game, change.player_id, name, change.stack)
        audit(
            actor=None,
            action=f"online_table.tournament_{change.kind}",
            obj=target,
            league=target.event.season.league,
            data={"event": change.event_id, "player": change.player_id, "stack": change.stack},
        )
    change.status = ChangeStatus.MADE
    change.save(update_fields=["status", "stack", "updated_at"])
    return True


@transaction.atomic
def change_cancel(*, change_id: int, event_id: int) -> SeatChange:
    """Cancel a move still waiting for its table's hand to end (the caller holds the tournament's lock and checked
    the organiser). A player already on their way cannot be called back: they join at the next hand break."""
    change = SeatChange.objects.select_for_update().filter(pk=change_id, event_id=event_id).first()
    if change is None:
        raise ApplicationError(f"No waiting move {change_id!r} at this tournament.", extra={"field": "move"})
    if change.status == ChangeStatus.ON_THE_WAY:
        raise ConflictError(
            "The player has left their table already; they join the new one at its next hand break, so the move "
            "cannot be cancelled now."
        )
    if change.status != ChangeStatus.WAITING:
        raise ConflictError(f"This move is {change.get_status_display().lower()} already; nothing to cancel.")
    change.status, change.note = ChangeStatus.CANCELLED, "Cancelled by the organiser."
    change.save(update_fields=["status", "note", "updated_at"])
    return change


@transaction.atomic
def tables_settle(*, event_id: int) -> list[int]:
    """End the event's tournament tables that are decided between hands (at most one seated player with chips,
    nobody on the way, nobody who may still re-buy): after a re-buy period closes, a table that waited for its
    busted players' re-buys ends here. Returns the tables ended."""
    ended = []
    ids = OnlineTable.objects.filter(
        event_id=event_id, tournament_table__isnull=False, status__in=(TableStatus.RUNNING, TableStatus.PAUSED)
    ).values_list("pk", flat=True)
    for table_id in sorted(ids):
        table = _lock(table_id)
        if table.status not in (TableStatus.RUNNING, TableStatus.PAUSED) or not table.state:
            continue
        game = _load(table)
        seats = _engine_seats(table)
        if not game.between_hands or not _decided(table, game, seats):
            continue
        before = _turn_key(game)
        game.close_table()
        _changed(table, game, before, what="finished")
        ended.append(table.pk)
    return ended
