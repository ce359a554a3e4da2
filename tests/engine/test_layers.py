"""The engine's shape: pure (no Django, nothing outside the standard library but Cython's hints), no import
circles (imports inside functions included), and a core that never names a variant: each variant is a package
behind `Variant` and `VariantHand`, registered in `games.engine.variants`."""

import ast
import sys
from dataclasses import fields
from pathlib import Path
from random import Random

import pytest

from games.engine.state import Game
from games.engine.variant import Variant, VariantHand, get_variant, variant_names
from games.engine.variant_options import VariantOptions
from tests.engine.imports import imports_run

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
VARIANT_PACKAGES = ("games.engine.coruscant", "games.engine.spike", "games.engine.classic")
# The old import paths of names that moved into a variant's package, kept for callers outside the engine.
SHIMS = {
    "games.engine.options",
    "games.engine.hand",
    "games.engine.evaluation",
    "games.engine.dice",
    "games.engine.coruscant_shift",
    "games.engine.bots.selection",
    "games.engine.bots.spike",
    "games.engine.bots.classic",
}
# The package's front door (it re-exports a few names of the default variant) and the registration list.
FRONT = {"games.engine", "games.engine.variants"}


def module_name(path: Path) -> str:
    parts = ["games", "engine", *path.relative_to(ENGINE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(ENGINE.rglob("*.py"))}


def runtime_imports(path: Path) -> set[str]:
    return imports_run(path, MODULES)


GRAPH = {name: {m for m in runtime_imports(path) if m in MODULES} for name, path in MODULES.items()}


def test_the_walk_sees_function_level_imports():
    """The walker is not blind to an import inside a function (state.py loads `serialize` that way)."""
    assert "games.engine.serialize" in GRAPH["games.engine.state"]
    assert "games.engine.classic.variant" in GRAPH["games.engine.variants"]


def test_no_import_circles_in_the_engine():
    """No module reaches itself again through the imports it runs, function-level ones included."""
    circles = []
    for start in GRAPH:
        stack = [(start, [start])]
        seen = set()
        while stack:
            name, trail = stack.pop()
            for nxt in GRAPH[name]:
                if nxt == start:
                    circles.append(" -> ".join([*trail, nxt]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*trail, nxt]))
    assert not circles, circles[:5]


def test_the_engine_is_pure():
    """Nothing in games/engine imports Django or anything beyond the standard library, Cython and the engine."""
    allowed = set(sys.stdlib_module_names) | {"cython"}
    for name, path in MODULES.items():
        for imported in runtime_imports(path):
            top = imported.split(".")[0]
            assert top in allowed or imported.startswith("games.engine"), f"{name} imports {imported}"
            assert not imported.startswith("django"), f"{name} imports {imported}"


def core_modules() -> dict[str, Path]:
    return {
        name: path
        for name, path in MODULES.items()
        if name not in SHIMS | FRONT
        and not name.startswith(tuple(f"{p}." for p in VARIANT_PACKAGES) + VARIANT_PACKAGES)
    }


def test_the_core_never_names_a_variant():
    """Core modules import no variant package and hold no variant's name as a string: a variant comes in only
    through the registry (`get_variant`, `default_variant`)."""
    names = set(variant_names())
    core = core_modules()
    assert "games.engine.state" in core and "games.engine.between_hands" in core and "games.engine.bots.base" in core
    for name, path in core.items():
        for imported in GRAPH[name]:
            assert not imported.startswith(VARIANT_PACKAGES), f"{name} imports {imported}"
        strings = {
            node.value
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        }
        assert not strings & names, f"{name} names {strings & names}"


def test_nothing_in_the_engine_uses_the_old_import_paths():
    """The old paths are for callers outside the engine; inside it (but its front door) each name comes from home."""
    for name in MODULES:
        if name in SHIMS | {"games.engine"}:
            continue
        assert not GRAPH[name] & SHIMS, f"{name} imports {GRAPH[name] & SHIMS}"


def test_no_engine_module_passes_600_lines():
    long = {name: n for name, path in MODULES.items() if (n := len(path.read_text().splitlines())) > 600}
    assert not long, long


@pytest.mark.parametrize("name", ["coruscant_shift", "classic", "corellian_spike"])
def test_each_variant_is_a_package_behind_the_plug_in(name):
    """Each registered variant is a `Variant` from its own package, whose hand class has every member of
    `VariantHand` and whose options derive from `VariantOptions` (one `to_dict`/`from_dict` for all)."""
    variant = get_variant(name)
    assert isinstance(variant, Variant)
    assert type(variant).__module__.startswith(VARIANT_PACKAGES)
    members = {m for m in vars(VariantHand) if not m.startswith("_abc") and not m.startswith("_is_")}
    members = {m for m in members if not m.startswith("__")} | set(VariantHand.__annotations__)
    options = variant.options_class()
    game = Game.new(options=options, players=[("A", 50), ("B", 50), ("C", 50)], dealer=0, rng=Random(1), variant=name)
    hand = game.start_hand()
    assert isinstance(hand, variant.hand_class)
    missing = {m for m in members if not hasattr(hand, m)}
    assert not missing, missing
    assert issubclass(variant.options_class, VariantOptions)
    assert type(options).from_dict(options.to_dict()) == options
    assert all(f.name in options.to_dict() or f.name in options.OMITTED_AT for f in fields(options))
    assert variant.sensible_decision is not None
