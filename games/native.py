"""The engine's compiled copies: its hottest modules, built with Cython from the same Python source.

`make install` runs `python -m games.native_build`, which compiles the modules in `MODULES` into `.native/`
beside the project and writes a manifest of the SHA-256 of each source it compiled. When `games` is
imported, `install()` puts a finder in front of Python's own that loads a compiled copy **only when its
source is unchanged**: edit `games/engine/views.py` and the next import takes the `.py` again until the next
build. No compiled copy, a stale one, or `SABACC_ENGINE=python` in the environment: the engine runs as plain
Python, with the same results (`tests/engine/test_native.py` plays the same seeded games both ways).

Nothing here changes what the engine does; it changes how fast CPython runs it.
"""

import hashlib
import json
import os
import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, ModuleSpec
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / ".native"
MANIFEST = BUILD / "manifest.json"
ENGINE = ROOT / "games" / "engine"

# The modules a hand runs through on every decision (states and between hands, betting, pots, views, the hands'
# shared base, the three variants' hands with their actions, plays and showdowns, the random bots of each
# variant); the rest of the engine (replay, options, serialisation) stays plain Python.
MODULES = (
    "games.engine.state",
    "games.engine.between_hands",
    "games.engine.views",
    "games.engine.betting",
    "games.engine.pots",
    "games.engine.shuffle",
    "games.engine.twister",
    "games.engine.draws",
    "games.engine.chips",
    "games.engine.hand_base",
    "games.engine.coruscant.hand",
    "games.engine.coruscant.summary",
    "games.engine.coruscant.dice",
    "games.engine.classic.hand",
    "games.engine.classic.actions",
    "games.engine.classic.plays",
    "games.engine.classic.showdown",
    "games.engine.classic.chance",
    "games.engine.classic.ranking",
    "games.engine.classic.cards",
    "games.engine.spike.hand",
    "games.engine.spike.actions",
    "games.engine.spike.plays",
    "games.engine.variant",
    "games.engine.records",
    "games.engine.classic.variant",
    "games.engine.bots.base",
    "games.engine.bots.random_legal",
    "games.engine.classic.bots",
    "games.engine.spike.bots",
    "games.engine.cards",
    "games.engine.forced",
    "games.engine.ties",
    "games.engine.variant_options",
    "games.engine.coruscant.variant",
    "games.engine.coruscant.evaluation",
    "games.engine.spike.variant",
    "games.engine.spike.evaluation",
    "games.engine.spike.dice",
    "games.engine.classic.dice",
    "games.engine.classic.settle",
)


def source_of(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def digest(path: Path) -> str:
    """The SHA-256 of a module's source, of the engine's `.pxd` declarations and of the modules they declare.

    A `.pxd` makes its module's classes extension types (the hands: `hand_base.pxd` and each variant's; the game;
    the seeded generator, `twister.pxd`) whose layout the modules that derive from or use them are compiled against;
    a compiled subclass cannot load over a plain Python base. So a change to any of those files makes every compiled
    copy stale: all or none of them load.
    """
    return hashlib.sha256(path.read_bytes() + _declarations(ENGINE)).hexdigest()


def _declarations(engine: Path) -> bytes:
    """The digest of the `.pxd` files under `engine` and of their modules, worked out once per process (each of the
    compiled modules asks when `games` is imported)."""
    digest = _DECLARED.get(engine)
    if digest is None:
        sha = hashlib.sha256()
        for declaration in sorted(engine.rglob("*.pxd")):
            for part in (declaration, declaration.with_suffix(".py")):
                sha.update(str(part.relative_to(engine)).encode() + b"\0" + part.read_bytes())
        digest = _DECLARED[engine] = sha.digest()
    return digest


_DECLARED: dict[Path, bytes] = {}


class _Finder(MetaPathFinder):
    """Finds the compiled copy of a module listed as current; every other import goes on as usual."""

    def __init__(self, ready: dict[str, Path]) -> None:
        self.ready = ready

    def find_spec(self, fullname, path=None, target=None):
        compiled = self.ready.get(fullname)
        if compiled is None:
            return None
        return ModuleSpec(fullname, ExtensionFileLoader(fullname, str(compiled)), origin=str(compiled))


_STATE: dict[str, object] = {"finder": None, "ready": {}, "stale": [], "reason": "not installed"}


def _current() -> tuple[dict[str, Path], list[str], str]:
    """(compiled copies to use, modules whose copy is stale or missing, why nothing is used)."""
    if os.environ.get("SABACC_ENGINE", "").lower() == "python":
        return {}, [], "SABACC_ENGINE=python"
    try:
        manifest = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return {}, [], "no compiled engine (run `make install`)"
    if manifest.get("python") != sys.implementation.cache_tag or not any(
        str(manifest.get("suffix")) == suffix for suffix in EXTENSION_SUFFIXES
    ):
        return {}, [], f"compiled for {manifest.get('python')}, not {sys.implementation.cache_tag}"
    ready, stale = sort_copies(manifest)
    return ready, stale, "" if ready else "every compiled copy is stale"


def sort_copies(manifest: dict) -> tuple[dict[str, Path], list[str]]:
    """(each module's compiled copy built from its current source, the modules whose copy is missing or stale)."""
    ready, stale = {}, []
    for module in MODULES:
        entry = manifest.get("modules", {}).get(module)
        compiled = BUILD / entry["file"] if entry else None
        source = source_of(module)
        if compiled is not None and compiled.is_file() and source.is_file() and entry["sha256"] == digest(source):
            ready[module] = compiled
        else:
            stale.append(module)
    # The hands' extension types derive from each other across modules (each has a `.pxd`): they load together or
    # not at all, since a compiled subclass cannot load over a plain Python base.
    declared = [m for m in MODULES if source_of(m).with_suffix(".pxd").is_file()]
    if any(m in stale for m in declared):
        for module in declared:
            if ready.pop(module, None) is not None:
                stale.append(module)
    return ready, stale


def install() -> None:
    """Put the finder in place (once); a module already imported stays as it is."""
    if _STATE["finder"] is not None:
        return
    ready, stale, reason = _current()
    finder = _Finder(ready)
    sys.meta_path.insert(0, finder)
    _STATE.update(finder=finder, ready=ready, stale=stale, reason=reason)


def status() -> dict:
    """Which engine modules run compiled in this process, which were found stale, and why none are used."""
    loaded = [m for m in MODULES if m in sys.modules and not sys.modules[m].__file__.endswith(".py")]
    return {
        "compiled": loaded,
        "available": sorted(_STATE["ready"]),
        "stale": list(_STATE["stale"]),
        "reason": _STATE["reason"],
    }


def describe() -> str:
    """One line for benchmarks and `manage.py` output: how the engine runs in this process."""
    info = status()
    if info["compiled"]:
        return f"engine compiled with Cython ({len(info['compiled'])} of {len(MODULES)} hot modules)"
    return f"engine as plain Python ({info['reason'] or 'compiled copies not loaded'})"
