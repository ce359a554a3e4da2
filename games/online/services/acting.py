"""A decision at the table: a player's own (`table_act`: checked as input, made against the table's current
version, idempotent by its key), the clock's for a player whose time ran out (`turn_timeout`) and a bot's
(`bot_act`); each applied through the engine and logged (`_apply`), then what follows it (`turns.changed`, with
`moves.hand_ended` when it ends a tournament table's hand). The tasks call the last two with ids; each is safe to
run twice or late."""

import hashlib
import json
import random
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.errors import ApplicationError, ConflictError
from config.inputs import Actor, whole_number_from
from games.engine import EngineError, Game
from games.engine.bots import BOTS, Decision, apply_decision
from games.engine.classic.hand import PLAY_VERBS
from games.online.models import ActionSource, OnlineAction, OnlineSeat, OnlineTable, SeatKind, TableStatus
from games.online.permissions import seat_filter
from games.online.selectors import table_state
from games.online.services.base import engine_seats, load_game, lock_table, lock_table_if_any
from games.online.services.clock import default_decision, turn_key
from games.online.services.moves import hand_ended
from games.online.services.presence import pause_when_nobody_is_there
from games.online.services.turns import changed, hand_and_phase, log_action
from league.models import MAX_CREDITS

# Every variant's verbs: Coruscant Shift's, then Corellian Spike's card verbs (the engine refuses a verb
# of another variant, saying which verbs it has).
VERBS = ("select", "check", "call", "bet", "raise", "fold", "allin", "stand", "draw", "trade", "buy", "spike")
CLASSIC_VERBS = ("draw", "trade", "stand", "check", "call", "bet", "raise", "fold", "allin")
MAX_KEY_LENGTH = 80


def _decision(
    verb: Any,
    cards: Any,
    amount: Any,
    card: Any = None,
    source: Any = None,
    *,
    classic: dict | None = None,
) -> Decision:
    """`classic`: Classic Sabacc's extra fields (`unlock`, `lock`, `call_hand`), given only at a classic table."""
    if classic is not None:
        return _classic_decision(verb, amount, card, **classic)
    _known(verb, VERBS)
    if verb == "select":
        if not isinstance(cards, list | tuple) or not all(isinstance(c, str) for c in cards) or len(cards) > 10:
            raise ApplicationError(
                "Select needs `cards`, a list of the card codes you choose from your hand (it may be empty).",
                extra={"field": "cards"},
            )
        return Decision("select", cards=tuple(cards))
    if verb in ("bet", "raise"):
        return Decision(verb, amount=_amount(verb, amount))
    _short_texts("a short text such as +7c or pilot", card=card, source=source)
    if verb in ("trade", "spike") and card is None:
        raise ApplicationError(
            f"{verb.capitalize()} needs `card`, the card of your hand you give.", extra={"field": "card"}
        )
    if verb in ("trade", "buy") and source is None:
        raise ApplicationError(
            f"{verb.capitalize()} needs `source`: deck, pilot, wing, gunner or discard.", extra={"field": "source"}
        )
    return Decision(verb, card=card, source=source)


def _known(verb: Any, verbs: tuple[str, ...]) -> None:
    if verb not in verbs:
        raise ApplicationError(
            f"Unknown action {verb!r}; the actions are: {', '.join(verbs)}.", extra={"field": "verb"}
        )


def _short_texts(what: str, **values: Any) -> None:
    """Each of `values` that is given is a text of at most 10 characters (`what` says what it looks like)."""
    for name, value in values.items():
        if value is not None and (not isinstance(value, str) or len(value) > 10):
            raise ApplicationError(f"`{name}` is {what}.", extra={"field": name})


def _amount(verb: str, amount: Any) -> int:
    """A bet's or a raise's `amount`: a whole number of credits; missing, it is asked for by name."""
    what = "A bet" if verb == "bet" else "A raise (your new total for the round)"
    if amount is None:
        raise ApplicationError(
            f"{verb.capitalize()} needs `amount`: {what[0].lower() + what[1:]} in credits, a whole number from 1 to "
            f"{MAX_CREDITS:,}.",
            extra={"field": "amount"},
        )
    return whole_number_from(amount, what, 1, MAX_CREDITS, field="amount")


