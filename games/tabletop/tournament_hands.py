"""A tournament's real-cards table while it plays (docs/tabletop.md, "Tournament tables"): the clock's level before
each deal, and what the tournament hears after a step (players out of credits, the game over).

Games never imports tournaments: the level is asked of, and the reports are told to, `games.hooks` (the tournament
app's listener). The table's service (`games.tabletop.services.realtable_step`) calls these under the table's lock;
a casual or league table (no `tournament_table`) gets nothing from here.
"""

from django.db import transaction

from games import hooks
from games.engine.realcards.game import RealCardsGame
from games.tabletop.models import RealTable

LEVEL_KEYS = ("ante", "small_blind", "big_blind")


def is_tournament_table(table: RealTable) -> bool:
    return table.event_id is not None and table.tournament_table is not None


def steps_before(table: RealTable, game: RealCardsGame, step: dict) -> list[dict]:
    """The between-hands steps a deal at a tournament's table takes first: the clock's level, when the table does
    not play it yet (as an online tournament table applies its pending level at its next hand, never mid-hand)."""
    if step.get("step") != "deal" or not is_tournament_table(table):
        return []
    level = hooks.tournament_level_now(event_id=table.event_id)
    if not level:
        return []
    wanted = {key: int(level.get(key) or 0) for key in LEVEL_KEYS}
    now = game.game.levels
    if (now.ante, now.small_blind, now.big_blind) == tuple(wanted[key] for key in LEVEL_KEYS):
        return []
    levels = {"step": "levels", **wanted}
    # A level the engine refuses here (a variant without blinds given blinds) leaves the table's own forced bets.
    return [levels] if game.can_step(levels) else []


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
