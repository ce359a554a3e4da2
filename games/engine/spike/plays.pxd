# Compiled, Corellian Spike's operations are the middle of its hand's chain: HandBase -> SpikePlays -> SpikeHand.
from games.engine.hand_base cimport HandBase

cdef class SpikePlays(HandBase):
    pass
