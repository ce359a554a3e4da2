"""A generator seeded from a text that draws exactly as `random.Random(text)` for what a hand asks of it: a shuffle
(`random.Random.shuffle`) and a number below 1 (`random.Random.random`).

A hand seeds several such generators (its deck, its dice, every new pile, the dealer's draw: docs/rules.md, fair
decks), and each is used for a few dozen draws. `random.Random(text)` makes a Python object, turns the text and its
SHA-512 into one big integer and back into 32-bit words, and every draw of its `shuffle` is a Python call. Compiled
(`games.native`), a `Twister` keeps the Mersenne Twister's 624 words in its own C array, seeds them from the text's
bytes with CPython's own recipe (`init_by_array` over the words of that integer, least significant first) and draws
in C. As plain Python it is `random.Random(text)` itself. `tests/engine/test_twister.py` holds both to
`random.Random` for many texts, sizes and draws.
"""

import hashlib
import random

import cython

# MT19937's constants (C constants when compiled): the words in its state, the distance of its recurrence, its
# matrix, the masks of a word's upper bit and lower 31 bits, and its tempering masks.
_N = cython.declare(cython.Py_ssize_t, 624)
_M = cython.declare(cython.Py_ssize_t, 397)
_MATRIX = cython.declare(cython.uint, 0x9908B0DF)
_UPPER = cython.declare(cython.uint, 0x80000000)
_LOWER = cython.declare(cython.uint, 0x7FFFFFFF)
_TEMPER_B = cython.declare(cython.uint, 0x9D2C5680)
_TEMPER_C = cython.declare(cython.uint, 0xEFC60000)
# 2 ** -53: two outputs' 27 and 26 top bits make a number below 1 of 53 bits, as `random.Random.random`.
_UNIT = cython.declare(cython.double, 1.0 / 9007199254740992.0)
# Key words seeded in C: a text's bytes and its 64-byte SHA-512, in 32-bit words (a text of up to 574 bytes). A longer
# text seeds a `random.Random` that the Twister asks instead.
_MAX_KEY = cython.declare(cython.Py_ssize_t, 160)

# The state `init_by_array` starts from, `init_genrand(19650218)`: the same for every key, so made once (compiled).
_GENRAND = cython.declare(cython.uint[624])


@cython.locals(i=cython.Py_ssize_t, previous=cython.uint)
def _init_genrand() -> None:
    _GENRAND[0] = 19650218
    for i in range(1, _N):
        previous = _GENRAND[i - 1]
        _GENRAND[i] = cython.cast(cython.uint, 1812433253 * (previous ^ (previous >> 30)) + i)


if cython.compiled:
    _init_genrand()

_random_shuffle = random.Random.shuffle
_random_random = random.Random.random


