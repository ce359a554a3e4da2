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

import cython

from games.engine.cards import Card, encode_cards, full_deck


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
    `random.Random(seed)`."""
    deck = list(cards) if cards is not None else full_deck()
    shuffle_fresh(deck, seeded(seed))
    return deck


# Compiled (`games.native`), the loop's numbers are C integers; as plain Python the declaration does nothing.
@cython.locals(
    size=cython.Py_ssize_t,
    n=cython.Py_ssize_t,
    i=cython.Py_ssize_t,
    j=cython.Py_ssize_t,
    low=cython.Py_ssize_t,
    bits=cython.int,
)
def shuffle(items: list, rng: random.Random) -> None:
    """Exactly `rng.shuffle(items)` (CPython's Fisher-Yates over `getrandbits`), without its per-card calls.

    A test holds it to `random.Random.shuffle` for many seeds and sizes, so decks never change.
    """
    getrandbits = rng.getrandbits
    size = len(items)
    # Sizes from `size` down to 2, in runs sharing one bit length (so no `bit_length()` per card).
    while size > 1:
        bits = size.bit_length()
        low = 1 << (bits - 1)
        for n in range(size, low - 1, -1):
            j = getrandbits(bits)
            while j >= n:
                j = getrandbits(bits)
            i = n - 1
            items[i], items[j] = items[j], items[i]
        size = low - 1


# Draws fetched at once by `shuffle_fresh` after its first batch (about one and a half per card: a shuffle of n cards
# makes about 1.45 n draws, rejections included, and a big batch costs its conversions).
_MORE = 16


@cython.locals(
    size=cython.Py_ssize_t,
    n=cython.Py_ssize_t,
    i=cython.Py_ssize_t,
    j=cython.Py_ssize_t,
    low=cython.Py_ssize_t,
    bits=cython.int,
    shift=cython.int,
    top=cython.Py_ssize_t,
    batch=cython.Py_ssize_t,
    data=bytes,
)
def shuffle_fresh(items: list, rng: random.Random) -> None:
    """`shuffle(items, rng)` for a generator used for nothing else afterwards (a deck's or a pile's own): the same
    order, with the 32-bit outputs fetched in batches. `getrandbits(32 * m)` holds the next m outputs of the
    Mersenne Twister, the first in the lowest bits, and `getrandbits(k)` for k <= 32 is one output shifted right
    by 32 - k (for k <= 8: its top byte shifted right by 8 - k), so the cards move exactly as `rng.shuffle` moves
    them; the generator ends further on (the unused outputs of the last batch), which is why it must not be used
    again. Lists of more than 256 items take `shuffle`. A test holds it to `random.Random.shuffle`."""
    size = len(items)
    if size > 256:
        shuffle(items, rng)
        return
    getrandbits = rng.getrandbits
    data = b""
    top = 0  # the index of the next output's top byte in `data` (little-endian words)
    batch = size + size // 2
    while size > 1:
        bits = size.bit_length()
        shift = 8 - bits
        low = 1 << (bits - 1)
        for n in range(size, low - 1, -1):
            while True:
                if top >= len(data):
                    data = getrandbits(32 * batch).to_bytes(4 * batch, "little")
                    top = 3
                    batch = _MORE
                j = data[top] >> shift
                top += 4
                if j < n:
                    break
            i = n - 1
            items[i], items[j] = items[j], items[i]
        size = low - 1


def reshuffle_rng(source: str, count: int) -> random.Random:
    """The generator of a hand's reshuffle number `count` (from 1): `source` is the hand seed (a deck given
    without listed reshuffles uses its compact code instead)."""
    return seeded(f"{source}/reshuffle/{count}")


def reshuffle_pile(seed: str, count: int, discard: list[Card]) -> list[Card]:
    """The new draw pile of reshuffle `count`: the discard pile (oldest discard first) shuffled from the seed."""
    pile = list(discard)
    reshuffle_rng(seed, count).shuffle(pile)
    return pile


def verify_shuffle(seed: str, published: str, deck: list[Card]) -> bool:
    """True when `seed` matches the commitment published before the deal and produces `deck`."""
    return commitment(seed) == published and encode_cards(deck_from_seed(seed)) == encode_cards(deck)
