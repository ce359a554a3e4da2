# Compiled, `ClassicHand` is an extension type: these are its own fields (its `__slots__`), after HandBase's.
from games.engine.classic.showdown cimport ClassicShowdown

cdef class ClassicHand(ClassicShowdown):
    cdef public object _field, _hand, _pending_roll, _skipped_from_start, _turn_index, _turns, called_by, chance
    cdef public object declared, demise_cards, ended, penalties, reveal, revealed_cards, rolls, round_number
    cdef public object sabacc_antes, sabacc_award, sabacc_before, sabacc_from_pots, sabacc_penalties, sabacc_pot
    cdef public object shifts, stalled
