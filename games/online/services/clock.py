"""The turn clock and what is due next at a table: which decision the table awaits (`turn_key`; a new one gets a
fresh turn), the deadline of the players awaited and the tasks it sets (a bot's decision, the turn running out,
the next hand after the pause between hands), recorded on the row (`games.online.schedule`), and what the clock
decides for a player whose time ran out or who is away (`default_decision`).

The clock running out is `acting.turn_timeout` (a decision made for the player, logged as every decision is);
pausing stops the clock (`stop`), resuming starts a fresh turn."""

from datetime import timedelta

from django.utils import timezone

from games.engine import Game
from games.engine.bots import Decision
from games.online import schedule
from games.online.models import Due, OnlineSeat, OnlineTable, TableStatus


def turn_key(game: Game) -> tuple:
    """What decision the table awaits: hand, phase and, in a betting round, whose turn."""
    waiting = game.waiting_for()
    if not waiting:
        return (game.hands_played, "none", None)
    phase = game.legal_actions(waiting[0]).phase
    return (game.hands_played, phase, None if phase in ("select", "improve") else waiting[0])


def default_decision(game: Game, engine_seat: int) -> Decision:
    """What the clock does for a player: keep nothing new in select and improve, check if free, else fold."""
    legal = game.legal_actions(engine_seat)
    verbs = legal.verbs
    if "select" in verbs:
        return Decision("select", cards=())
    if "check" in verbs:
        return Decision("check")
    if "stand" in verbs:  # a card turn (Corellian Spike): change nothing
        return Decision("stand")
    if "spike" in verbs:  # the spike dice matched: a card must go; the first one held
        return Decision("spike", card=legal.cards[0])
    if "fold" in verbs:
        return Decision("fold")
    return Decision(verbs[0]) if verbs else Decision("fold")


def stop(table: OnlineTable) -> None:
    """No deadline while the table is paused or closed: nobody's time runs."""
    table.deadline = None


def set_clock(table: OnlineTable, game: Game, seats: dict[int, OnlineSeat], *, turn_changed: bool) -> None:
    """After a change: the deadline and what is due next, on the (locked) row the caller saves, and the tasks sent
    after the commit. A new turn gets `turn_seconds` and the bots awaited their short delays; between hands the
    next hand is due after the pause (any change between hands starts the pause again)."""
    now = timezone.now()
    waiting = game.waiting_for()
    # What is due next is recorded on the row (the sweep sends it again if its task is lost): games.online.schedule.
    if game.over:
        stop(table)
        schedule.clear(table)
    elif table.status == TableStatus.RUNNING and waiting and turn_changed:
        table.deadline = now + timedelta(seconds=table.turn_seconds)
        if any(not seats[s].is_bot for s in waiting):
            schedule.later("turn_timeout", [table.pk, table.turn_version], table.turn_seconds)
        delays = []
        for engine_seat in waiting:
            if seats[engine_seat].is_bot:
                delays.append(schedule.bot_delay())
                schedule.later("bot_act", [table.pk, seats[engine_seat].number, table.turn_version], delays[-1])
        # Bots: due when the last of them should have decided; else the turn clock.
        if delays:
            schedule.mark(table, Due.BOT, now + timedelta(seconds=max(delays)))
        else:
            schedule.mark(table, Due.CLOCK, table.deadline)
    elif table.status == TableStatus.RUNNING and waiting:
        if table.due == Due.BOT and not any(seats[s].is_bot for s in waiting):
            schedule.mark(table, Due.CLOCK, table.deadline or now)  # the bots decided: the humans' clock
    elif table.status == TableStatus.RUNNING and not waiting:
        # Between hands: the next hand after the pause (any change between hands starts the pause again).
        stop(table)
        pause = schedule.hand_pause()
        schedule.mark(table, Due.DEAL, now + timedelta(seconds=pause))
        schedule.later("next_hand", [table.pk, table.version], pause)
