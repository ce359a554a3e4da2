# Compiled, `Game` is an extension type; its fields are declared on `BetweenHands` (between_hands.pxd).
from games.engine.between_hands cimport BetweenHands

cdef class Game(BetweenHands):
    pass
