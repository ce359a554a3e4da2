"""The variants the engine plays, registered in this order: the first is the default variant, and lists of
variants (choice lists, option forms) follow it. Adding a variant is adding its package (a `Variant` subclass
in its `variant` module) and a line here; the core modules never name a variant."""

from games.engine.classic.variant import CLASSIC
from games.engine.coruscant.variant import CORUSCANT_SHIFT
from games.engine.spike.variant import CORELLIAN_SPIKE
from games.engine.variant import register

for _variant in (CORUSCANT_SHIFT, CLASSIC, CORELLIAN_SPIKE):
    register(_variant)

# How each variant is played at a table with real cards (games/engine/realcards/).
from games.engine.classic.realcards import ClassicTable  # noqa: E402  # isort: skip
from games.engine.coruscant.realcards import CoruscantTable  # noqa: E402  # isort: skip
from games.engine.realcards.tables import register_table  # noqa: E402  # isort: skip
from games.engine.spike.realcards import SpikeTable  # noqa: E402  # isort: skip

for _name, _table in (
    (CORUSCANT_SHIFT.name, CoruscantTable()),
    (CLASSIC.name, ClassicTable()),
    (CORELLIAN_SPIKE.name, SpikeTable()),
):
    register_table(_name, _table)