def _classic_decision(verb: Any, amount: Any, card: Any, unlock: Any, lock: Any, call_hand: Any) -> Decision:
    """A Classic Sabacc decision: a play turn (draw, trade with `card`, stand; each with an optional `unlock`
    and `lock`) or a betting action that may call the hand."""
    _known(verb, CLASSIC_VERBS)
    _short_texts("a card code such as +7s or -17", card=card, unlock=unlock, lock=lock)
    if call_hand not in (None, False, True):
        raise ApplicationError("`call_hand` is true or false.", extra={"field": "call_hand"})
    if verb in ("draw", "trade", "stand"):
        if verb == "trade" and card is None:
            raise ApplicationError("Trade needs `card`, the card of your hand you give up.", extra={"field": "card"})
        return Decision(verb, card=card, unlock=unlock, lock=lock)
    if verb in ("bet", "raise"):
        return Decision(verb, amount=_amount(verb, amount), call_hand=bool(call_hand))
    return Decision(verb, call_hand=bool(call_hand))


def _check_play_is_seen(game: Game, seat: int, decision: Decision) -> None:
    """A Classic play turn checked from what the player sees (`verify_play(seen_only=True)`): a named lock is a
    card they keep after the unlock and the trade, never the card the play takes (that is `taken`). The engine
    alone accepts the taken card's code too (replays name it), so its answer would tell whether a card is the
    top of the pile: `trade card=X lock=X` would pass exactly when X's twin is on top."""
    if decision.verb not in PLAY_VERBS:
        return
    args = decision.args(game.variant.verb_args[decision.verb])  # as `apply_decision` passes them (a stand no card)
    try:
        game.hand.verify_play(seat, decision.verb, **args, seen_only=True)
    except EngineError as exc:
        raise ApplicationError(str(exc), code="illegal_action") from None


def _request_digest(**fields: Any) -> str:
    """The decision as asked, in one canonical form (a missing list or flag is the empty one), hashed: equal for a
    resubmission of the same decision, different for another one under the same key."""
    fields["cards"] = fields["cards"] or []
    fields["call_hand"] = bool(fields["call_hand"])
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _apply(
    table: OnlineTable,
    game: Game,
    seat: OnlineSeat,
    decision: Decision,
    *,
    source: str,
    key: str,
    actor: Actor | None = None,
    request: str = "",
) -> dict:
    """Apply one decision through the engine, log it, save, and schedule what follows."""
    before = turn_key(game)
    hand_number, phase = hand_and_phase(game, seat)
    try:
        apply_decision(game, seat.engine_seat, decision)
    except EngineError as exc:
        raise ApplicationError(str(exc), code="illegal_action") from exc
    response = log_action(
        table,
        seat,
        decision,
        source=source,
        key=key,
        hand=hand_number,
        phase=phase,
        version=table.version + 1,  # the version `changed` gives the table next
        actor=actor,
        request=request,
    )
    changed(table, game, before, hand_ended=hand_ended)
    return response


def _check_version(table: OnlineTable, version: Any, actor: Actor) -> None:
    if isinstance(version, bool) or not isinstance(version, int):
        raise ApplicationError(
            f"Every action carries `version`, the table version it was made against (a whole number); got {version!r}.",
            extra={"field": "version"},
        )
    if not table.turn_version <= version <= table.version:
        raise ConflictError(
            f"The table has moved on (version {table.version}; your action was made against {version}); nothing was "
            "done. Here is the table as it is now.",
            code="stale",
            extra={"version": table.version, "state": table_state(table, user=actor)},
        )


