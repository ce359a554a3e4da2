"""Recording a game played at a physical table, correcting one, and checking one without writing.

Everything is checked before anything is written; a refusal names what is wrong and what is allowed,
and leaves the database as it was.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Required, TypedDict, Unpack

from django.db import transaction
from django.utils import timezone

from config.db import retry_on_conflict
from config.errors import ApplicationError
from config.events import publish
from config.inputs import Actor, user_or_none, whole_number
from games.models import Game, GameSource, GameStatus, ResultCorrection, Seat, Table
from games.selectors import event_result_rows, unfinished_tables
from games.services.checks import (
    SeatInput,
    _apply_hands,
    _apply_replay,
    _check_game,
    _parse_seats,
)
from league.models import (
    MAX_COUNT,
    Event,
    EventKind,
    EventStatus,
    LedgerEntry,
    LedgerKind,
)
from league.services import (
    audit,
    credit_limits_check,
    event_results_rebuild,
    lock_event,
    resolve_game_rules,
    standings_rules_check,
    standings_schedule,
)
from league.services.common import check_text

# A seat's result as recorded: what the Seat row stores beside its player and number, and what the audit row
# keeps of each seat (a correction's before and after).
SEAT_RESULT_FIELDS = ("buy_in", "rebuys", "rebuy_credits", "addon_credits", "final_credits", "place", "knockouts")


def _seats_create(game: Game, parsed: list[SeatInput]) -> None:
    """One Seat row per player of a recorded (or corrected) result."""
    Seat.objects.bulk_create(
        Seat(
            game=game,
            player=s.player,
            number=s.number,
            biggest_pot=s.biggest_pot,
            **{name: getattr(s, name) for name in SEAT_RESULT_FIELDS},
        )
        for s in parsed
    )


def _write_ledger(game: Game, seats: list[SeatInput], *, actor: Actor, sign: int = 1, correction=None) -> None:
    entries = []

    def add(seat: SeatInput, kind: str, amount: int, hand: int | None = None) -> None:
        if amount:
            entries.append(
                LedgerEntry(
                    event_id=game.event_id,
                    game=game,
                    player=seat.player,
                    kind=kind,
                    amount=sign * amount,
                    hand=hand,
                    author=user_or_none(actor),
                    correction=correction,
                    reason="correction" if correction else "",
                )
            )

    for seat in seats:
        add(seat, LedgerKind.BUY_IN, seat.buy_in)
        add(seat, LedgerKind.REBUY, seat.rebuy_credits)
        add(seat, LedgerKind.ADDON, seat.addon_credits)
        if seat.hand_deltas:
            for number, delta in enumerate(seat.hand_deltas, start=1):
                add(seat, LedgerKind.HAND_WON if delta > 0 else LedgerKind.HAND_LOST, delta, hand=number)
        else:
            delta = seat.final_credits - seat.credits_in
            add(seat, LedgerKind.HAND_WON if delta > 0 else LedgerKind.HAND_LOST, delta)
        add(seat, LedgerKind.PAYOUT, -seat.final_credits)
    LedgerEntry.objects.bulk_create(entries)


def _seat_summary(seat: Seat | SeatInput) -> dict[str, Any]:
    return {"player": seat.player.pk, **{name: getattr(seat, name) for name in SEAT_RESULT_FIELDS}}


def _after_change(game: Game, event: Event, action: str) -> None:
    event_results_rebuild(event=event, seats=event_result_rows(event.pk))
    standings_schedule(league_id=event.season.league_id)
    publish(action, {"game": game.pk, "event": event.pk, "league": event.season.league.slug})


@dataclass
class PreparedResult:
    """A manual result checked and worked out, not written: what `result_record` stores."""

    seats: list[SeatInput]
    variant: str
    preset: str
    options: dict[str, Any]
    history: list[dict[str, int]] | None
    replay_result: dict[str, Any] | None

    @property
    def credits_in(self) -> int:
        return sum(s.credits_in for s in self.seats)

    def summary(self) -> dict[str, Any]:
        """Plain values for a preview: each seat's result, the credits in and out, and the rules."""
        return {
            "seats": [_seat_summary(s) for s in self.seats],
            "credits_in": self.credits_in,
            "credits_out": sum(s.final_credits for s in self.seats),
            "variant": self.variant,
            "preset": self.preset,
            "options": self.options,
            "hands": self.history,
        }


