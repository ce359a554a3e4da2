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
from games.engine import EngineError, Game
from games.models import Seat
from games.online import services as online
from games.online.models import OnlineSeat, OnlineTable, SeatKind, TableStatus
from games.online.services import lobby_topic, table_topic
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
            if all(table.options.get(key) == value for key, value in amounts.items()):
                continue
            table.options = {**table.options, **amounts}
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


ACTIVE = (TableStatus.OPEN, TableStatus.RUNNING, TableStatus.PAUSED)


def seated_online(*, event_id: int) -> dict[int, dict[str, int]]:
    """Where each player sits online now: `{"online_table", "table"}` (the tournament table), by player id."""
    rows = OnlineSeat.objects.filter(
        table__event_id=event_id, table__tournament_table__isnull=False, table__status__in=ACTIVE, left=False
    ).values_list("player_id", "table_id", "table__tournament_table")
    return {player_id: {"online_table": table_id, "table": number} for player_id, table_id, number in rows}


def known_stacks(*, event_id: int) -> dict[int, dict[str, Any]]:
    """Each player's stack at the event's tournament tables, by player id (stacks are public): from the latest
    online table each sat at, `{"stack", "table", "online_table", "active"}`. A hand in progress counts what
    the player had when it was dealt (their stack plus what they put in this hand). Two queries."""
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
    return known


@transaction.atomic
def seat_move(*, actor: Any, source_id: int, target_id: int, player_id: int) -> bool:
    """Move a player between two running online tables of a tournament (balancing), between hands: they leave
    the source with their stack (engine `leave`) and join the target with it (engine `join`). Returns False
    when the move is already made (so asking twice moves once). Refused, writing nothing, while either table
    is playing a hand: it is made at a hand break. The caller holds the tournament's lock; the two tables
    are locked in id order so two moves never wait on each other crosswise."""
    if source_id == target_id:
        raise ApplicationError("A player moves between two different tables.")
    locked = {table.pk: table for table in (online._lock(pk) for pk in sorted((source_id, target_id)))}
    source, target = locked[source_id], locked[target_id]
    for table in (source, target):
        if table.tournament_table is None or table.event_id != source.event_id:
            raise ApplicationError("Players move only between the online tables of one tournament.")
    sitting = target.seats.filter(player_id=player_id, left=False).first()
    leaving = source.seats.filter(player_id=player_id, left=False).first()
    if sitting is not None and leaving is None:
        return False  # made already
    if leaving is None:
        raise ConflictError(f"The player has no seat at {source}; nothing to move.")
    if sitting is not None:
        raise ConflictError(f"The player already sits at {target}.")
    for table in (source, target):
        if table.status not in (TableStatus.RUNNING, TableStatus.PAUSED):
            raise ConflictError(
                f"{table} is {table.get_status_display().lower()}; players move between running tables."
            )
    source_game, target_game = online._load(source), online._load(target)
    name = online._seat_name(target, leaving.name)
    stack = source_game.stacks[leaving.engine_seat]
    try:
        source_game.verify_leave(leaving.engine_seat)
        target_game.verify_join(name, stack)
    except EngineError as exc:
        raise ConflictError(
            f"{leaving.name} cannot move from {source} to {target} now: {exc} The move is made at a hand break; "
            "try again then."
        ) from exc
    if stack <= 0:
        raise ConflictError(f"{leaving.name} has no chips left at {source}; record the elimination instead.")
    number = online._free_number(target, None)

    before = online._turn_key(source_game)
    source_game.leave(leaving.engine_seat)
    leaving.left, leaving.left_with = True, (leaving.left_with or 0) + stack
    leaving.save(update_fields=["left", "left_with"])
    source.results = [*source.results, {"leave": leaving.name, "amount": stack}]
    online._changed(source, source_game, before, what="seat_left")
    if not source.seats.filter(left=False).exists():  # a broken table: its game lands in the league, empty
        online.table_close(actor=actor, table=source)

    before = online._turn_key(target_game)
    engine_seat = target_game.join(name, stack)
    earlier = target.seats.filter(player_id=player_id, left=True).first()
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
    online._changed(target, target_game, before, what="seat_taken")
    audit(
        actor=actor,
        action="online_table.tournament_move",
        obj=target,
        league=target.event.season.league,
        data={
            "event": source.event_id,
            "player": player_id,
            "from": source.pk,
            "to": target.pk,
            "from_table": source.tournament_table,
            "to_table": target.tournament_table,
            "stack": stack,
        },
    )
    return True
