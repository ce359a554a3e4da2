"""A tournament's real-cards table while it plays (docs/tabletop.md, "Tournament tables"): the clock's level and
the chips the tournament booked (re-buys, add-ons) before each deal, the table closed once it is decided, and what
the tournament hears after a step (players out of credits, the game over).

Games never imports tournaments: the level is asked of, and the reports are told to, `games.hooks` (the tournament
app's listener). The table's service (`games.tabletop.services.realtable_step`) calls these under the table's lock;
a casual or league table (no `tournament_table`) gets nothing from here.
"""

import copy
import logging
from typing import Any

from django.db import transaction

from config.errors import ConflictError
from games import hooks
from games.engine.errors import EngineError
from games.engine.realcards.game import RealCardsGame
from games.tabletop.models import RealTable
from league.models import AuditEntry

logger = logging.getLogger(__name__)

LEVEL_KEYS = ("ante", "small_blind", "big_blind")
# A re-buy's or an add-on's chips booked by the tournament for a seat here (`tournament.realtable_chips_queue`):
# the audit row is the booking, its id the key the table's change log carries once the chips have joined.
CHIPS = "real_table.tournament_chips"
CLOCK, TOURNAMENT = {"by": "the clock"}, {"by": "the tournament"}


def is_tournament_table(table: RealTable) -> bool:
    return table.event_id is not None and table.tournament_table is not None


def steps_before(table: RealTable, game: RealCardsGame, step: dict) -> list[tuple[dict, dict]]:
    """The between-hands steps a deal at a tournament's table takes first, each with its change log's note: the
    chips the tournament booked for its seats (each booking once), then the clock's level when the table does not
    play it yet (as an online tournament table applies them at its next hand, never mid-hand)."""
    if step.get("step") != "deal" or not is_tournament_table(table):
        return []
    before = chips_steps(table, game)
    level = hooks.tournament_level_now(event_id=table.event_id)
    if not level:
        return before
    wanted = {key: int(level.get(key) or 0) for key in LEVEL_KEYS}
    now = game.game.levels
    if (now.ante, now.small_blind, now.big_blind) == tuple(wanted[key] for key in LEVEL_KEYS):
        return before
    levels = {"step": "levels", **wanted}
    # A level the engine refuses here (a variant without blinds given blinds) leaves the table's own forced bets.
    return [*before, (levels, CLOCK)] if game.can_step(levels) else before


def bookings(table: RealTable) -> list[AuditEntry]:
    """Every re-buy and add-on the tournament booked for a seat of this table, in order."""
    return list(
        AuditEntry.objects.filter(action=CHIPS, object_type=RealTable._meta.label, object_id=str(table.pk)).order_by(
            "pk"
        )
    )


def delivered(changes: list[dict]) -> set[int]:
    """The bookings whose chips stand at the table: the keys of the steps that stand (an undo takes back the last
    step standing, so the change log replayed says which do)."""
    standing: list[Any] = []
    for change in changes:
        if "did" in change:
            standing.append(change.get("booking"))
        elif "undid" in change and standing:
            standing.pop()
    return {key for key in standing if key is not None}


def owed(table: RealTable) -> list[dict[str, Any]]:
    """The chips booked for this table's seats that have not joined yet: `{"booking", "player", "seat", "amount",
    "kind"}` each, in order."""
    done = delivered(table.changes)
    return [{**entry.data, "booking": entry.pk} for entry in bookings(table) if entry.pk not in done]


def chips_steps(table: RealTable, game: RealCardsGame) -> list[tuple[dict, dict]]:
    """The engine steps that bring each booking's chips to its seat: a re-buy for a seat out of credits and an
    add-on for one holding some, where the table's rules have them; else the seat leaves and sits again at once
    with its stack and the chips (engine `leave` and `join`, as an online tournament table does, for every
    variant). A booking the engine refuses now (the game over) waits, logged."""
    rows = owed(table)
    if not rows:
        return []
    probe = copy.deepcopy(game, {id(game.base): game.base, id(game.table): game.table})
    steps: list[tuple[dict, dict]] = []
    for row in rows:
        seat, amount = row["seat"], row["amount"]
        note = {**TOURNAMENT, "booking": row["booking"]}
        engine = probe.game
        held = engine.stacks[seat] if 0 <= seat < len(engine.stacks) else 0
        direct = {"step": "rebuy" if held == 0 else "add_on", "seat": seat, "amount": amount}
        plan = (
            [direct]
            if probe.can_step(direct)
            else [{"step": "leave", "seat": seat}, {"step": "join", "name": engine.names[seat], "stack": held + amount}]
        )
        try:
            trial = copy.deepcopy(probe, {id(game.base): game.base, id(game.table): game.table})
            for one in plan:
                trial.step(one)
        except (EngineError, IndexError) as exc:
            logger.warning("Chips of booking %s wait at real-cards table %s: %s", row["booking"], table.pk, exc)
            continue
        probe = trial
        steps.extend((one, note) for one in plan)
    return steps


