"""Chips booked by a tournament for a player seated at one of its online tables (a re-buy's or an add-on's),
on their way to the player's stack until the table's next hand break (`games.online.tournament.hand_break`
carries them in, once). Called by tournaments, never the reverse."""

from typing import Any

from config.errors import ConflictError
from games.engine import Game
from games.online import schedule
from games.online.models import ChangeKind, ChangeStatus, OnlineSeat, SeatChange, TableStatus
from games.online.services.common import _load, _lock
from games.online.tournament import ACTIVE, OPEN, _announce_change, _drop


def rebuy_place(*, event_id: int, player_id: int) -> dict[str, Any] | None:
    """Where the player sits online now at one of the event's tournament tables, with their stack between hands
    (a player out of chips is in no hand) and whether a re-buy's chips are on their way to them; None when they
    sit at none."""
    seat = (
        OnlineSeat.objects.filter(
            player_id=player_id,
            left=False,
            table__event_id=event_id,
            table__tournament_table__isnull=False,
            table__status__in=ACTIVE,
        )
        .select_related("table")
        .order_by("-table_id")
        .first()
    )
    if seat is None:
        return None
    table = seat.table
    stack = seat.stack if seat.stack is not None else table.buy_in
    if table.state and seat.engine_seat is not None:
        game = Game.from_json(table.state)
        stack = game.stacks[seat.engine_seat]
        if game.in_hand:
            stack += game.hand.contributions.get(seat.engine_seat, 0)
    pending = SeatChange.objects.filter(
        event_id=event_id, player_id=player_id, kind=ChangeKind.REBUY, status=ChangeStatus.ON_THE_WAY
    ).first()
    return {
        "table": table.pk,
        "tournament_table": table.tournament_table,
        "status": table.status,
        "stack": stack,
        "pending": pending.stack if pending else None,
    }


def rebuy_queue(
    *, actor: Any, event_id: int, player_id: int, table_id: int, amount: int, kind: str = ChangeKind.REBUY
) -> SeatChange:
    """A re-buy or an add-on booked by the tournament (the caller holds its lock): the chips join the player's
    stack at the table's next hand break (`hand_break`), once. A table waiting between hands deals again after
    the pause. A move of the player still waiting for a hand to end is dropped (a player out of chips does not
    move); chips already on their way must arrive first."""
    table = _lock(table_id)
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
        requested_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    # A new version, so every viewer's page shows the chips on their way (and the re-buy button goes).
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    if table.status == TableStatus.RUNNING and table.state and _load(table).between_hands:
        # The next hand waits for the version it was scheduled at (and a table stalled with one player holding
        # chips has none scheduled): schedule it again.
        schedule.deal_later(table)
    _announce_change(table)
    return change
