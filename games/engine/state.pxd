from games.engine.between_hands cimport BetweenHands

cdef class Game(BetweenHands):
    pass
