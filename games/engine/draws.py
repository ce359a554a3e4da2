"""`random.Random`'s own draws (`choice`, `randint`), compiled: the same numbers from the same generator, without
the standard library's interpreted frames (two per draw). The random bots and the dice draw this way; nothing here
holds state, so a bot may use it. A test holds each to `random.Random`."""

import random

_Random = random.Random


def below(rng: random.Random, n: int) -> int:
    """`rng._randbelow(n)` for a plain `random.Random` and 0 < n (`getrandbits` of n's bit length until one is
    below n), compiled: the standard library's `choice` and `randint` run it interpreted, two frames per draw."""
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def choice(rng: random.Random, seq):
    """Exactly `rng.choice(seq)`, without its interpreted frames when `rng` is a plain `random.Random` (another
    generator class may draw differently: it is asked itself). A test holds it to `random.Random.choice`."""
    if type(rng) is not _Random or not len(seq):
        return rng.choice(seq)
    return seq[below(rng, len(seq))]


def randint(rng: random.Random, a: int, b: int) -> int:
    """Exactly `rng.randint(a, b)` (`a + rng._randbelow(b - a + 1)`), without its interpreted frames when `rng` is
    a plain `random.Random` and `a <= b` are integers; anything else is asked of `rng` itself (errors included)."""
    if type(rng) is not _Random or type(a) is not int or type(b) is not int or b < a:
        return rng.randint(a, b)
    return a + below(rng, b - a + 1)
