"""Handing a seat over to a phone: a seat nobody holds (one the host added for a friend without a phone yet, or a
player who joined a cash table between hands) gets a one-time link; whoever opens it takes the seat (docs/tabletop.md,
"Handing a seat over").

The link's secret (`RealSeat.handover`) is random and unguessable, shown to the host only, replaced by a new one on
request and cleared when the seat is taken: the link then stops working. At a league (or tournament) table the seat
is a league player's: only a signed-in user who is that player takes it."""

import secrets

from django.db import transaction
from django.utils import timezone

from config.errors import ApplicationError, ConflictError
from config.inputs import Actor, signed_in
from games.tabletop.models import RealSeat, RealTable, RealTableStatus
from games.tabletop.permissions import NotAllowed, is_host, seat_of
from games.tabletop.services import _bump, _lock, handover_secret, seat_holder
from league.selectors import user_player_id
from league.services import audit

USED = (
    "This hand-over link does not work (any more): the seat was taken, or the host made a new link. Ask the host "
    "to show you the seat's link again."
)


def is_held(seat: RealSeat) -> bool:
    """Someone's phone holds the seat already: an account or a guest's secret."""
    return seat.user_id is not None or bool(seat.guest_token)


def seat_by_secret(table: RealTable, secret: object) -> RealSeat | None:
    """The seat whose hand-over link has this secret (a seat still nobody holds), or None."""
    text = str(secret or "")
    if not text or len(text) > 64:
        return None
    for seat in table.seats.all():
        if seat.handover and not is_held(seat) and secrets.compare_digest(seat.handover.encode(), text.encode()):
            return seat
    return None


@transaction.atomic
def realseat_handover(*, actor: Actor, table: RealTable, number: object) -> RealSeat:
    """The host makes a new hand-over link for a seat nobody holds (the old link stops working)."""
    table = _lock(table, light=True)
    if not is_host(actor, table):
        raise NotAllowed("Only the table's host hands a seat over to a phone.")
    if table.status == RealTableStatus.FINISHED:
        raise ConflictError("The game is over: its seats are no longer handed over.")
    seats = list(table.seats.order_by("number"))
    whole = type(number) is int  # a bool or text names no seat (the API's serializer gives an int)
    seat = next((s for s in seats if whole and s.number == number), None)
    if seat is None:
        shown = number + 1 if whole else number
        raise ApplicationError(f"There is no seat {shown!r}; the seats are 1 to {len(seats)}.", extra={"field": "seat"})
    if is_held(seat):
        raise ConflictError(f"{seat.name}'s seat is held by their phone already: it is not handed over.")
    seat.handover = handover_secret()
    seat.save(update_fields=["handover"])
    _bump(table, "seats")
    return seat


def _check_may_take(table: RealTable, seat: RealSeat, actor: Actor) -> None:
    """A league (or tournament) table's seat is a league player's: only that player, signed in, takes it."""
    if table.event_id is None:
        return
    if not signed_in(actor):
        raise NotAllowed(
            f"This seat is {seat.name}'s, a league player's: sign in as {seat.name} to take it (guests do not sit at "
            "a league table)."
        )
    if seat.player_id is None or user_player_id(actor) != seat.player_id:
        raise NotAllowed(
            f"This seat is {seat.name}'s, a league player's: only {seat.name}, signed in with their own account, "
            "takes it (or the host seats them)."
        )


@transaction.atomic
def realseat_claim(*, actor: Actor, guest: str = "", table: RealTable, secret: object) -> RealSeat:
    """Take the seat of a hand-over link: a signed-in user by their account, anyone else at a casual table as a guest
    by the seat's name (the guest's secret is theirs to keep in their session). The link then stops working; the
    claim is in the table's log of changes."""
    table = _lock(table)
    if table.status == RealTableStatus.FINISHED:
        raise ConflictError("The game is over: its seats are no longer handed over.")
    seat = seat_by_secret(table, secret)
    if seat is None:
        raise ApplicationError(USED, code="handover_used")
    mine = seat_of(table, actor, guest)
    if mine is not None:
        raise ConflictError(f"You already sit at this table, as {mine.name}: one seat per phone.")
    _check_may_take(table, seat, actor)
    is_user = signed_in(actor)
    holder = seat_holder(actor)
    seat.user, seat.guest_token = holder["user"], holder["guest_token"]
    seat.handover = ""
    seat.save(update_fields=["user", "guest_token", "handover"])
    by = actor.get_username() if is_user else f"{seat.name} (a guest's phone)"
    change = {
        "claimed": {"seat": seat.number, "name": seat.name},
        "by": by,
        "at": timezone.now().isoformat(),
        "version": table.version + 1,
    }
    _bump(table, "claimed", changes=[*table.changes, change])
    audit(
        actor=actor,
        action="real_table.claim",
        obj=table,
        league=table.event.season.league if table.event_id is not None else None,
        data={"seat": seat.number, "guest": not is_user},
    )
    return seat
