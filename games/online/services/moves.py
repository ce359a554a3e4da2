"""Moves between a tournament's online tables, and chips on their way to a seat: a balancing move (`seat_move`),
carried out at once between hands or at the source's hand break; the hand break of a tournament's table and the end
of each of its hands (`hand_break`, `hand_ended`: the moves and chips waiting for them, once each); chips whose
target was busy (`arrivals`, the `seat_changes` task); a re-buy's or an add-on's chips (`rebuy_queue`); a waiting
move cancelled; tables left decided ended (`tables_settle`). Called by tournaments through `games.online.services`,
never the reverse: what a move still needs of the tournament it asks through `games.hooks`.

Every change here is made between hands, so the `changed` it ends with never ends a hand."""

from typing import Any

from django.db import transaction

from config.errors import ApplicationError, ConflictError
from config.events import publish
from config.inputs import Actor, user_or_none
from games import hooks as game_hooks
from games.engine import Game
from games.models import Seat
from games.online import schedule
from games.online.models import ChangeKind, ChangeStatus, OnlineSeat, OnlineTable, SeatChange, SeatKind, TableStatus
from games.online.services import turns
from games.online.services.base import (
    engine_seats,
    free_seat_number,
    load_game,
    lock_table,
    lock_table_if_any,
    seat_name,
    table_topic,
)
from games.online.services.clock import turn_key
from games.online.services.finish import decided
from league.services import audit

MOVED, DROPPED = "online_table.tournament_move", "online_table.tournament_move_dropped"
# A seat change still to be carried out: waiting for its source's hand to end, or chips on their way.
OPEN = (ChangeStatus.WAITING, ChangeStatus.ON_THE_WAY)


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


