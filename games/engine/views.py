"""What one seat, or a spectator, may see: plain JSON-able dicts.

Public: stacks, bets, pots, phase, target and suit, selection sizes once their phase has closed
(RULES 1.2.4), the seed commitments, who contributed entropy, whose turn it is. Private to a seat:
its own cards and selection. Revealed after the hand: the showdown selections. Revealed when the
game ends: every hand's seeds (RULES 1.7). Nothing else about cards ever leaves the engine.
"""

from typing import TYPE_CHECKING

from games.engine.chips import chips_shown

if TYPE_CHECKING:
    from games.engine.state import Game
    from games.engine.variant import VariantHand as Hand


def hand_summary(game: "Game", hand: "Hand") -> dict:
    """One hand in the shape of the replay result (docs/replay.md); complete or part-way. The hand's
    variant decides the shape (`hand.summary(game)`)."""
    return hand.summary(game)


# A seat's fields in the current hand, the last of its public row.
_HAND_FIELDS = ("in_hand", "folded", "all_in", "bet", "contributed")


def _public(game: "Game", viewer: int | None = None) -> dict:
    hand = game.hand
    in_hand = hand is not None and hand.phase != "complete"
    names, stacks, out_at, left = game.names, game.stacks, game.out_at, game.left
    # Each seat's chips, looked up once per stack size (`chips.breakdown_in` without its call per seat).
    shown = chips_shown(getattr(game.options, "chips", "simple"))
    shown_get, remember = shown.get, shown.remember
    players = []
    append = players.append
    if hand is None:
        seats_in: set[int] = set()
        folded: set[int] = set()
        contributions: dict[int, int] = {}
        bets: dict[int, int] = {}
    else:
        folded, contributions = hand.folded, hand.contributions
        bets = hand.bets() if in_hand else {}
        seats_in = set(hand.seats)
    for seat, name in enumerate(names):
        stack = stacks[seat]
        counts, loose = shown_get(stack) or remember(stack)
        is_folded = seat in folded
        # One literal for the whole row (a dict made whole is sized once); a seat not in the hand drops the hand's
        # fields, which are last.
        row = {
            "seat": seat,
            "name": name,
            "stack": stack,
            "out": stack == 0 and seat in out_at,
            "left": seat in left,
            "chips": {"chips": counts.copy(), "loose": loose},
            "in_hand": not is_folded,
            "folded": is_folded,
            "all_in": in_hand and not is_folded and stack == 0,
            "bet": bets.get(seat, 0),
            "contributed": contributions.get(seat, 0),
        }
        if seat not in seats_in:
            for key in _HAND_FIELDS:
                del row[key]
        append(row)
    if hand is not None:
        # The variant's own public fields of each seat in the hand (card counts, selection sizes...), last in the row.
        hand.add_public_seats(players, viewer)
    levels = game.levels
    view: dict = {
        "variant": game.variant.name,
        "hands_played": game.hands_played,
        "over": game.over,
        "players": players,
        "carry_over": game.carry,
        "levels": {
            "ante": levels.ante,
            "small_blind": levels.small_blind,
            "big_blind": levels.big_blind,
            "min_bet": levels.min_bet,
        },
        "waiting_for": hand.waiting_for() if in_hand else [],
        "hand": None,
    }
    if hand is not None:
        current = {"number": hand.number, "phase": hand.phase, "dealer": hand.dealer}
        hand.add_public_hand(current)
        current["commitment"] = hand.commitment
        current["deck"] = "seeded" if hand.commitment else "given"
        current["to_act"] = hand.actor()
        current["pots"] = [{"amount": p.amount, "eligible": list(p.eligible)} for p in hand.pots()] if in_hand else []
        current["draw_pile"] = hand.draw_pile_size()
        if not in_hand:
            current["result"] = game.results[-1] if game.results else hand_summary(game, hand)
            if game.over and game.leftovers_paid:
                # RULES 1.5 "Credits left at the end": where what the game left on the table went.
                paid = {names[s]: amount for s, amount in game.leftovers_paid.items()}
                current["result"] = {**current["result"], "leftovers": paid}
        view["hand"] = current
    if not in_hand and not game.over:
        view["next_hand"] = {
            "number": game.hands_played + 1,
            "commitment": game.next_commitment(),
            "entropy_from": [names[s] for s in sorted(game.entropy)],
        }
    if game.items or game.item_transfers:
        view["items"] = {
            "staked": {names[s]: {"item": i, "value": v} for s, (i, v) in game.items.items()},
            "transfers": [{**t, "from": names[t["from"]], "to": names[t["to"]]} for t in game.item_transfers],
        }
    if game.over:
        view["standings"] = game.standings()
        # RULES 1.7: the hand seeds are now public, from `game.revealed_seeds()` (and in exports).
        view["seeds_revealed"] = True
    return view


def view_for(game: "Game", seat: int) -> dict:
    """The table as `seat` sees it: everything public plus its own cards and legal actions."""
    view = _public(game, seat)
    hand = game.hand
    view["seat"] = seat
    if hand is not None and hand.phase != "complete":
        view.update(hand.private_view(seat))
    else:
        view["cards"], view["selection"] = [], []
    view["legal"] = game.legal_actions(seat).to_dict()
    return view


def spectator_view(game: "Game") -> dict:
    return _public(game)


def own_entropy(game: "Game", seat: int) -> dict:
    """RULES 1.7: the entropy `seat` contributed to the current (or last) hand's seed and, between hands, to the
    next one's so far; None where it gave none. Its own only: other views show who contributed, never what,
    until the seeds are revealed."""
    used = None
    if game.hand is not None and game._current_index is not None:
        name = game.names[seat]
        record = game._history[game._current_index]
        used = next((value for who, value in record.get("n", ()) if who == name), None)
    return {"hand": used, "next": game.entropy.get(seat)}
