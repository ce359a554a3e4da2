"""After every change of the engine state (`_changed`): whose decision the table awaits, the seats that sit
out acted for by the clock's default decision, the turn clock and the tasks it schedules, a tournament table
decided between hands, the busts of a hand told to the tournament, and the end of the game."""

from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import hooks as game_hooks
from games.engine import Game
from games.engine.bots import Decision, apply_decision
from games.online import schedule
from games.online.models import (
    ActionSource,
    ChangeStatus,
    Due,
    OnlineAction,
    OnlineSeat,
    OnlineTable,
    SeatChange,
    TableStatus,
)
from games.online.services.common import _announce, _save, _save_row
from games.online.services.finish import _finish

# A sitting-out seat is acted for at once; this bounds that loop (each round needs a decision of someone).
MAX_AUTO_ACTIONS = 200


def _turn_key(game: Game) -> tuple:
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


def _engine_seats(table: OnlineTable) -> dict[int, OnlineSeat]:
    """{engine seat: seat}; at a cash table a seat someone left may be reused, and the one seated now wins."""
    rows = sorted((s for s in table.seats.all() if s.engine_seat is not None), key=lambda s: not s.left)
    return {s.engine_seat: s for s in rows}


def _changed(table: OnlineTable, game: Game, before: tuple, *, fresh_turn: bool = False, what: str = "changed") -> None:
    """After the engine state changed: settle sitting-out seats, save, set the clock, schedule, announce."""
    seats = _engine_seats(table)
    played_before = before[0]
    table.version += 1
    after = _turn_key(game)
    turn_changed = fresh_turn or after != before
    if turn_changed:
        table.turn_version = table.version
    for _ in range(MAX_AUTO_ACTIONS):
        away = [s for s in game.waiting_for() if seats[s].away or seats[s].left]
        if not away or table.status != TableStatus.RUNNING:
            break
        seat = seats[away[0]]
        key = f"away:{table.turn_version}:{seat.number}"
        before = _turn_key(game)
        hand_number = game.hands_played + (1 if game.in_hand else 0)
        phase = game.legal_actions(seat.engine_seat).phase
        decision = default_decision(game, seat.engine_seat)
        apply_decision(game, seat.engine_seat, decision)
        table.version += 1
        OnlineAction.objects.create(
            table=table,
            seat=seat,
            key=key,
            source=ActionSource.AWAY,
            verb=decision.verb,
            hand=hand_number,
            phase=phase,
            version=table.version,
            response={"applied": True, "verb": decision.verb, "hand": hand_number, "version": table.version},
        )
        if _turn_key(game) != before:
            table.turn_version = table.version
            turn_changed = True
    if table.tournament_table is not None and game.hands_played > played_before and _decided(table, game, seats):
        game.close_table()  # a tournament's table plays on until one player there has chips (end rule "never")
    now = timezone.now()
    waiting = game.waiting_for()
    # What is due next is recorded on the row (the sweep sends it again if its task is lost): games.online.schedule.
    if game.over:
        table.deadline = None
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
        table.deadline = None
        pause = schedule.hand_pause()
        schedule.mark(table, Due.DEAL, now + timedelta(seconds=pause))
        schedule.later("next_hand", [table.pk, table.version], pause)
    finished_hands = game.hands_played - played_before
    if finished_hands > 0:
        table.results = [*table.results, *game.results[-finished_hands:]]
        _tell_busts(table, game, seats)
    if finished_hands > 0 and table.tournament_table is not None:
        # A tournament's player waiting for this hand to end leaves now, not after the pause (their new table may
        # deal meanwhile): games.online.tournament.
        from games.online.tournament import hand_ended

        hand_ended(table, game)
    history = table.history
    _save(table, game)
    if game.over:
        _finish(table, game)
    _save_row(table, unchanged=("history",) if table.history == history else ())
    _announce(table, "finished" if game.over else what)


def _decided(table: OnlineTable, game: Game, seats: dict[int, OnlineSeat]) -> bool:
    """A tournament table whose game the engine never ends itself (players move in and out between hands) is
    over between hands once at most one seated player has chips."""
    seated = {number for number, seat in seats.items() if not seat.left}
    alive = [number for number in game.seats_with_credits() if number in seated]
    if len(alive) > 1 or not game.can_close_table():
        return False
    # Not while a player or a re-buy's chips are on their way here or a player waits to leave for another table
    # (the hand break carries them out first), nor while those out may still re-buy.
    if SeatChange.objects.filter(
        Q(target_id=table.pk, status__in=(ChangeStatus.WAITING, ChangeStatus.ON_THE_WAY))
        | Q(source_id=table.pk, status=ChangeStatus.WAITING)
    ).exists():
        return False
    busted = [seat.player_id for number, seat in seats.items() if number in seated and game.stacks[number] == 0]
    return not (busted and game_hooks.online_rebuys_open(event_id=table.event_id, player_ids=busted))


def _tell_busts(table: OnlineTable, game: Game, seats: dict[int, OnlineSeat]) -> None:
    """After a hand: the players it left without credits, each with the winner of the pot they lost,
    for whoever listens (a tournament records the elimination), after the commit."""
    hand = game.hand
    # Only a tournament's own tables (opened for its seated players) report: a casual table at the event does not.
    if hand is None or not hand.is_complete or table.tournament_table is None:
        return
    busts = []
    for seat in hand.seats:
        if game.out_at.get(seat) != hand.number or game.stacks[seat] != 0 or seat not in seats:
            continue
        lost = [a for a in hand.awards if seat in a["eligible"] and seat not in a["winners"] and a["winners"]]
        winner = lost[0]["winners"][0] if lost else None
        busts.append(
            {
                "player_id": seats[seat].player_id,
                "knocked_out_by": seats[winner].player_id if winner in seats else None,
                "stack": hand.contributions.get(seat, 0),
            }
        )
    if busts:
        event_id, table_id, number = table.event_id, table.pk, hand.number
        transaction.on_commit(
            lambda: game_hooks.online_players_out(event_id=event_id, table_id=table_id, hand=number, busts=busts),
            robust=True,
        )