class Twister:
    """`random.Random(text)` for `shuffle` and `random`: the same numbers, in the same order, from the same text."""

    __slots__ = ("_index", "_python", "_state")

    def __init__(self, text: str) -> None:
        self._index = _N
        self._python = None
        if not cython.compiled:
            self._python = random.Random(text)
            return
        data = text.encode()
        key = data + hashlib.sha512(data).digest()
        if len(key) > 4 * _MAX_KEY:
            self._python = random.Random(text)
            return
        self._seed(key)

    @cython.locals(
        length=cython.Py_ssize_t,
        start=cython.Py_ssize_t,
        used=cython.Py_ssize_t,
        w=cython.Py_ssize_t,
        b=cython.Py_ssize_t,
        i=cython.Py_ssize_t,
        j=cython.Py_ssize_t,
        k=cython.Py_ssize_t,
        word=cython.uint,
        previous=cython.uint,
        mixed=cython.uint,
        state=cython.p_uint,
    )
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _seed(self, key: bytes) -> None:
        """CPython's `random_seed` for the integer whose big-endian bytes are `key`: its 32-bit words, least
        significant first (leading zero bytes count for nothing), then `init_by_array` (MT19937's reference)."""
        words = cython.declare(cython.uint[160])  # _MAX_KEY words
        state = self._state
        length = len(key)
        start = 0
        while start < length and key[start] == 0:
            start += 1
        used = (length - start + 3) // 4
        if used == 0:
            used = 1
        for w in range(used):
            word = 0
            for b in range(4):  # word w's bytes, most significant first: key[length - 4w - 4] .. key[length - 4w - 1]
                i = length - 4 * w - 4 + b
                word = (word << 8) | (cython.cast(cython.uchar, key[i]) if i >= start else 0)
            words[w] = word
        for i in range(_N):  # init_genrand(19650218), the same for every text
            state[i] = _GENRAND[i]
        i, j = 1, 0
        k = max(_N, used)
        while k > 0:
            previous = state[i - 1]
            mixed = cython.cast(cython.uint, (previous ^ (previous >> 30)) * 1664525)
            state[i] = cython.cast(cython.uint, (state[i] ^ mixed) + words[j] + j)
            i += 1
            j += 1
            if i >= _N:
                state[0] = state[_N - 1]
                i = 1
            if j >= used:
                j = 0
            k -= 1
        k = _N - 1
        while k > 0:
            previous = state[i - 1]
            mixed = cython.cast(cython.uint, (previous ^ (previous >> 30)) * 1566083941)
            state[i] = cython.cast(cython.uint, (state[i] ^ mixed) - i)
            i += 1
            if i >= _N:
                state[0] = state[_N - 1]
                i = 1
            k -= 1
        state[0] = _UPPER
        self._index = _N

    @cython.locals(kk=cython.Py_ssize_t, y=cython.uint, state=cython.p_uint)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _next(self) -> cython.uint:
        """MT19937's next 32-bit output (CPython's `genrand_uint32`), each word twisted as it is reached.

        CPython twists all 624 words at once when the last is used up; a hand's generator draws a hundred or two.
        Word k's twist reads word k + 1 before its own twist and word k + 397 (k + 397 - 624 from word 227 on) as
        the batch would find it (after its twist when that word comes earlier), so twisting each word just before
        it is output gives the same words in the same order."""
        state = self._state
        kk = self._index
        if kk >= _N:
            kk = 0
        if kk < _N - _M:
            y = (state[kk] & _UPPER) | (state[kk + 1] & _LOWER)
            state[kk] = state[kk + _M] ^ (y >> 1) ^ (_MATRIX if y & 1 else 0)
        elif kk < _N - 1:
            y = (state[kk] & _UPPER) | (state[kk + 1] & _LOWER)
            state[kk] = state[kk + (_M - _N)] ^ (y >> 1) ^ (_MATRIX if y & 1 else 0)
        else:
            y = (state[_N - 1] & _UPPER) | (state[0] & _LOWER)
            state[_N - 1] = state[_M - 1] ^ (y >> 1) ^ (_MATRIX if y & 1 else 0)
        y = state[kk]
        self._index = kk + 1
        y ^= y >> 11
        y ^= (y << 7) & _TEMPER_B
        y ^= (y << 15) & _TEMPER_C
        y ^= y >> 18
        return y

    def random(self) -> float:
        """Exactly `random.Random(text).random()` after the same draws: 53 bits from two outputs."""
        if self._python is not None:
            return _random_random(self._python)
        a = self._next() >> 5
        b = self._next() >> 6
        return (a * 67108864.0 + b) * _UNIT

    @cython.locals(i=cython.Py_ssize_t, j=cython.Py_ssize_t, n=cython.Py_ssize_t, bits=cython.int)
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def shuffle(self, items: list) -> None:
        """Exactly `random.Random(text).shuffle(items)` after the same draws: from the last place down, a place
        below its count drawn as `getrandbits` of the count's bit length (the top bits of one output), again
        while it is not below."""
        if self._python is not None:
            _random_shuffle(self._python, items)
            return
        i = len(items) - 1
        bits = 0
        while (1 << bits) <= i + 1:  # the bit length of the first count, len(items)
            bits += 1
        while i > 0:
            n = i + 1
            if (1 << (bits - 1)) > n:  # counts go down one by one, so their bit length by at most one
                bits -= 1
            j = self._next() >> (32 - bits)
            while j >= n:
                j = self._next() >> (32 - bits)
            items[i], items[j] = items[j], items[i]
            i -= 1
