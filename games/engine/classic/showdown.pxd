# Compiled, the middle of Classic's chain: HandBase -> ClassicPlays -> ClassicShowdown -> ClassicHand.
from games.engine.classic.plays cimport ClassicPlays

cdef class ClassicShowdown(ClassicPlays):
    pass
