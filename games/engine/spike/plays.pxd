from games.engine.hand_base cimport HandBase

cdef class SpikePlays(HandBase):
    pass
