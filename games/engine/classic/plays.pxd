from games.engine.hand_base cimport HandBase

cdef class ClassicPlays(HandBase):
    pass
