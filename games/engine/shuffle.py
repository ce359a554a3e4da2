"""Fair shuffles (RULES 1.7): a server seed per hand, committed (its SHA-256 published) before the
deal and before players contribute entropy; the hand seed mixes the two; everything is revealed when
the game ends.

Everything random in a hand comes from its hand seed: the deck order (`deck_from_seed`), the dice
(each variant's `roll`) and every reshuffle of the discard pile (`reshuffle_rng`). docs/rules.md gives the
recipe so that anyone can recompute a hand from the revealed seeds.
"""

import _random
import hashlib
import json
import random
from collections.abc import Iterable

from games.engine.cards import Card, encode_cards, full_deck
from games.engine.twister import Twister


def server_seed(master: str, number: int) -> str:
    """The server seed of hand `number`, derived from the game's master seed (itself drawn from the injected rng)."""
    return hashlib.sha256(f"{master}/hand/{number}".encode()).hexdigest()[:32]


# The server seed of a hand without player entropy is its hand seed (the name is older than entropy).
hand_seed = server_seed


def mix_entropy(server: str, contributions: Iterable[tuple[str, str]]) -> str:
    """The hand seed: the server seed alone when nobody contributed; otherwise the first 32 hex digits of the
    SHA-256 of the compact JSON `[server seed, [[player, contribution], ...]]`, players sorted by name
    (UTF-8, no spaces, non-ASCII characters as they are). See docs/rules.md, fair decks."""
    pairs = sorted([str(name), str(value)] for name, value in contributions)
    if not pairs:
        return server
    payload = json.dumps([server, pairs], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()[:32]


def commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


_new_random = random.Random.__new__  # a generator not seeded yet (`random.Random.__init__` seeds it)
_seed_random = _random.Random.seed  # the C seeding under `random.Random.seed`


def seeded(text: str) -> random.Random:
    """`random.Random(text)`: the same generator, seeded once. `random.Random(text)` seeds in C with the text's
    hash, then again in Python from its SHA-512 (the documented version 2 seeding), and a hand makes several.
    A test holds it to `random.Random(text)` for many texts."""
    rng = _new_random(random.Random)
    data = text.encode()
    _seed_random(rng, int.from_bytes(data + hashlib.sha512(data).digest(), "big"))
    rng.gauss_next = None
    return rng


def deck_from_seed(seed: str, cards: list[Card] | None = None) -> list[Card]:
    """The draw pile, top card first: the variant's canonical deck (default: the 62 cards) shuffled by
    `random.Random(seed)` (a `Twister`: the same order, drawn in C when compiled)."""
    deck = list(cards) if cards is not None else full_deck()
    Twister(seed).shuffle(deck)
    return deck


def reshuffle_rng(source: str, count: int) -> Twister:
    """The generator of a hand's reshuffle number `count` (from 1), `random.Random(f"{source}/reshuffle/{count}")`
    for its one shuffle: `source` is the hand seed (a deck given without listed reshuffles uses its compact code
    instead)."""
    return Twister(f"{source}/reshuffle/{count}")


def reshuffle_pile(seed: str, count: int, discard: list[Card]) -> list[Card]:
    """The new draw pile of reshuffle `count`: the discard pile (oldest discard first) shuffled from the seed."""
    pile = list(discard)
    reshuffle_rng(seed, count).shuffle(pile)
    return pile


def verify_shuffle(seed: str, published: str, deck: list[Card]) -> bool:
    """True when `seed` matches the commitment published before the deal and produces `deck`."""
    return commitment(seed) == published and encode_cards(deck_from_seed(seed)) == encode_cards(deck)
