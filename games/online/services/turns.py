"""What follows every change of a table's engine state (`changed`): the seats that sit out acted for by the
clock's default decision, a tournament table decided between hands closed, the turn clock set (`clock`), the
finished hands recorded and their busts told to the tournament, then the state saved, the game finished when it
is over (`finish`) and the change announced.

A change that may end a hand at a tournament's table passes `hand_ended` (`moves.hand_ended`: the players waiting
for that hand to end leave now); the moves themselves change tables between hands only, where no hand ends."""

from collections.abc import Callable
from typing import Any

from django.db import transaction

from config.inputs import Actor, user_or_none
from games import hooks as game_hooks
from games.engine import Game
from games.engine.bots import Decision, apply_decision
from games.online.models import ActionSource, OnlineAction, OnlineSeat, OnlineTable, TableStatus
from games.online.services.base import announce, engine_seats, save_game, save_table
from games.online.services.clock import default_decision, set_clock, turn_key
from games.online.services.finish import decided, finish_game

# A sitting-out seat is acted for at once; this bounds that loop (each round needs a decision of someone).
MAX_AUTO_ACTIONS = 200


def changed(
    table: OnlineTable,
    game: Game,
    before: tuple,
    *,
    fresh_turn: bool = False,
    what: str = "changed",
    hand_ended: Callable[[OnlineTable, Game], Any] | None = None,
) -> None:
    """After the engine state changed: settle sitting-out seats, save, set the clock, schedule, announce.
    `hand_ended(table, game)` runs, under the lock, when a hand of a tournament's table ended here."""
    seats = engine_seats(table)
    played_before = before[0]
    table.version += 1
    after = turn_key(game)
    turn_changed = fresh_turn or after != before
    if turn_changed:
        table.turn_version = table.version
    for _ in range(MAX_AUTO_ACTIONS):
        away = [s for s in game.waiting_for() if seats[s].away or seats[s].left]
        if not away or table.status != TableStatus.RUNNING:
            break
        seat = seats[away[0]]
        key = f"away:{table.turn_version}:{seat.number}"
        before = turn_key(game)
        hand_number, phase = hand_and_phase(game, seat)
        decision = default_decision(game, seat.engine_seat)
        apply_decision(game, seat.engine_seat, decision)
        table.version += 1
        log_action(
            table,
            seat,
            decision,
            source=ActionSource.AWAY,
            key=key,
            hand=hand_number,
            phase=phase,
            version=table.version,
        )
        if turn_key(game) != before:
            table.turn_version = table.version
            turn_changed = True
    if table.tournament_table is not None and game.hands_played > played_before and decided(table, game, seats):
        game.close_table()  # a tournament's table plays on until one player there has chips (end rule "never")
    set_clock(table, game, seats, turn_changed=turn_changed)
    finished_hands = game.hands_played - played_before
    if finished_hands > 0:
        table.results = [*table.results, *game.results[-finished_hands:]]
        _tell_busts(table, game, seats)
    if finished_hands > 0 and table.tournament_table is not None and hand_ended is not None:
        # A tournament's player waiting for this hand to end leaves now, not after the pause (their new table may
        # deal meanwhile): games.online.services.moves.
        hand_ended(table, game)
    history = table.history
    save_game(table, game)
    if game.over:
        finish_game(table, game)
    save_table(table, unchanged=("history",) if table.history == history else ())
    announce(table, "finished" if game.over else what)


def hand_and_phase(game: Game, seat: OnlineSeat) -> tuple[int, str]:
    """The hand a decision of `seat` belongs to (the next one between hands) and its phase, as the log keeps them."""
    return game.hands_played + (1 if game.in_hand else 0), game.legal_actions(seat.engine_seat).phase


def log_action(
    table: OnlineTable,
    seat: OnlineSeat,
    decision: Decision,
    *,
    source: str,
    key: str,
    hand: int,
    phase: str,
    version: int,
    actor: Actor | None = None,
    request: str = "",
) -> dict:
    """The action log's row of a decision, applied as table version `version`; returns the answer a repeat of it
    gets."""
    response = {"applied": True, "verb": decision.verb, "hand": hand, "version": version}
    OnlineAction.objects.create(
        table=table,
        seat=seat,
        key=key,
        source=source,
        actor=user_or_none(actor),
        verb=decision.verb,
        amount=decision.amount,
        hand=hand,
        phase=phase,
        version=version,
        response=response,
        request=request,
    )
    return response


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
