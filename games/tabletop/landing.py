"""A finished league real-cards table lands as a league Game of its event, through the same checked path as every
hand-entered result (`games.services.results.result_record`: seats with buy-ins, final credits and places, hand by
hand when every hand balances), so the ledger, the event's results, the standings and each player's chip history
follow as they do for any result.

Exactly once: it runs under the table's row lock (after its event's, the app's lock order) and only while the
table has no `game`; a refusal of the checked path (a league rule it breaks) leaves the table finished without a
game and says why in its `outcome`, and the host may book it again (`services.realtable_land`). A tournament's
physical table (`tournament_table`) lands elsewhere: nothing here runs for it."""

from typing import Any

from django.db import transaction

from config.errors import ApplicationError, ConflictError
from games.engine import leftovers
from games.engine.realcards.game import RealCardsGame
from games.models import Game
from games.services.results import result_record
from games.tabletop.models import RealTable


def lands(table: RealTable) -> bool:
    """A league event's table whose result is not booked yet (never a casual table or a tournament's)."""
    return table.event_id is not None and table.tournament_table is None and table.game_id is None


def check_can_end(table: RealTable, game: RealCardsGame) -> None:
    """A league table ends between hands: the pots of a hand being played belong to nobody yet."""
    if table.event_id is not None and game.game.in_hand:
        hand = game.game.hand
        raise ConflictError(
            f"Hand {hand.number} is being played: finish it (or undo its deal) before ending a league game; its "
            "pots belong to nobody yet."
        )


def final_credits(game: RealCardsGame) -> tuple[list[int], list[list[int]]]:
    """(each seat's final credits, each seat's change hand by hand). A game the host ends early pays out what is
    left on the table as every game does at its end (RULES 1.5, `games.engine.leftovers`), with the last hand."""
    engine = game.game
    finals = list(engine.stacks)
    if not engine.over:
        for seat, amount in leftovers.shares(engine):
            finals[seat] += amount
    previous = [stack for _, stack in game.setup["players"]]
    deltas: list[list[int]] = [[] for _ in finals]
    for summary in engine.results:
        stacks = summary["stacks"]
        after = [stacks[name] for name in engine.names] if isinstance(stacks, dict) else list(stacks)
        for seat, stack in enumerate(after):
            deltas[seat].append(stack - previous[seat])
        previous = after
    if deltas[0]:
        for seat, final in enumerate(finals):
            deltas[seat][-1] += final - previous[seat]
    return finals, deltas


def result_input(table: RealTable, game: RealCardsGame) -> dict[str, Any] | None:
    """The result as `result_record` takes it, or None when no hand was played (nothing to book)."""
    if not game.game.results:
        return None
    finals, deltas = final_credits(game)
    seats = list(table.seats.order_by("number"))
    places = {row["seat"]: row["place"] for row in game.game.standings()} if game.game.over else {}
    rows = [
        {
            "player": seat.player_id,
            "buy_in": table.starting_credits,
            "final_credits": finals[seat.number],
            **({"place": places[seat.number]} if places else {}),
        }
        for seat in seats
    ]
    hands = [{str(seat.player_id): deltas[seat.number][index] for seat in seats} for index in range(len(deltas[0]))]
    # Hand by hand only where every hand balances (a Sabacc pot or a carry-over kept between hands does not).
    balanced = all(sum(hand.values()) == 0 for hand in hands)
    return {
        "seats": rows,
        "hands": hands if balanced else None,
        "variant": table.variant,
        "preset": table.preset,
        "option_overrides": table.options,
    }


def land(table: RealTable, game: RealCardsGame) -> Game | None:
    """Book the finished table's result as its event's league Game (the caller holds the event's and the table's
    locks); returns the Game, or None if there was nothing to book or the checked path refused (the reason is kept
    in the table's `outcome`, under `landing`). Saves the table's `game` and `outcome`."""
    if not lands(table):
        return None
    result = result_input(table, game)
    outcome = {
        "standings": game.game.standings(),
        "stacks": dict(zip(game.game.names, game.game.stacks, strict=True)),
    }
    if result is None:
        outcome["landing"] = "No hand was played, so there is no result to book in the league."
        table.outcome = outcome
        table.save(update_fields=["outcome", "updated_at"])
        return None
    try:
        with transaction.atomic():  # a savepoint: a refusal of the checked path writes nothing
            booked = result_record(actor=table.host, event=table.event, **result)
    except ApplicationError as exc:
        outcome["landing"] = f"The result was not booked in the league: {exc.message}"
        table.outcome = outcome
        table.save(update_fields=["outcome", "updated_at"])
        return None
    table.game = booked
    table.outcome = outcome
    table.save(update_fields=["game", "outcome", "updated_at"])
    return booked
