"""The variants the engine plays, registered in this order: the first is the default variant, and lists of
variants (choice lists, option forms) follow it. Adding a variant is adding its package (a `Variant` subclass
in its `variant` module) and a line here; the core modules never name a variant."""

from games.engine.classic.variant import CLASSIC
from games.engine.coruscant.variant import CORUSCANT_SHIFT
from games.engine.spike.variant import CORELLIAN_SPIKE
from games.engine.variant import register

for _variant in (CORUSCANT_SHIFT, CLASSIC, CORELLIAN_SPIKE):
    register(_variant)
