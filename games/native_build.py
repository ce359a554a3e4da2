"""Build the engine's compiled copies (`games/native.py`): `python -m games.native_build`.

Cython turns each module of `games.native.MODULES` into C, the C compiler builds one extension per module,
in parallel, under `.native/`; the manifest (source SHA-256 per module) is written last, so a build that
fails half-way leaves the previous manifest, whose stale entries are simply not used. Without a C compiler
or Cython the build says so and the engine runs as plain Python; with `--strict` (CI) that is an error.
"""

import argparse
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

from games.native import BUILD, MANIFEST, MODULES, ROOT, digest, sort_copies, source_of

DIRECTIVES = {
    "language_level": 3,
    # Annotations stay hints, as in CPython: the engine checks its inputs itself (`verify_*`).
    "annotation_typing": False,
    "binding": True,
    "embedsignature": False,
}


def _previous() -> dict:
    try:
        manifest = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return {}
    if manifest.get("python") != sys.implementation.cache_tag or manifest.get("suffix") != _suffix():
        return {}
    return manifest


def _suffix() -> str:
    return sysconfig.get_config_var("EXT_SUFFIX")


def out_of_date(manifest: dict) -> tuple[str, ...]:
    """The modules whose compiled copy is missing or was built from other source."""
    return tuple(sort_copies(manifest)[1])


def build(modules: tuple[str, ...] | None = None) -> dict:
    """Compile `modules` (default: those out of date) and return the new manifest."""
    previous = _previous()
    if modules is None:
        modules = out_of_date(previous)
    if not modules:
        return previous
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    suffix = _suffix()
    extensions = [Extension(module, [str(source_of(module).relative_to(ROOT))]) for module in modules]
    hashes = {module: digest(source_of(module)) for module in modules}
    workers = os.cpu_count() or 1
    # No debug symbols and -O2 (after Python's own -g -O3): half the compile time, the same speed measured.
    os.environ.setdefault("CFLAGS", "-g0 -O2")
    with tempfile.TemporaryDirectory(prefix="sabacc-native-") as work:
        here = os.getcwd()
        os.chdir(ROOT)
        try:
            compiled = cythonize(
                extensions,
                build_dir=str(Path(work) / "c"),
                compiler_directives=DIRECTIVES,
                nthreads=workers,
                quiet=True,
            )
            command = build_ext(Distribution({"ext_modules": compiled, "script_name": "native_build"}))
            command.build_lib = str(Path(work) / "lib")
            command.build_temp = str(Path(work) / "tmp")
            command.parallel = workers
            command.ensure_finalized()
            command.run()
        finally:
            os.chdir(here)
        BUILD.mkdir(exist_ok=True)
        entries = {m: e for m, e in previous.get("modules", {}).items() if m in MODULES}
        for module in modules:
            relative = Path(*module.split(".")).with_name(module.rsplit(".", 1)[-1] + suffix)
            target = BUILD / "lib" / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            # A new file, renamed into place: a process that has the old copy loaded keeps it intact.
            staged = target.with_name(target.name + ".new")
            shutil.copyfile(Path(work) / "lib" / relative, staged)
            os.replace(staged, target)
            entries[module] = {"file": str(target.relative_to(BUILD)), "sha256": hashes[module]}
    manifest = {"python": sys.implementation.cache_tag, "suffix": suffix, "modules": entries}
    staged = MANIFEST.with_name("manifest.json.new")
    staged.write_text(json.dumps(manifest, indent=1, sort_keys=True))
    os.replace(staged, MANIFEST)
    return manifest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true", help="fail when the engine cannot be compiled (CI)")
    args = parser.parse_args()
    stale = out_of_date(_previous())
    if not stale:
        print("The compiled engine is up to date.")
        return 0
    # Said before the compiler's long silence (minutes on a busy 2-core machine), so a first `make run` does not
    # look stuck.
    print(
        f"Compiling {len(stale)} engine module(s) with Cython on {os.cpu_count() or 1} core(s): about a minute on 2 "
        "idle cores the first time, then only the modules whose source changed.",
        flush=True,
    )
    try:
        manifest = build(stale)
    except Exception as exc:  # any failure leaves plain Python: correct, only slower
        message = f"The engine could not be compiled ({type(exc).__name__}: {exc}); it runs as plain Python."
        print(message, file=sys.stderr)
        return 1 if args.strict else 0
    print(
        f"Compiled {len(stale)} engine module(s) with Cython ({len(manifest['modules'])} in all, in "
        f"{BUILD.relative_to(ROOT)}/)."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