class ResultInput(TypedDict, total=False):
    """What a manual result is given as: `result_check` and `result_record` take the same."""

    seats: Required[list[dict[str, Any]]]
    hands: list[dict[str, Any]] | None
    replay: dict[str, Any] | None
    variant: str | None
    preset: str | None
    option_overrides: dict[str, Any] | None
    table: Table | None


def _prepare_result(
    *,
    actor: Actor,
    event: Event,
    seats: list[dict[str, Any]],
    hands: list[dict[str, Any]] | None = None,
    replay: dict[str, Any] | None = None,
    variant: str | None = None,
    preset: str | None = None,
    option_overrides: dict[str, Any] | None = None,
    table: Table | None = None,
) -> PreparedResult:
    """Every check of a manual result, in order, before anything is written."""
    if hands is not None and replay is not None:
        raise ApplicationError("Give hand-by-hand results or a replay, not both.")
    if table is not None and table.event_id != event.pk:
        raise ApplicationError(
            "That table belongs to another event; pick one of this event's tables.", extra={"field": "table"}
        )
    season, league = event.season, event.season.league
    # A result the standings could not score (settings saved before they were checked) is refused now.
    standings_rules_check(league, season)
    parsed = _parse_seats(event, seats, actor=actor)
    history = None
    replay_result = None
    if replay is not None:
        replay_result, history = _apply_replay(parsed, replay)
        variant, preset = replay.get("variant"), replay.get("preset")
        option_overrides = replay.get("options") or {}
    elif hands is not None:
        history = _apply_hands(parsed, hands)
    unpaid = 0
    if replay_result is not None and "sabacc_pot" in replay_result:
        # Corellian Spike: what the Sabacc pot and the carry-over hold at the end belongs to nobody.
        unpaid = replay_result["sabacc_pot"] + replay_result["carry_over"]
    _check_game(parsed, unpaid=unpaid)
    variant = variant or season.variant or league.variant
    preset = preset or season.preset or league.preset
    if option_overrides is None:
        option_overrides = {**league.option_overrides, **season.option_overrides}
    options = resolve_game_rules(variant=variant, preset=preset, overrides=option_overrides)
    prepared = PreparedResult(parsed, variant, preset, options, history, replay_result)
    credit_limits_check(event=event, adding=prepared.credits_in)
    return prepared


def result_check(
    *, actor: Actor, event: Event, round: int = 1, played_at: datetime | None = None, **result: Unpack[ResultInput]
) -> dict[str, Any]:
    """Check a result as `result_record` would, writing nothing: a preview before saving.

    Takes the same arguments; raises the same `ApplicationError`s; returns `PreparedResult.summary()`
    (seats with their places and final credits, credits in and out, the rules, hand stacks).
    """
    whole_number(round, "The round", minimum=1, maximum=MAX_COUNT, field="round")
    event = Event.objects.select_related("season__league").get(pk=event.pk)
    return _prepare_result(actor=actor, event=event, **result).summary()


@retry_on_conflict
@transaction.atomic
def result_record(
    *, actor: Actor, event: Event, round: int = 1, played_at: datetime | None = None, **result: Unpack[ResultInput]
) -> Game:
    """Record a game played at a physical table: seats with buy-ins, re-buys and final credits or places,
    optionally hand by hand or as a replay the engine checks. Nothing is saved if anything is wrong."""
    round = whole_number(round, "The round", minimum=1, maximum=MAX_COUNT, field="round")
    event = lock_event(event.pk)  # league, then event: the app's lock order
    prepared = _prepare_result(actor=actor, event=event, **result)
    parsed, league = prepared.seats, event.season.league
    table, replay = result.get("table"), result.get("replay")
    game = Game.objects.create(
        event=event,
        table=table,
        round=round,
        status=GameStatus.FINISHED,
        source=GameSource.MANUAL,
        variant=prepared.variant,
        preset=prepared.preset,
        options=prepared.options,
        replay_document=replay,
        replay_result=prepared.replay_result,
        hands=prepared.history,
        played_at=played_at or timezone.now(),
        recorded_by=user_or_none(actor),
    )
    _seats_create(game, parsed)
    _write_ledger(game, parsed, actor=actor)
    # A single game is over once its result is in; a tournament is under way once a table has finished.
    # A table of the event still playing keeps a single game open: its result lands when it ends, then it finishes.
    done = event.kind == EventKind.GAME and not unfinished_tables(event.pk)
    status = EventStatus.FINISHED if done else EventStatus.RUNNING
    if event.status != EventStatus.FINISHED and event.status != status:
        Event.objects.filter(pk=event.pk).update(status=status)
        event.status = status
    audit(
        actor=actor,
        action="result.record",
        obj=game,
        league=league,
        data={
            "seats": [_seat_summary(s) for s in parsed],
            "replay": replay is not None,
            "hands": result.get("hands") is not None,
        },
    )
    _after_change(game, event, "game.result_recorded")
    return game


