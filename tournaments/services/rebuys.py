"""Re-buys, add-ons and re-entries within the late registration period, booked in the ledger; an online
table's player re-buys there themselves, and the chips reach their stack at the table's next hand break (at a
real-cards table, before its next deal)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError
from config.inputs import Actor, signed_in, whole_number
from league import services as league_services
from league.models import LedgerKind, Player
from tournaments.models import Format, Registration, RegistrationStatus, Tournament
from tournaments.selectors import registration_open as _registration_open
from tournaments.services.common import MAX_STACK, _audit, _book, _check_manager, _field_changed, _lock, _seated
from tournaments.services.seats import _seat_late


def rebuy_limit(tournament: Tournament) -> str:
    """The re-buy threshold in words, for refusals and pages."""
    if not tournament.rebuy_at_or_below:
        return "a re-buy is for a player out of chips"
    return f"a re-buy is allowed at or below {tournament.rebuy_at_or_below:,} chips"


@retry_on_conflict
@transaction.atomic
def tournament_rebuy(
    *,
    actor: Actor,
    tournament: Tournament,
    player: Player,
    kind: str,
    stack: int | None = None,
    now: datetime | None = None,
) -> Registration:
    """A re-buy, an add-on or a re-entry, within the late registration period, booked in the ledger.

    Re-buys and add-ons follow the event's buy-in policy (allowed, how many, how much); a re-entry brings a fresh
    starting stack to an eliminated player of a re-entry tournament. A re-buy is for a player whose stack is at
    or below the tournament's threshold (`rebuy_at_or_below`, 0: out of chips): an online table knows the stack;
    at a physical table the organiser gives it (`stack`, the chips counted there now; not needed when the
    threshold is 0, where booking the re-buy says the player is out); an eliminated player has none.
    """
    if kind not in ("rebuy", "addon", "reentry"):
        raise ApplicationError("Choose rebuy, addon or reentry.", extra={"field": "kind"})
    from games.online import selectors as online_selectors
    from games.online import services as online_services
    from games.tabletop import tournament as realcards_tables

    now = now or timezone.now()
    tournament = _lock(tournament)
    # At an online table a player out of chips re-buys there themselves; elsewhere the organiser books it.
    place = online_selectors.rebuy_place(event_id=tournament.event_id, player_id=player.pk)
    # At a real-cards table in play the chips join the player's stack there at its next deal, as online.
    real = (
        None
        if place is not None
        else realcards_tables.realcards_place(event_id=tournament.event_id, player_id=player.pk)
    )
    seat = place or real  # where the player sits at a table the site keeps the chips of, if they do
    own = kind == "rebuy" and signed_in(actor) and player.user_id == actor.pk
    if not (own and seat is not None):
        _check_manager(actor, tournament.event)
    if not _registration_open(tournament, now):
        raise ConflictError("The re-buy period is over (it ends with late registration).")
    registration = _seated(tournament, player)
    policy = league_services.effective_buy_in_policy(tournament.event)
    if kind == "rebuy" and seat is not None and seat["pending"] is not None:
        return registration  # asked twice (a double submit): the first re-buy's chips are on their way
    chips = 0  # a re-buy's or an add-on's chips, for the player's online table (a re-entry sits down afresh)
    if kind == "reentry":
        if tournament.format != Format.REENTRY:
            raise ApplicationError("Only a re-entry tournament takes re-entries.", extra={"field": "kind"})
        if registration.status != RegistrationStatus.ELIMINATED:
            raise ConflictError(f"{player} is still in: only an eliminated player re-enters.")
        registration.entries += 1
        registration.status = RegistrationStatus.REGISTERED
        registration.place = None
        registration.eliminated_by = None
        _book(tournament, player, LedgerKind.BUY_IN, tournament.starting_stack, actor, "re-entry")
    elif kind == "rebuy":
        if tournament.format != Format.REBUY or policy is None or not policy.rebuys_allowed or not policy.rebuy_amount:
            raise ApplicationError("Re-buys need a re-buy tournament whose buy-in policy allows them with an amount.")
        if policy.max_rebuys and registration.rebuys >= policy.max_rebuys:
            raise ConflictError(f"{player} has had the {policy.max_rebuys} re-buys allowed.")
        _check_rebuy_stack(tournament, registration, player, seat, stack)
        registration.rebuys += 1
        registration.status = RegistrationStatus.REGISTERED
        registration.place = None
        _book(tournament, player, LedgerKind.REBUY, policy.rebuy_amount, actor)
        chips = policy.rebuy_amount
    else:
        if policy is None or not policy.addon_allowed or not policy.addon_amount:
            raise ApplicationError("The event's buy-in policy allows no add-on.")
        if registration.addons:
            raise ConflictError(f"{player} has had their add-on.")
        if registration.status != RegistrationStatus.REGISTERED:
            raise ConflictError(f"{player} is out: an add-on is for players still in.")
        registration.addons += 1
        _book(tournament, player, LedgerKind.ADDON, policy.addon_amount, actor)
        chips = policy.addon_amount
    if chips and place is not None:  # the chips join the player's stack at the table's next hand break, once
        online_services.rebuy_queue(
            actor=actor,
            event_id=tournament.event_id,
            player_id=player.pk,
            table_id=place["table"],
            amount=chips,
            kind=kind,
        )
    if chips and real is not None:  # the chips join the player's stack at the real-cards table's next deal, once
        realcards_tables.realtable_chips_queue(
            actor=actor, event_id=tournament.event_id, player_id=player.pk, amount=chips, kind=kind
        )
    if registration.table_number is None:
        _seat_late(tournament, registration)
    registration.save()
    _field_changed(tournament)
    _audit(actor=actor, tournament=tournament, action=f"tournament_{kind}", obj=registration)
    return registration


def _check_rebuy_stack(
    tournament: Tournament, registration: Registration, player: Player, place: dict | None, stack: Any
) -> None:
    """A re-buy only at or below the tournament's threshold, the same rule at online and physical tables."""
    limit = tournament.rebuy_at_or_below
    if place is not None:
        held, where = place["stack"], place.get("where") or f"online table {place['tournament_table']}"
    elif registration.status == RegistrationStatus.ELIMINATED:
        held, where = 0, ""
    elif stack is None and not limit:
        held, where = 0, ""  # re-buys only when out of chips: booking one says the player is out, as before
    elif stack is None:
        table = f"table {registration.table_number}" if registration.table_number else "their table"
        raise ApplicationError(
            f"Give {player}'s chip count at {table} now (they play at a physical table): {rebuy_limit(tournament)}.",
            extra={"field": "stack"},
        )
    else:
        held = whole_number(stack, "The chip count", field="stack", minimum=0, maximum=MAX_STACK)
        where = f"table {registration.table_number}" if registration.table_number else "their table"
    if held > limit:
        raise ConflictError(f"{player} still has {held:,} chips at {where}: {rebuy_limit(tournament)}.")
