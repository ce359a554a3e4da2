"""Classic Sabacc (RULES section 3, seed 003): the 76-card deck, rolls and Sabacc Shifts, the interference
field, bombing out, Sudden Demise and the Sabacc pot. Pure modules, each with one job:

- `cards`: the deck and its codes; `order`: the seeded order of unlisted cards (replays);
- `dice`: rolls of two dice, a pair sets off a Shift; `ranking`: hands and their order;
- `options`: the options dataclass and the presets `classic` and `universe`;
- `settle`: deciding pots with Sudden Demise, penalties and the Sabacc pot;
- `hand`: one hand of play; `variant`: the plug-in for `Game`; `replay`: the replay format.
"""
