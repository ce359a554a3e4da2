# Compiled, Coruscant Shift's `Hand` is an extension type: these are its own fields (its `__slots__`), after
# HandBase's.
from games.engine.hand_base cimport HandBase

cdef class Hand(HandBase):
    cdef public object _actor, _big_blind_seat, _blinds, _cards, _chosen_now, _given_piles, _phase_start
    cdef public object _reshuffles, _selection, _tie_draws, acted, pools_out
