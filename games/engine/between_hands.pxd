# Compiled, `BetweenHands` and `Game` (state.py) are extension types: these are `Game`'s fields (its `__slots__`),
# declared on the base whose between-hands operations read them too.
cdef class BetweenHands:
    cdef public object _current_index, _history_from, _loading, _master, _replay_version, carry, dealer, entropy
    cdef public object first_dealer, hand, hands_played, levels, levels_set, options, over, preset, variant
    cdef public list _history, _tail, dealer_draw, item_transfers, names, results, stacks, starting_names
    cdef public list starting_stacks
    cdef public dict _pre, items, leftovers_paid, out_at, pools
    cdef public set dealt, left
