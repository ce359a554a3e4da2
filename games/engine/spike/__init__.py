"""Corellian Spike, Galaxy Series (RULES section 2 in docs/rules.md): the second variant on the shared engine.

`options` (the options dataclass and the presets `galaxy_series` and `cantina_spike`), `evaluation`
(the special-hand hierarchy and the tie-breaker chain), `dice` (the spike dice), `hand` (one hand: antes,
deal, market, card turns, spikes, betting, reveal, the main pot and the Sabacc pot) and `variant` (the
plug-in registered as `corellian_spike`).
"""
