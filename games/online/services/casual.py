"""Casual games ("play now"): anyone signed in opens a table of no league, alone against bots or with friends who
join through its share link (its invite token) before it starts. No league game, ledger line, standings row or chip
history is written, and no league player is needed: the host's seat is their account's."""

from django.db import transaction

from config.errors import ApplicationError
from config.inputs import Actor, signed_in, whole_number_from
from games.engine.bots import BOTS
from games.online.models import (
    MAX_SEATS,
    MAX_TURN_SECONDS,
    MIN_SEATS,
    MIN_TURN_SECONDS,
    OnlineTable,
    new_invite,
)
from games.online.permissions import NotAllowed
from games.online.services.base import announce
from games.online.services.seats import seat_take
from games.online.services.tables import new_table
from games.services.checks import checked_preset
from league.services import audit, resolve_game_rules

DEFAULT_VARIANT, DEFAULT_SEATS, DEFAULT_BOT, DEFAULT_TURN_SECONDS = "coruscant_shift", 4, "sensible", 30
# A short game ends after this many hands (the engine's `hands` option); none plays to the rules' end.
SHORT_GAMES, MAX_HANDS = (3, 5, 10), 100


@transaction.atomic
def casual_open(
    *,
    actor: Actor,
    variant: str = DEFAULT_VARIANT,
    preset: str | None = None,
    seats: int = DEFAULT_SEATS,
    bot_kind: str = DEFAULT_BOT,
    turn_seconds: int = DEFAULT_TURN_SECONDS,
    hands: int | None = None,
) -> OnlineTable:
    """Open a casual game with the host seated: the variant's first preset unless one is given, `seats` seats
    (2-8), the empty ones filled with `bot_kind` bots when the host starts it; `hands` makes it a short game, over
    after that many hands. A refusal writes nothing."""
    if not signed_in(actor):
        raise NotAllowed("Sign in (or sign up) to play.")
    preset = checked_preset(variant, preset)
    seats = whole_number_from(seats, "Seats", MIN_SEATS, MAX_SEATS)
    turn_seconds = whole_number_from(turn_seconds, "The turn time in seconds", MIN_TURN_SECONDS, MAX_TURN_SECONDS)
    if bot_kind not in BOTS:
        raise ApplicationError(
            f"Unknown bot {bot_kind!r}; the bots are: {', '.join(BOTS)}.", extra={"field": "bot_kind"}
        )
    if hands is not None:
        hands = whole_number_from(hands, "The number of hands", 1, MAX_HANDS)
    options = resolve_game_rules(variant=variant, preset=preset, overrides={} if hands is None else {"hands": hands})
    table = new_table(
        event=None,
        name=f"{actor.get_username()}'s game"[:80],
        variant=variant,
        preset=preset,
        options=options,
        seat_count=seats,
        buy_in=options["starting_stack"],
        turn_seconds=turn_seconds,
        bot_kind=bot_kind,
        created_by=actor,
        invite=new_invite(),  # the share link's key: friends join with it (`permissions.invite_matches`)
    )
    audit(
        actor=actor,
        action="online_table.casual",
        obj=table,
        league=None,
        data={"variant": variant, "preset": preset, "seats": seats, "bot_kind": bot_kind, "hands": hands},
    )
    seat_take(actor=actor, table=table, number=0)
    announce(table, "opened")
    return table
