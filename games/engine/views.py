"""What one seat, or a spectator, may see: plain JSON-able dicts.

Public: stacks, bets, pots, phase, target and suit, selection sizes, the seed commitment, whose
turn it is. Private to a seat: its own cards and selection. Revealed after the hand: the showdown
selections and the seed. Nothing else about cards ever leaves the engine.
"""

from typing import TYPE_CHECKING

from games.engine.cards import codes
from games.engine.chips import CHIP_SETS, breakdown

if TYPE_CHECKING:
    from games.engine.hand import Hand
    from games.engine.state import Game


def hand_summary(game: "Game", hand: "Hand") -> dict:
    """One hand in the shape of the replay result (REPLAY.md); complete or part-way."""
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


def _public(game: "Game") -> dict:
    hand = game.hand
    in_hand = game.in_hand
    bets = hand.bets() if in_hand else {}
    players = []
    for seat, name in enumerate(game.names):
        row = {
            "seat": seat,
            "name": name,
            "stack": game.stacks[seat],
            "out": seat in game.out_at and game.stacks[seat] == 0,
            "left": seat in game.left,
            "chips": breakdown(game.stacks[seat], CHIP_SETS[game.options.chips]),
        }
        if hand is not None and seat in hand.seats:
            row.update(
                {
                    "in_hand": seat not in hand.folded,
                    "folded": seat in hand.folded,
                    "all_in": in_hand and hand.is_all_in(seat),
                    "bet": bets.get(seat, 0),
                    "contributed": hand.contributions.get(seat, 0),
                    "selection_size": len(hand._selection[seat]),
                    "cards_held": len(hand._cards[seat]),
                    "has_acted": seat in hand.acted,
                }
            )
        players.append(row)
    view: dict = {
        "variant": game.variant.name,
        "hands_played": game.hands_played,
        "over": game.over,
        "players": players,
        "carry_over": game.carry,
        "levels": dict(zip(("ante", "small_blind", "big_blind", "min_bet"), game.levels.to_list(), strict=True)),
        "waiting_for": game.waiting_for(),
        "hand": None,
    }
    if hand is not None:
        current = {
            "number": hand.number,
            "phase": hand.phase,
            "dealer": hand.dealer,
            "target": hand.dice.number,
            "suit": hand.dice.suit,
            "commitment": hand.commitment,
            "deck": "seeded" if hand.commitment else "given",
            "to_act": hand.actor(),
            "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in hand.pots()] if in_hand else [],
            "draw_pile": hand.draw_pile_size(),
        }
        if hand.is_complete:
            current["seed"] = hand.seed
            current["result"] = game.results[-1] if game.results else hand_summary(game, hand)
        view["hand"] = current
    if game.items or game.item_transfers:
        view["items"] = {
            "staked": {game.names[s]: {"item": i, "value": v} for s, (i, v) in game.items.items()},
            "transfers": [{**t, "from": game.names[t["from"]], "to": game.names[t["to"]]} for t in game.item_transfers],
        }
    if game.over:
        view["standings"] = game.standings()
    return view


def view_for(game: "Game", seat: int) -> dict:
    """The table as `seat` sees it: everything public plus its own cards and legal actions."""
    view = _public(game)
    hand = game.hand
    view["seat"] = seat
    view["cards"] = codes(hand.cards_of(seat)) if hand is not None and not hand.is_complete else []
    view["selection"] = codes(hand.selection_of(seat)) if hand is not None and not hand.is_complete else []
    view["legal"] = game.legal_actions(seat).to_dict()
    return view


def spectator_view(game: "Game") -> dict:
    return _public(game)
