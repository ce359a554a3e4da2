"""A Coruscant Shift hand in the shape of the replay result (docs/replay.md): dice, showdown scores, pots."""

from typing import TYPE_CHECKING

from games.engine.cards import codes

if TYPE_CHECKING:
    from games.engine.coruscant.hand import Hand
    from games.engine.state import Game


def coruscant_summary(game: "Game", hand: "Hand") -> dict:
    """A Coruscant Shift hand in the shape of the replay result (REPLAY.md); complete or part-way."""
    names = game.names
    summary = {
        "number": hand.number,
        "dealer": names[hand.dealer],
        "target": hand.dice.number,
        "suit": hand.dice.suit,
        "forced": {names[s]: amount for s, amount in hand.forced.items() if amount},
        "showdown": {},
        "folded": [names[s] for s in hand.seats if s in hand.folded],
        "pots": [],
        "carry_over": hand.carry_out,
        "stacks": {name: game.stacks[s] for s, name in enumerate(names)},
    }
    if hand.is_complete:
        cards = hand.showdown_cards()
        for seat in hand.seats:
            if seat in hand.scores:
                summary["showdown"][names[seat]] = {"cards": codes(cards.get(seat, [])), **hand.scores[seat].to_dict()}
        for award in hand.awards:
            pot = {
                "amount": award["amount"],
                "eligible": [names[s] for s in award["eligible"]],
                "winners": [names[s] for s in award["winners"]],
                "paid": {names[s]: amount for s, amount in award["paid"].items()},
            }
            if award["draws"]:
                pot["draws"] = {names[s]: codes(c) for s, c in award["draws"].items()}
            summary["pots"].append(pot)
    else:
        for pot in hand.pots():
            eligible = [names[s] for s in pot.eligible]
            summary["pots"].append({"amount": pot.amount, "eligible": eligible, "winners": [], "paid": {}})
    return summary
