"""The best hands (`best`) and the tie rules (RULES 1.3): `split` with the odd credits carried or given left of
the dealer, and `draw`."""

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from games.engine.cards import Card


def best(scores: dict[int, Any], seats: Iterable[int]) -> list[int]:
    """The seats among `seats` whose score (its `key`, higher is better) is best; more than one means a tie."""
    seats = list(seats)
    if not seats:
        return []
    keys = [scores[s].key for s in seats]  # each score's key once: a variant's key may be worked out per read
    top = max(keys)
    return [s for s, key in zip(seats, keys, strict=True) if key == top]


def split(amount: int, winners: Sequence[int], odd_credits: str) -> tuple[dict[int, int], int]:
    """Divide `amount` among `winners` (ordered from the dealer's left); return (paid, carried)."""
    share, odd = divmod(amount, len(winners))
    paid = dict.fromkeys(winners, share)
    if odd_credits == "left_of_dealer":
        for seat in winners[:odd]:
            paid[seat] += 1
        odd = 0
    return paid, odd


def draw_off(
    tied: Sequence[int], drawn: dict[int, list[Card]], draw_card: Callable[[], Card | None]
) -> tuple[list[int], dict[int, list[Card]]]:
    """Settle a tie by drawing: each tied player (ordered from the dealer's left) shows one card, highest wins.

    Cards a player already drew for another pot of the same hand are used again in the same order
    (ruling), so a side pot never makes them draw twice. Returns (winners, cards used per player);
    more than one winner means the draw pile ran out and the pot is split among them.
    """
    remaining = list(tied)
    used: dict[int, list[Card]] = {seat: [] for seat in tied}
    round_no = 0
    while len(remaining) > 1:
        values: dict[int, int] = {}
        for seat in remaining:
            cards = drawn.setdefault(seat, [])
            if len(cards) <= round_no:
                card = draw_card()
                if card is None:
                    return remaining, {s: c for s, c in used.items() if c}
                cards.append(card)
            used[seat].append(cards[round_no])
            values[seat] = cards[round_no].value
        top = max(values.values())
        remaining = [seat for seat in remaining if values[seat] == top]
        round_no += 1
    return remaining, {s: c for s, c in used.items() if c}
