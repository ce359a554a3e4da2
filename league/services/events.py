"""Events of a season, the credit limits of an event and a season, and organisers' ledger adjustments."""

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q, Sum
from django.db.models.functions import Abs

from config.db import retry_on_conflict
from config.errors import ApplicationError, ConflictError
from config.events import publish
from config.inputs import Actor, signed_in, user_or_none
from league.models import (
    MAX_CREDITS,
    MAX_EVENT_CREDITS,
    MAX_SEASON_CREDITS,
    BuyInPolicy,
    ChipSet,
    Event,
    EventKind,
    EventStatus,
    LedgerEntry,
    LedgerKind,
    Membership,
    Season,
)
from league.providers import games
from league.services.common import audit, check_text, refuse_unknown_fields, save_audited
from league.services.locks import lock_event, lock_league

# What an organiser may set on an event, in the order the API lists them.
EVENT_FIELDS = ("name", "kind", "status", "starts_at", "chip_set", "buy_in_policy", "counts_for_standings")
BUY_KINDS = (LedgerKind.BUY_IN, LedgerKind.REBUY, LedgerKind.ADDON)


def _check_event_fields(fields: dict[str, Any]) -> None:
    """The fields an organiser sets on an event: known ones only, text and choices as the database stores them."""
    refuse_unknown_fields(fields, EVENT_FIELDS, "event")
    if "name" in fields:
        fields["name"] = check_text(fields["name"], "An event's name", field="name", max_length=120)
    if "kind" in fields and fields["kind"] not in EventKind.values:
        raise ApplicationError(
            f"An event's kind must be one of {', '.join(EventKind.values)}.", extra={"field": "kind"}
        )
    if "status" in fields and fields["status"] not in EventStatus.values:
        raise ApplicationError(
            f"An event's status must be one of {', '.join(EventStatus.values)}.", extra={"field": "status"}
        )


@retry_on_conflict
@transaction.atomic
def event_create(*, actor: Actor, season: Season, name: str, starts_at: datetime, **fields: Any) -> Event:
    fields["name"] = name
    _check_event_fields(fields)
    lock_league(season.league_id)
    event = Event.objects.create(season=season, starts_at=starts_at, **fields)
    audit(actor=actor, action="event.create", obj=event, league=season.league, data={"name": event.name})
    publish("event.created", {"event": event.pk, "league": season.league.slug})
    return event


@retry_on_conflict
@transaction.atomic
def event_update(*, actor: Actor, event: Event, **fields: Any) -> Event:
    from league.services.standings import standings_schedule, standings_touch

    _check_event_fields(fields)
    event = lock_event(event.pk)
    # An event run as a tournament follows it: its clock starts it, Complete (or a call-off) finishes it; setting
    # its status by hand otherwise is refused. Nor is an event finished while a table's game is not over.
    wanted = fields.get("status")
    if (
        wanted is not None
        and wanted != event.status
        and (refusal := games().status_refusal(event_id=event.pk, status=wanted))
    ):
        raise ConflictError(refusal.message, extra=refusal.extra, code=refusal.code)
    save_audited(actor=actor, obj=event, fields=fields, action="event.update", league=event.season.league)
    publish("event.updated", {"event": event.pk, "status": event.status})
    # Whether it counts (its status, counts_for_standings) changes the standings of its players only.
    standings_touch(event=event, player_ids=event.results.values_list("player_id", flat=True))
    standings_schedule(league_id=event.season.league_id)
    return event


def effective_buy_in_policy(event: Event) -> BuyInPolicy | None:
    return event.buy_in_policy or event.season.buy_in_policy or event.season.league.buy_in_policy


def effective_chip_set(event: Event) -> ChipSet | None:
    return event.chip_set or event.season.league.chip_set


def credits_moved(entries: Any) -> int:
    """Credits brought to the tables (buy-ins, re-buys, add-ons; net of reversals) plus adjustments either way."""
    totals = entries.aggregate(
        bought=Sum("amount", filter=Q(kind__in=BUY_KINDS)),
        adjusted=Sum(Abs("amount"), filter=Q(kind=LedgerKind.ADJUSTMENT)),
    )
    return (totals["bought"] or 0) + (totals["adjusted"] or 0)