@retry_on_conflict
@transaction.atomic
def result_correct(*, actor: Actor, game: Game, reason: str, seats: list[dict[str, Any]]) -> ResultCorrection:
    """Replace a recorded result: the old ledger lines are reversed by new ones, never edited,
    and the before/after is kept with the author and reason."""
    if isinstance(reason, str) and not reason.strip():
        raise ApplicationError(
            "A correction needs a reason, e.g. 'Han's final count was 400, not 450'.", extra={"field": "reason"}
        )
    reason = check_text(reason, "A correction's reason", field="reason", max_length=255)
    # The app's lock order: league, event, then the game and its seats.
    event = lock_event(Game.objects.values_list("event_id", flat=True).get(pk=game.pk))
    game = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
    game.event = event
    if game.status != GameStatus.FINISHED:
        raise ApplicationError("Only a finished game's result can be corrected.")
    if game.replay_document is not None:
        raise ApplicationError(
            "This result comes from a replay the engine checked; it cannot be overridden by hand. Record the "
            "game again from a corrected replay instead."
        )
    old_seats = list(Seat.objects.select_for_update(of=("self",)).filter(game=game).select_related("player"))
    standings_rules_check(event.season.league, event.season)
    parsed = _parse_seats(event, seats, actor=actor)
    _check_game(parsed)
    added = sum(s.credits_in for s in parsed) - sum(s.credits_in for s in old_seats)
    credit_limits_check(event=event, adding=max(added, 0))
    before = [_seat_summary(s) for s in old_seats]
    after = [_seat_summary(s) for s in parsed]
    if sorted(before, key=lambda s: s["player"]) == sorted(after, key=lambda s: s["player"]):
        raise ApplicationError("The correction changes nothing; send the result as it should be.")
    correction = ResultCorrection.objects.create(
        game=game,
        author=user_or_none(actor),
        reason=reason,
        before=before,
        after=after,
    )
    # Reverse what the ledger holds for this game per player and kind, then book the new result. Each player's
    # reversals put chips back on the table before taking them off (a payout before the buy-in), so the stack after
    # each line is one the player held.
    reversal: dict[tuple[int, str], int] = {}
    for player_id, kind, amount in LedgerEntry.objects.filter(game=game).values_list("player_id", "kind", "amount"):
        reversal[(player_id, kind)] = reversal.get((player_id, kind), 0) + amount
    author = user_or_none(actor)
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            event=event,
            game=game,
            player_id=player_id,
            kind=kind,
            amount=-amount,
            author=author,
            correction=correction,
            reason=f"reversed by correction {correction.pk}",
            reversal=True,
        )
        for (player_id, kind), amount in sorted(reversal.items(), key=lambda item: (item[0][0], item[1]))
        if amount
    )
    _write_ledger(game, parsed, actor=actor, correction=correction)
    Seat.objects.filter(game=game).delete()
    _seats_create(game, parsed)
    Game.objects.filter(pk=game.pk).update(hands=None)
    audit(
        actor=actor,
        action="result.correct",
        obj=game,
        league=event.season.league,
        data={"reason": reason, "before": before, "after": after, "correction": correction.pk},
    )
    _after_change(game, event, "game.result_corrected")
    return correction