def _free_changes(**where: Any):
    """The seat changes matching `where` that nobody else holds now, locked, with their target table (a hand break
    passes over a change another table's hand break is carrying out)."""
    return (
        SeatChange.objects.select_for_update(of=("self",), skip_locked=True)
        .select_related("target__event__season__league")
        .filter(**where)
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
    name = earlier.name if earlier is not None else seat_name(target, name)
    number = free_seat_number(target, None)
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
    actor: Actor | None,
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


def _after_leaving(actor: Actor | None, source: OnlineTable, game: Game) -> None:
    """A table everyone left is closed: its game lands in the league, empty. So is one where nobody left holds
    chips (only players out of chips stay seated, who may not re-buy): it is broken."""
    if not game.can_close_table():
        return
    if not source.seats.filter(left=False).exists():
        game.close_table()
    elif not game.seats_with_credits():
        getattr(source, "_prefetched_objects_cache", {}).pop("seats", None)
        if decided(source, game, engine_seats(source)):
            game.close_table()


@transaction.atomic
def seat_move(*, actor: Actor, source_id: int, target_id: int, player_id: int) -> str:
    """Move a player between two running online tables of a tournament (balancing), between hands: they leave
    the source with their stack (engine `leave`) and join the target with it (engine `join`).

    Returns `"made"`; `"already"` when the move is made or under way (so asking twice moves once). When the
    source is playing a hand the move waits for it to end (`"waiting"`: a `SeatChange`, carried out by the
    source's next hand break, `hand_break`); when only the target is, the player leaves the source now and
    joins the target at its next hand break (`"on_the_way"`). The caller holds the tournament's lock; the two
    tables are locked in id order so two moves never wait on each other crosswise."""
    if source_id == target_id:
        raise ApplicationError("A player moves between two different tables.")
    locked = {table.pk: table for table in (lock_table(pk) for pk in sorted((source_id, target_id)))}
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
    source_game, target_game = load_game(source), load_game(target)
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
    # The move as recorded when it cannot be made at once: waiting for the source's hand, or on its way.
    move = {
        "event_id": source.event_id,
        "kind": ChangeKind.MOVE,
        "player_id": player_id,
        "source": source,
        "target": target,
    }
    if not _between_hands(source, source_game):
        SeatChange.objects.create(**move, requested_by=user or None)
        _announce_change(source, target)
        return "waiting"
    before = turn_key(source_game)
    stack = _leave(source, source_game, leaving)
    _after_leaving(actor, source, source_game)
    turns.changed(source, source_game, before, what="seat_left")
    if not _between_hands(target, target_game):
        SeatChange.objects.create(**move, status=ChangeStatus.ON_THE_WAY, stack=stack, requested_by=user or None)
        _announce_change(source, target)
        return "on_the_way"
    before = turn_key(target_game)
    _join(target, target_game, player_id, leaving.name, stack)
    turns.changed(target, target_game, before, what="seat_taken")
    _audit_move(MOVED, actor, event_id=source.event_id, player_id=player_id, source=source, target=target, stack=stack)
    return "made"


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
    for change in list(_free_changes(target=table, status=ChangeStatus.ON_THE_WAY)):
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
        source_game = load_game(source) if source.state else None
        if source_game is None or not _between_hands(source, source_game) or not _has_room(table):
            continue
        change.target = table
        before = turn_key(source_game)
        if _depart(source, source_game, change, target_game=game):
            turns.changed(source, source_game, before, what="seat_left")
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
    for change in list(_free_changes(source=table, status=ChangeStatus.WAITING)):
        changed = _depart(table, game, change) or changed
    return changed


def _settle(table: OnlineTable, game: Game) -> None:
    """After seat changes: the seats prefetched with the table are stale; a table left with at most one player
    holding chips is over."""
    getattr(table, "_prefetched_objects_cache", {}).pop("seats", None)
    if game.between_hands and decided(table, game, engine_seats(table)):
        game.close_table()


def arrivals(*, table_id: int) -> bool:
    """The `seat_changes` task: chips on their way to a table whose lock a hand break could not take (it skips a
    table busy at that moment). Between hands they join now and the next hand is scheduled again (a table waiting
    for them, with nobody else to play, deals then); mid-hand they join at its hand break. Safe to run twice."""
    with transaction.atomic():
        table = lock_table_if_any(table_id)
        if table is None or not table.state or table.tournament_table is None:
            return False
        game = load_game(table)
        if not _between_hands(table, game):
            return False
        before = turn_key(game)
        changed = False
        for change in _free_changes(target=table, status=ChangeStatus.ON_THE_WAY):
            changed = _arrive(table, game, change) or changed
        if changed:
            _settle(table, game)
            turns.changed(table, game, before, what="seat_taken")
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
        target_game = load_game(target)
        if _between_hands(target, target_game):
            before = turn_key(target_game)
            if _arrive(target, target_game, change):
                turns.changed(target, target_game, before, what="seat_taken")
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
            # `finish_game` counts a re-buy's chips (and an add-on's) as chips brought to the table.
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
        table = lock_table(table_id)
        if table.status not in (TableStatus.RUNNING, TableStatus.PAUSED) or not table.state:
            continue
        game = load_game(table)
        seats = engine_seats(table)
        if not game.between_hands or not decided(table, game, seats):
            continue
        before = turn_key(game)
        game.close_table()
        turns.changed(table, game, before, what="finished")
        ended.append(table.pk)
    return ended


def rebuy_queue(
    *, actor: Actor, event_id: int, player_id: int, table_id: int, amount: int, kind: str = ChangeKind.REBUY
) -> SeatChange:
    """A re-buy or an add-on booked by the tournament (the caller holds its lock): the chips join the player's
    stack at the table's next hand break (`hand_break`), once. A table waiting between hands deals again after
    the pause. A move of the player still waiting for a hand to end is dropped (a player out of chips does not
    move); chips already on their way must arrive first."""
    table = lock_table(table_id)
    for change in SeatChange.objects.select_for_update().filter(
        event_id=event_id, player_id=player_id, status__in=OPEN
    ):
        if change.kind == ChangeKind.MOVE and change.status == ChangeStatus.WAITING:
            _drop(change, f"Not moved: the player {'re-bought' if kind == ChangeKind.REBUY else 'added on'} first.")
            continue
        raise ConflictError(
            "Chips of this player are on their way to a table already; they join at its next hand break: try "
            "again after it."
        )
    change = SeatChange.objects.create(
        event_id=event_id,
        kind=kind,
        player_id=player_id,
        target=table,
        status=ChangeStatus.ON_THE_WAY,
        stack=amount,
        requested_by=user_or_none(actor),
    )
    # A new version, so every viewer's page shows the chips on their way (and the re-buy button goes).
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    if table.status == TableStatus.RUNNING and table.state and load_game(table).between_hands:
        # The next hand waits for the version it was scheduled at (and a table stalled with one player holding
        # chips has none scheduled): schedule it again.
        schedule.deal_later(table)
    _announce_change(table)
    return change
