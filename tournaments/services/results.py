"""The end of a tournament: the payout table, a deal at the final table, completion (payouts booked in the
league's ledger, places into the league's results and standings)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError
from config.inputs import Actor
from league import services as league_services
from league.models import EventStatus, LedgerKind
from league.services import SeatRow
from tournaments import payouts
from tournaments.errors import TournamentLogicError
from tournaments.models import Format, Registration, RegistrationStatus, Tournament, TournamentStatus
from tournaments.selectors import entry_count, payout_table
from tournaments.services.common import _audit, _check_manager, _lock

TEMPLATES = ("winner_takes_all", "top_3", "top_15_percent", "custom")
TEMPLATE_LABELS = {
    "winner_takes_all": "Winner takes all",
    "top_3": "Top 3 (50/30/20)",
    "top_15_percent": "Top 15%",
    "custom": "Custom table",
}


@retry_on_conflict
@transaction.atomic
def tournament_payouts_set(
    *, actor: Actor, tournament: Tournament, template: str, shares: list[int] | None = None
) -> Tournament:
    """Choose the payout template, or a custom table of shares in basis points (1st first, adding up to 10,000)."""
    if template not in TEMPLATES:
        raise ApplicationError(
            f"Unknown payout template {template!r}; choose one of {', '.join(TEMPLATES)}.",
            extra={"field": "payout_template"},
        )
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.completed_at is not None:
        raise ConflictError("The tournament is complete: its payouts are booked.")
    if template == "custom":
        try:
            payouts.check_shares(shares or [], max(len(shares or []), entry_count(tournament)))
        except TournamentLogicError as exc:
            raise ApplicationError(str(exc), extra={"field": "shares"}) from exc
    tournament.payout_template = template
    tournament.payout_shares = list(shares) if template == "custom" else None
    tournament.save(update_fields=["payout_template", "payout_shares"])
    _audit(
        actor=actor,
        tournament=tournament,
        action="tournament_payouts_set",
        data={"template": template, "shares": tournament.payout_shares},
    )
    return tournament


def shared_prizes(registrations: list[Registration], table: list[int]) -> dict[int, int]:
    """Prizes by place when places can be shared (Halcyon): players sharing a place split the prizes of the places
    they span, in whole credits, the odd credits one each in registration order; the sum is unchanged."""
    groups: dict[int, list[Registration]] = {}
    for registration in registrations:
        groups.setdefault(registration.place, []).append(registration)
    prizes: dict[int, int] = {}
    for place, group in groups.items():
        total = sum(table[place - 1 : place - 1 + len(group)])
        share, odd = divmod(total, len(group))
        for index, registration in enumerate(sorted(group, key=lambda item: item.pk)):
            prizes[registration.pk] = share + (1 if index < odd else 0)
    return prizes


def _still_in(tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, status=RegistrationStatus.REGISTERED)
        .select_related("player")
        .order_by("pk")
    )


def deal_preview(tournament: Tournament, *, method: str, stacks: dict[int, Any]) -> dict[str, Any]:
    """What a deal would pay each player still in (checked, nothing written): ICM or a chip-count chop."""
    if method not in ("icm", "chip_chop"):
        raise ApplicationError("Choose a deal: icm or chip_chop.", extra={"field": "method"})
    field = list(
        Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED).order_by("pk")
    )
    if len(field) < 2:
        raise ConflictError("A deal needs at least two players still in.")
    if len(field) > 9:
        raise ConflictError(f"A deal is made at the final table: {len(field)} players are still in (at most 9).")
    ids = [registration.player_id for registration in field]
    if set(stacks) != set(ids):
        raise ApplicationError(
            "Give the chip count of every player still in, and only theirs.", extra={"field": "stacks"}
        )
    counts = [stacks[player_id] for player_id in ids]
    prizes = payout_table(tournament)[: len(ids)]
    try:
        amounts = (payouts.icm_deal if method == "icm" else payouts.chip_chop)(counts, prizes)
    except TournamentLogicError as exc:
        raise ApplicationError(str(exc), extra={"field": "stacks"}) from exc
    return {
        "method": method,
        "stacks": {str(player_id): stack for player_id, stack in zip(ids, counts, strict=True)},
        "amounts": {str(player_id): amount for player_id, amount in zip(ids, amounts, strict=True)},
        "prizes_left": sum(prizes),
        "rounding": payouts.DEAL_ROUNDING_RULE,
    }


@retry_on_conflict
@transaction.atomic
def tournament_deal(*, actor: Actor, tournament: Tournament, method: str, stacks: dict[int, Any]) -> dict[str, Any]:
    """Record a deal at the final table: the prizes left shared by ICM or by chips; places follow the stacks."""
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.status != TournamentStatus.RUNNING:
        raise ConflictError("A deal is made while the tournament runs.")
    if tournament.deal:
        raise ConflictError("A deal is already recorded.")
    _still_in(tournament)  # lock the field
    deal = deal_preview(tournament, method=method, stacks=stacks)
    tournament.deal = deal
    tournament.save(update_fields=["deal"])
    _audit(actor=actor, tournament=tournament, action="tournament_deal", data=deal)
    return deal


@retry_on_conflict
@transaction.atomic
def tournament_complete(*, actor: Actor, tournament: Tournament) -> Tournament:
    """The tournament is over (one player left, or a deal): places, payouts booked, the event finished, points.

    Each prize is booked in the league's ledger as a payout (negative: it leaves the table), so the event's
    ledger sums to zero; the league then derives the event's results from the places and recomputes standings.
    """
    tournament = _lock(tournament)
    _check_manager(actor, tournament.event)
    if tournament.completed_at is not None:
        raise ConflictError("The tournament is already complete.")
    if tournament.status != TournamentStatus.RUNNING:
        raise ConflictError("Start the tournament before completing it.")
    field = _still_in(tournament)
    table = payout_table(tournament)
    prizes: dict[int, int] = {}
    if tournament.deal:
        amounts = {int(key): value for key, value in tournament.deal["amounts"].items()}
        stacks = {int(key): value for key, value in tournament.deal["stacks"].items()}
        # Places at a deal follow the chips (the larger stack places higher).
        for place, registration in enumerate(
            sorted(field, key=lambda item: (-stacks.get(item.player_id, 0), item.pk)), start=1
        ):
            registration.place = place
            prizes[registration.pk] = amounts.get(registration.player_id, 0)
    elif tournament.format == Format.HALCYON:
        if not field or any(registration.place is None for registration in field):
            raise ConflictError("Record every table's game, the final table's included, before completing.")
        pass  # prizes below, over every place (shared places split)
    elif len(field) == 1:
        field[0].place = 1
    else:
        raise ConflictError(
            f"{len(field)} players are still in: eliminate them down to a winner, or record a deal first."
        )
    for registration in field:
        registration.status = RegistrationStatus.ELIMINATED if registration.place != 1 else registration.status
    finished = list(
        Registration.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, place__isnull=False)
        .exclude(pk__in=[registration.pk for registration in field])
    )
    everyone = [*field, *finished]
    if tournament.format == Format.HALCYON:
        prizes = shared_prizes(everyone, table)
    for registration in everyone:
        if registration.pk not in prizes:
            prizes[registration.pk] = table[registration.place - 1] if registration.place <= len(table) else 0
        registration.prize = prizes[registration.pk]
        registration.table_number = registration.seat_number = None
    Registration.objects.bulk_update(everyone, ["place", "prize", "status", "table_number", "seat_number"])
    for registration in sorted(everyone, key=lambda item: item.place):
        if registration.prize:
            league_services.ledger_book(
                actor=actor,
                event=tournament.event,
                player=registration.player,
                kind=LedgerKind.PAYOUT,
                amount=-registration.prize,
                reason=f"prize for place {registration.place}",
            )
    tournament.status = TournamentStatus.FINISHED
    tournament.completed_at = timezone.now()
    tournament.save(update_fields=["status", "completed_at"])
    _audit(
        actor=actor,
        tournament=tournament,
        action="tournament_complete",
        data={"prizes": {str(r.player_id): r.prize for r in everyone if r.prize}},
    )
    league_services.event_update(actor=actor, event=tournament.event, status=EventStatus.FINISHED)
    league_services.event_results_rebuild(event=tournament.event, seats=place_rows(tournament))
    return tournament


def place_rows(tournament: Tournament) -> list[SeatRow]:
    """A completed tournament's places as the seat rows league derives the event's results from."""
    knockouts = dict(
        Registration.objects.filter(tournament=tournament, eliminated_by__isnull=False)
        .values("eliminated_by")
        .annotate(count=Count("pk"))
        .values_list("eliminated_by", "count")
    )
    return [
        {
            "player_id": registration.player_id,
            "round": 0,
            "place": registration.place,
            "buy_in": tournament.starting_stack,
            "rebuys": registration.rebuys,
            "knockouts": knockouts.get(registration.player_id, 0),
            "biggest_pot": 0,
        }
        for registration in Registration.objects.filter(tournament=tournament, place__isnull=False).order_by("place")
    ]
