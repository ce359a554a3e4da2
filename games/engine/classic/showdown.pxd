from games.engine.classic.plays cimport ClassicPlays

cdef class ClassicShowdown(ClassicPlays):
    pass
