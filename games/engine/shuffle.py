"""Fair shuffles: a per-hand seed, its SHA-256 commitment published before the deal, revealed after.

Everything random in a hand comes from its seed: the deck order (`deck_from_seed`) and the dice
(`dice_from_seed`). Reshuffles of the discard pile come from the deck itself (`reshuffle_rng`), so
a replay that lists the whole deck reshuffles exactly as the live hand did.
"""

import hashlib
import random

from games.engine.cards import Card, encode_cards, full_deck
from games.engine.dice import Dice, roll


def hand_seed(master: str, number: int) -> str:
    """The seed of hand `number`, derived from the game's master seed (itself drawn from the injected rng)."""
    return hashlib.sha256(f"{master}/hand/{number}".encode()).hexdigest()[:32]


def commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def deck_from_seed(seed: str, cards: list[Card] | None = None) -> list[Card]:
    """The draw pile, top card first: the variant's canonical deck (default: the 62 cards) shuffled by
    `random.Random(seed)`."""
    deck = list(cards) if cards is not None else full_deck()
    shuffle(deck, random.Random(seed))
    return deck


def shuffle(items: list, rng: random.Random) -> None:
    """Exactly `rng.shuffle(items)` (CPython's Fisher-Yates over `getrandbits`), without its per-card calls.

    A test holds it to `random.Random.shuffle` for many seeds and sizes, so decks never change.
    """
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def dice_from_seed(seed: str) -> Dice:
    return roll(random.Random(f"{seed}/dice"))


def reshuffle_rng(deck_code: str, count: int) -> random.Random:
    return random.Random(f"{deck_code}/reshuffle/{count}")


def verify_shuffle(seed: str, published: str, deck: list[Card]) -> bool:
    """True when `seed` matches the commitment published before the deal and produces `deck`."""
    return commitment(seed) == published and encode_cards(deck_from_seed(seed)) == encode_cards(deck)
