# Compiled, `HandBase` (hand_base.py) is an extension type with these fields, the ones every hand shares (its
# `__slots__`): read at a fixed offset. tests/engine/test_hand_layout.py holds the two lists together.
cdef class HandBase:
    cdef public object number, dealer, options, variant, structure, levels, carry_in, carry_out, dice
    cdef public object _seed, commitment, odd_credits, round, returned, _pots_key
    cdef public list seats, names, _stacks, _draw, _discard, reshuffled, _live, _log, _actions, awards, _waiting, _pots
    cdef public tuple _deck
    cdef public dict contributions, forced, scores, _legal
    cdef public set folded
    cdef public str phase