def credit_limits_check(*, event: Event, adding: int) -> None:
    """Refuse credits that would take an event or a season past its limit (the sums stay far inside 64 bits)."""
    for scope, limit, entries in (
        ("event", MAX_EVENT_CREDITS, LedgerEntry.objects.filter(event_id=event.pk)),
        ("season", MAX_SEASON_CREDITS, LedgerEntry.objects.filter(event__season_id=event.season_id)),
    ):
        total = credits_moved(entries) + adding
        if total > limit:
            article = "an" if scope == "event" else "a"
            raise ApplicationError(
                f"This would bring the {scope}'s credits to {total:,}; {article} {scope} holds at most {limit:,} "
                "credits in all (buy-ins, re-buys, add-ons and adjustments).",
                extra={"field": "final_credits", "scope": scope, "limit": limit},
            )


def _check_amount(amount: Any, what: str) -> None:
    """A ledger line's amount: a non-zero whole number of credits, either way, within the credit limit."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0 or abs(amount) > MAX_CREDITS:
        raise ApplicationError(
            f"{what} a non-zero whole number of credits from -{MAX_CREDITS:,} to {MAX_CREDITS:,}; got {amount!r}.",
            extra={"field": "amount"},
        )


@retry_on_conflict
@transaction.atomic
def ledger_adjust(*, actor: Actor, event: Event, player: Any, amount: int, reason: str) -> LedgerEntry:
    """An organiser's manual correction of a player's credits at an event: needs a reason."""
    from league.services.standings import event_credits_refresh, standings_schedule

    reason = check_text(reason, "An adjustment's reason", field="reason", max_length=255)
    _check_amount(amount, "An adjustment's amount must be")
    if not signed_in(actor):
        raise ApplicationError("An adjustment needs an author: log in first.")
    event = lock_event(event.pk)
    league = event.season.league
    if not _bookable(event, player):
        from league.selectors import player_addable_list

        known = player_addable_list(user=actor).filter(pk=player.pk).exists()
        raise ApplicationError(
            f"{player if known else f'Player {player.pk}'} is not a member of {league}; adjust only the credits "
            "of this league's players.",
            extra={"field": "player"},
        )
    credit_limits_check(event=event, adding=abs(amount))
    entry = LedgerEntry.objects.create(
        event=event, player=player, kind=LedgerKind.ADJUSTMENT, amount=amount, reason=reason, author=actor
    )
    audit(actor=actor, action="ledger.adjust", obj=entry, league=league, data={"amount": amount, "reason": reason})
    event_credits_refresh(event=event)
    standings_schedule(league_id=league.pk)
    return entry


def _bookable(event: Event, player: Any) -> bool:
    """Only someone of the event's league, or who already has credits booked at this event, is booked or adjusted."""
    return (
        Membership.objects.filter(league=event.season.league, player=player).exists()
        or LedgerEntry.objects.filter(event=event, player=player).exists()
    )


BOOKABLE_KINDS = (LedgerKind.BUY_IN, LedgerKind.REBUY, LedgerKind.ADDON, LedgerKind.PAYOUT)


@retry_on_conflict
@transaction.atomic
def ledger_book(
    *, actor: Actor, event: Event, player: Any, kind: str, amount: int, reason: str = "", reversal: bool = False
) -> LedgerEntry:
    """Book a buy-in, re-buy, add-on or payout at an event for a higher app (tournaments), under the lock order.

    The league's checks in one place: the kind, a non-zero whole amount within the credit limits, a player of
    this league (or one already booked here). A payout is negative: it takes the prize off the table, so a
    settled event sums to zero. A refund is a reversal: a buy-in kind with a negative amount.
    """
    if kind not in BOOKABLE_KINDS:
        raise ApplicationError(
            f"Book one of {', '.join(BOOKABLE_KINDS)}; got {kind!r} (adjustments go through ledger_adjust).",
            extra={"field": "kind"},
        )
    _check_amount(amount, "A booking is")
    if kind == LedgerKind.PAYOUT and amount > 0:
        raise ApplicationError("A payout takes credits off the table: book it as a negative amount.")
    if kind != LedgerKind.PAYOUT and amount < 0 and not reversal:
        raise ApplicationError("A negative buy-in, re-buy or add-on is a refund: book it as a reversal.")
    event = lock_event(event.pk)
    league = event.season.league
    if not _bookable(event, player):
        raise ApplicationError(f"{player} is not a member of {league}.", extra={"field": "player"})
    if amount > 0:
        credit_limits_check(event=event, adding=amount)
    return LedgerEntry.objects.create(
        event=event,
        player=player,
        kind=kind,
        amount=amount,
        reason=reason[:255],
        author=user_or_none(actor),
        reversal=reversal,
    )
