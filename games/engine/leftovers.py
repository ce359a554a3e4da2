"""Credits left on the table when a game ends (RULES 1.5 "Credits left at the end", Spike Ruling 2.6.1,
Classic Ruling 3.7.2): the carry-over and what a variant keeps between hands (the Sabacc pot) are paid to
the players still holding credits, split evenly, odd credits one each from the left of the last hand's
dealer; when nobody holds credits, to the players dealt into the last hand. No credit is paid to nobody.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.engine.state import Game


def left_on_table(game: "Game") -> int:
    """The credits between hands in no player's stack: the carry-over and the variant's pools."""
    return game.carry + sum(game.pools.values())


def recipients(game: "Game") -> list[int]:
    """Who takes what is left, in paying order: from the left of the last hand's dealer, the players holding
    credits, else those dealt into the last hand (seated ones first), else nobody."""
    n = len(game.names)
    dealer = game.first_dealer if game.dealer is None else game.dealer
    order = [(dealer + step) % n for step in range(1, n + 1)]
    holders = [seat for seat in order if game.stacks[seat] > 0]
    if holders or game.hand is None:
        return holders
    dealt = [seat for seat in order if seat in game.hand.seats]
    seated = [seat for seat in dealt if seat not in game.left]
    return seated or dealt


def shares(game: "Game") -> list[list[int]]:
    """[[seat, credits], ...] paying out everything left on the table, in paying order; [] when nothing is."""
    total = left_on_table(game)
    seats = recipients(game)
    if not total or not seats:
        return []
    each, odd = divmod(total, len(seats))
    paid = [[seat, each + (1 if index < odd else 0)] for index, seat in enumerate(seats)]
    return [row for row in paid if row[1]]


def pay_at_end(game: "Game") -> None:
    """The game has ended: pay out whatever it left on the table, recorded like any between-hands event (saved
    state, history, exports). Loading a saved game never pays by itself (`Game._loading`): the payment is in
    the saved state, and a game saved before this rule loads as it was."""
    paid = shares(game)
    if paid:
        game._record(["leftovers", paid])
