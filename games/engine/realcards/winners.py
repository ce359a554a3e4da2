"""Pots given to the winners the table names, when nobody wants to enter the cards.

At the reveal, instead of showing hands, the table may name each pot's winner(s): `{"step": "winners",
"pot": 0, "seats": [1, 3]}` for every pot the reveal would settle (pot 0 is the main pot, then the side pots
in order), and where the variant keeps a Sabacc pot, `{"step": "winners", "pot": "sabacc", "seats": [...]}`
(its winners, among the main pot's; `[]`: it stays for the next hand; always named). The variant's own hand
then pays them (`table.settle`): the shares and odd credits follow the preset's rule, as for a tie. Naming
and showing do not mix within a hand. A variant whose settlement needs the cards (Classic: bombing out) names only
after folds: its lone player may decline to show, leaving the Sabacc pot where it is.
"""

from typing import Any

from games.engine.errors import IllegalAction, WrongPhase

SABACC = "sabacc"


def open_pots(game: Any) -> list[dict]:
    """The pots a naming must cover: index, amount and who may win each (empty after a fold-out's payment)."""
    hand = game.game.hand
    if hand.awards:  # a lone player was paid already; only the Sabacc pot is open
        return []
    return [
        {"pot": index, "amount": pot.amount, "eligible": list(pot.eligible) or game.live()}
        for index, pot in enumerate(hand.pots())
    ]


def may_name(game: Any) -> bool:
    """Whether the reveal now due may be settled by naming winners: always where the variant's table says
    `naming = "all"`; with `"after_folds"` (Classic) only for a lone player after folds, who may decline to show."""
    naming = getattr(game.table, "naming", None)
    return naming == "all" or (naming == "after_folds" and not open_pots(game))


def verify_named(game: Any, step: dict) -> tuple[Any, list[int]]:
    """Check a winners step against the reveal that is due; return (pot, seats)."""
    table = game.table
    if game.need is None or game.need[0] != "card" or not any(game.unknown_of(s) for s in game.live()):
        raise WrongPhase("No reveal is due: winners are named instead of showing the hands still in.")
    if not may_name(game):
        raise WrongPhase(f"{game.base.name} settles pots from the cards shown; enter the cards instead.")
    number = game.game.hand.number
    if game.shown.get(number):
        raise WrongPhase("Cards are already shown in this hand: show the rest, or undo them to name winners.")
    pot, seats = step.get("pot"), step.get("seats")
    pots = {row["pot"]: row for row in open_pots(game)}
    keys = [*pots, SABACC] if table.has_sabacc_pot else list(pots)
    if pot not in keys:
        raise IllegalAction(f"pot is one of {', '.join(str(k) for k in keys)}; got {pot!r}.")
    if not isinstance(seats, list) or not all(type(s) is int for s in seats) or len(set(seats)) != len(seats):
        raise IllegalAction("seats is a list of different seat numbers.")
    names = game.game.names
    if pot == SABACC and seats and table.naming == "after_folds":
        raise IllegalAction("The Sabacc pot is taken by showing the hand; name nobody to leave it where it is.")
    if pot == SABACC:
        main = game.named.get(number, {}).get(0)
        allowed = main if main is not None else game.live()
        if not set(seats) <= set(allowed):
            raise IllegalAction(
                f"the Sabacc pot goes only to the main pot's winners ({', '.join(names[s] for s in allowed)})."
            )
    else:
        eligible = pots[pot]["eligible"]
        if not seats or not set(seats) <= set(eligible):
            raise IllegalAction(
                f"pot {pot} goes to one or more of those who may win it: {', '.join(names[s] for s in eligible)}."
            )
    return pot, seats


def naming_complete(game: Any, number: int) -> bool:
    named = game.named.get(number, {})
    if game.table.has_sabacc_pot and SABACC not in named:
        return False
    return all(row["pot"] in named for row in open_pots(game))