def decided(table: RealTable, game: RealCardsGame) -> bool:
    """A tournament's table whose game the engine never ends itself (end rule "never": the tournament's chips may
    still come) is over between hands once at most one player holds chips, no booked chips are on their way and
    none of its players out of chips may still re-buy (the tournament's re-buy period and rules), as an online
    tournament table is (`games.online.services.finish.decided`)."""
    engine = game.game
    if not is_tournament_table(table) or getattr(engine.options, "end_rule", "") != "never":
        return False
    if engine.over or hand_open(game) or game.need is not None or len(engine.seats_with_credits()) > 1:
        return False
    if owed(table):
        return False
    busted = waiting_players(table, game)
    return not (busted and hooks.online_rebuys_open(event_id=table.event_id, player_ids=list(busted)))


def waiting_players(table: RealTable, game: RealCardsGame) -> dict[int, int]:
    """The table's players out of chips between hands (player id -> seat), as the table holds them."""
    engine = game.game
    if hand_open(game):
        return {}
    players = dict(table.seats.values_list("number", "player_id"))
    return {
        players[seat]: seat
        for seat in range(len(engine.names))
        if seat not in engine.left and engine.stacks[seat] == 0 and players.get(seat)
    }


def steps_after(table: RealTable, game: RealCardsGame) -> list[tuple[dict, dict]]:
    """The step a tournament's table takes after a step that left it decided: it closes (what is left in the
    pots is paid out as at any game's end), logged as by the tournament."""
    close = {"step": "close"}
    return [(close, TOURNAMENT)] if decided(table, game) and game.can_step(close) else []


def notes(table: RealTable, game: RealCardsGame) -> dict[str, Any] | None:
    """What a tournament's table shows of its re-buys between hands: the chips on their way (they join at the next
    deal) and the players out of chips who may still re-buy (the table waits for them while nobody else can
    play)."""
    if not is_tournament_table(table) or game.game.over:
        return None
    names = game.game.names
    coming = [
        {"name": names[row["seat"]], "amount": row["amount"], "kind": row["kind"]}
        for row in owed(table)
        if 0 <= row["seat"] < len(names)
    ]
    busted = waiting_players(table, game)
    waiting = [
        names[seat]
        for player, seat in sorted(busted.items(), key=lambda item: item[1])
        if hooks.online_rebuys_open(event_id=table.event_id, player_ids=[player])
    ]
    if not coming and not waiting:
        return None
    return {"coming": coming, "waiting": waiting, "stalled": len(game.game.seats_with_credits()) < 2}


def hand_open(game: RealCardsGame) -> bool:
    hand = game.game.hand
    return hand is not None and not hand.is_complete


def tell_after(table: RealTable, game: RealCardsGame, *, was_open: bool) -> None:
    """After a step at a tournament's table, tell the tournament (after the commit) who the hand just ended left
    without credits, each with the winner of the pot they lost, and that the game is over."""
    if not is_tournament_table(table):
        return
    engine = game.game
    hand = engine.hand
    event_id, table_id, number = table.event_id, table.pk, table.tournament_table
    if was_open and hand is not None and hand.is_complete:
        players = dict(table.seats.values_list("number", "player_id"))
        busts = []
        for seat in hand.seats:
            if engine.out_at.get(seat) != hand.number or engine.stacks[seat] != 0 or not players.get(seat):
                continue
            lost = [a for a in hand.awards if seat in a["eligible"] and seat not in a["winners"] and a["winners"]]
            winner = lost[0]["winners"][0] if lost else None
            busts.append(
                {
                    "player_id": players[seat],
                    "knocked_out_by": players.get(winner) if winner is not None else None,
                    "stack": hand.contributions.get(seat, 0),
                }
            )
        if busts:
            hand_number = hand.number
            transaction.on_commit(
                lambda: hooks.realcards_players_out(
                    event_id=event_id, table_id=table_id, hand=hand_number, busts=busts
                ),
                robust=True,
            )
    if engine.over:
        transaction.on_commit(
            lambda: hooks.realcards_table_finished(event_id=event_id, table_id=table_id, tournament_table=number),
            robust=True,
        )


def live_stacks(game: RealCardsGame) -> list[int]:
    """Each seat's stack as the tournament counts it: during a hand, what it had when the hand was dealt (its stack
    plus what it has put in), as an online table's `known_stacks` counts it."""
    engine = game.game
    stacks = list(engine.stacks)
    if hand_open(game):
        for seat, put_in in engine.hand.contributions.items():
            stacks[seat] += put_in
    return stacks


def check_can_end(table: RealTable) -> None:
    """A tournament's table is not ended while chips the tournament booked are on their way to it: they join at
    the next deal (the host deals it, then ends the table)."""
    if not is_tournament_table(table):
        return
    rows = owed(table)
    if rows:
        who = ", ".join(sorted({str(row.get("name") or f"seat {row['seat'] + 1}") for row in rows}))
        raise ConflictError(
            f"Chips the tournament booked (a re-buy or an add-on) are on their way to this table for {who}: deal "
            "the next hand (they join first), then end the table."
        )