@transaction.atomic
def table_act(
    *,
    actor: Actor,
    table: OnlineTable,
    verb: str,
    version: int,
    key: str,
    cards: list[str] | None = None,
    amount: int | None = None,
    card: str | None = None,
    source: str | None = None,
    unlock: str | None = None,
    lock: str | None = None,
    call_hand: bool | None = None,
) -> dict:
    """A player's decision (`card` and `source` for Corellian Spike's card turns and spikes; `card`, `unlock`,
    `lock` and `call_hand` for Classic Sabacc's play turns and calls). `key` makes it
    idempotent (a repeat returns the first answer and acts once; the key sent with another decision is refused);
    `version` is the table version it was made against (a stale one is refused with 409)."""
    if not isinstance(key, str) or not 1 <= len(key) <= MAX_KEY_LENGTH:
        raise ApplicationError(
            f"Every action carries `key`, an idempotency key of 1 to {MAX_KEY_LENGTH} characters; got {key!r}.",
            extra={"field": "key"},
        )
    table = lock_table(table)
    seat = table.seats.filter(seat_filter(actor), left=False).first()  # a league player's or a casual account's
    if seat is None:
        raise ApplicationError("You have no seat at this table; only seated players act.", code="not_seated")
    key = f"p{seat.pk}:{key}"
    request = _request_digest(
        verb=verb, cards=cards, amount=amount, card=card, source=source, unlock=unlock, lock=lock, call_hand=call_hand
    )
    first = OnlineAction.objects.filter(table=table, key=key).first()
    if first is not None:
        if first.request and first.request != request:
            raise ConflictError(
                f"The key {key.split(':', 1)[1]!r} was already used for a different action (your {first.verb}, "
                f"applied as version {first.version}); nothing was done. Send a new action with a new key.",
                code="key_reused",
            )
        return {**first.response, "repeated": True}
    extra = {"unlock": unlock, "lock": lock, "call_hand": call_hand} if table.variant == "classic" else None
    decision = _decision(verb, cards, amount, card, source, classic=extra)
    if table.status != TableStatus.RUNNING:
        raise ConflictError(f"The table is {table.get_status_display().lower()}: nobody can act now.")
    _check_version(table, version, actor)
    game = load_game(table)
    if seat.engine_seat not in game.waiting_for():
        waiting = ", ".join(game.names[s] for s in game.waiting_for()) or "nobody (between hands)"
        raise ConflictError(f"It is not your decision; the table is waiting for {waiting}.", code="not_your_turn")
    if table.variant == "classic":
        _check_play_is_seen(game, seat.engine_seat, decision)
    response = _apply(table, game, seat, decision, source=ActionSource.PLAYER, key=key, actor=actor, request=request)
    if seat.timeouts or seat.away:
        OnlineSeat.objects.filter(pk=seat.pk).update(timeouts=0, away=False)
    return response


@transaction.atomic
def turn_timeout(*, table_id: int, turn_version: int) -> int:
    """The turn clock ran out: act for every player still awaited at `turn_version`, once.

    Returns how many seats were acted for (0 when the decision was already made, the table paused, or its stored
    deadline is still ahead: a task run early, as Celery runs every task at once in-process, waits for the sweep,
    which sends it again once the deadline has passed)."""
    table = lock_table_if_any(table_id)
    if table is None or table.status != TableStatus.RUNNING or table.turn_version != turn_version:
        return 0
    if table.deadline is not None and table.deadline > timezone.now():
        return 0
    game = load_game(table)
    seats = engine_seats(table)
    acted = 0
    for engine_seat in game.waiting_for():
        if table.turn_version != turn_version or engine_seat not in game.waiting_for():
            break
        seat = seats[engine_seat]
        if seat.is_bot:
            continue
        seat.timeouts += 1
        seat.away = seat.away or seat.timeouts >= 2
        seat.save(update_fields=["timeouts", "away"])
        _apply(
            table,
            game,
            seat,
            default_decision(game, engine_seat),
            source=ActionSource.TIMEOUT,
            key=f"timeout:{turn_version}:{seat.number}",
        )
        acted += 1
    if acted:
        pause_when_nobody_is_there(table, seats.values(), at_hand_break=False)
    return acted


@transaction.atomic
def bot_act(*, table_id: int, seat_number: int, turn_version: int) -> bool:
    """A bot's decision, from its seat's view only; nothing when it is no longer the bot's decision."""
    table = lock_table_if_any(table_id)
    if table is None or table.status != TableStatus.RUNNING or table.turn_version != turn_version:
        return False
    seat = next((s for s in table.seats.all() if s.number == seat_number and s.kind == SeatKind.BOT), None)
    if seat is None:
        return False
    game = load_game(table)
    # Under the lock, the engine says whether the bot is still awaited: a repeat of this task, or one for a
    # decision the bot made already, finds it is not (the action's unique key backs this up).
    if seat.engine_seat not in game.waiting_for():
        return False
    key = f"bot:{turn_version}:{seat_number}"
    bot = BOTS[seat.bot_kind](random.Random(secrets.randbits(64)))
    decision = bot.decide(game.view_for(seat.engine_seat))
    _apply(table, game, seat, decision, source=ActionSource.BOT, key=key)
    return True
