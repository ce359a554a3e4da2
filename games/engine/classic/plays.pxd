# Compiled, Classic's plays and showdown are the middle of its hand's chain:
# HandBase -> ClassicPlays -> ClassicShowdown -> ClassicHand.
from games.engine.hand_base cimport HandBase

cdef class ClassicPlays(HandBase):
    pass
