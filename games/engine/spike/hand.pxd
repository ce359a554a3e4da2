# Compiled, `SpikeHand` is an extension type: these are its own fields (its `__slots__`), after HandBase's.
from games.engine.spike.plays cimport SpikePlays

cdef class SpikeHand(SpikePlays):
    cdef public object _given_piles, sabacc_in, sabacc_award, round_number, rolled, _final_cards
    cdef public list _market, _aside, purchases, _pending
    cdef public dict _cards, sabacc_antes, card_costs, pools_out, card_costs_paid
    cdef public set acted
