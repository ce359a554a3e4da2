"""Who may do what at a real-cards table: plain predicates asked by the pages and the API alike.

The host runs the table and may act for any seat (a phone that is gone never holds the table up). A player acts
for their own seat; the hand's dealer deals, rolls (or the variant's roller), turns over tie-break cards and may
enter every hand shown at the reveal; a player may enter their own hand."""

import secrets

from config.errors import ForbiddenError
from config.inputs import Actor, signed_in
from games.tabletop.models import RealSeat, RealTable


class NotAllowed(ForbiddenError):
    """The user may not do this at this table (403); the message says who may."""


def is_host(actor: Actor, table: RealTable) -> bool:
    return signed_in(actor) and actor.pk == table.host_id


def seat_of(table: RealTable, actor: Actor, guest: str = "") -> RealSeat | None:
    """The viewer's own seat: by their account, or by the guest secret kept in their session."""
    seats = list(table.seats.all())
    if signed_in(actor):
        for seat in seats:
            if seat.user_id == actor.pk:
                return seat
    if guest:
        for seat in seats:
            if seat.guest_token and secrets.compare_digest(seat.guest_token.encode(), str(guest).encode()):
                return seat
    return None


def step_owner(due: dict, step: dict, dealer: int | None) -> set[int]:
    """The seats whose player may take `step` now (the host may always): empty when only the host may."""
    kind = step.get("step") if isinstance(step, dict) else None
    seat = step.get("seat") if isinstance(step, dict) else None
    if kind == "act" and isinstance(seat, int):
        return {seat}
    if kind == "deal" and due.get("due") == "deal":
        return {due["dealer"]}
    if kind == "dice" and due.get("due") == "dice":
        return {due["roller"]}
    if kind == "reveal":
        return {s for s in (seat, dealer) if isinstance(s, int)}
    if kind in ("card", "winners") and dealer is not None:
        owners = {dealer}
        if kind == "card" and isinstance(due.get("seat"), int):
            owners.add(due["seat"])
        return owners
    return set()


def check_step(*, host: bool, mine: RealSeat | None, due: dict, step: dict, dealer: int | None) -> None:
    """Raise `NotAllowed` unless this viewer may take `step` now."""
    if host:
        return
    if mine is None:
        raise NotAllowed("Only the players seated at this table (and its host) may enter steps; join it first.")
    owners = step_owner(due, step, dealer)
    if mine.number not in owners:
        if not owners:
            raise NotAllowed("Only the host may take this step.")
        raise NotAllowed(
            f"This step is for seat {', '.join(str(n + 1) for n in sorted(owners))} (or the host), "
            f"not for your seat {mine.number + 1}."
        )
