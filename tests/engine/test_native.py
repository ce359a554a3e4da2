"""The compiled engine (games/native.py) plays exactly like the plain-Python one, and is what CI runs."""

import importlib
import json
import os
import subprocess
import sys

import pytest

import games.native as native
from tests.engine.native_digest import fingerprint


def _fingerprint_in(engine: str | None) -> tuple[str, int, str]:
    env = {key: value for key, value in os.environ.items() if key != "SABACC_ENGINE"}
    if engine:
        env["SABACC_ENGINE"] = engine
    out = subprocess.run(
        [sys.executable, "-m", "tests.engine.native_digest"],
        cwd=native.ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout.splitlines()
    digest, decisions = out[0].split()
    return digest, int(decisions), out[1]


def test_compiled_and_plain_engines_play_the_same_games():
    plain, plain_decisions, plain_mode = _fingerprint_in("python")
    assert plain_mode.startswith("engine as plain Python")
    assert plain_decisions > 1000  # every variant and preset really played
    here, here_decisions = fingerprint()
    assert (here, here_decisions) == (plain, plain_decisions), native.describe()


@pytest.mark.skipif(os.environ.get("CI") != "true", reason="only CI promises a C compiler")
def test_ci_runs_the_compiled_engine():
    # CI measures and tests what `make install` ships: every hot module compiled and loaded.
    for module in native.MODULES:
        importlib.import_module(module)
    info = native.status()
    assert sorted(info["compiled"]) == sorted(native.MODULES), info


def test_a_changed_source_is_run_as_python(tmp_path, monkeypatch):
    # A manifest whose hash no longer matches the source: that module is stale and not loaded compiled.
    module = "games.engine.pots"
    compiled = tmp_path / "lib" / "pots.so"
    compiled.parent.mkdir()
    compiled.write_bytes(b"not loaded")
    manifest = {
        "python": sys.implementation.cache_tag,
        "suffix": native.EXTENSION_SUFFIXES[0],
        "modules": {
            module: {"file": "lib/pots.so", "sha256": "0" * 64},
            "games.engine.views": {
                "file": "lib/pots.so",
                "sha256": native.digest(native.source_of("games.engine.views")),
            },
        },
    }
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    monkeypatch.setattr(native, "BUILD", tmp_path)
    monkeypatch.setattr(native, "MANIFEST", tmp_path / "manifest.json")
    monkeypatch.delenv("SABACC_ENGINE", raising=False)
    ready, stale, reason = native._current()
    assert module in stale and module not in ready
    assert ready == {"games.engine.views": compiled}
    assert reason == ""


def test_plain_python_on_request(monkeypatch):
    monkeypatch.setenv("SABACC_ENGINE", "python")
    assert native._current() == ({}, [], "SABACC_ENGINE=python")


def _manifest_of_every_module(tmp_path, stale: str) -> dict:
    compiled = tmp_path / "lib" / "copy.so"
    compiled.parent.mkdir(exist_ok=True)
    compiled.write_bytes(b"not loaded")
    modules = {
        m: {"file": "lib/copy.so", "sha256": "0" * 64 if m == stale else native.digest(native.source_of(m))}
        for m in native.MODULES
    }
    return {"python": sys.implementation.cache_tag, "suffix": native.EXTENSION_SUFFIXES[0], "modules": modules}


def test_the_hands_extension_types_load_together_or_not_at_all(tmp_path, monkeypatch):
    # A compiled Corellian Spike hand cannot load over a plain Python `HandBase`: one stale hand module keeps
    # every module with a `.pxd` (the hands and their bases) plain, and the rest compiled.
    monkeypatch.setattr(native, "BUILD", tmp_path)
    declared = {m for m in native.MODULES if native.source_of(m).with_suffix(".pxd").is_file()}
    assert {"games.engine.hand_base", "games.engine.spike.hand", "games.engine.classic.hand"} <= declared
    ready, stale = native.sort_copies(_manifest_of_every_module(tmp_path, "games.engine.hand_base"))
    assert declared <= set(stale) and not declared & set(ready)
    assert "games.engine.pots" in ready and "games.engine.betting" in ready
    ready, stale = native.sort_copies(_manifest_of_every_module(tmp_path, "games.engine.pots"))
    assert stale == ["games.engine.pots"] and declared <= set(ready)


def test_a_declaration_or_a_declared_module_changes_every_digest(tmp_path, monkeypatch):
    # The `.pxd` files and the modules they declare are part of every module's digest: edit one and every compiled
    # copy is stale until the next build.
    engine = tmp_path / "games" / "engine"
    engine.mkdir(parents=True)
    source = engine / "pots.py"
    source.write_text("x = 1\n")
    monkeypatch.setattr(native, "ROOT", tmp_path)
    monkeypatch.setattr(native, "ENGINE", engine)
    alone = native.digest(source)
    (engine / "hand_base.py").write_text("class HandBase: ...\n")
    (engine / "hand_base.pxd").write_text("cdef class HandBase:\n    pass\n")
    native._DECLARED.clear()  # worked out once per process: a new process sees the change
    declared = native.digest(source)
    (engine / "hand_base.py").write_text("class HandBase:\n    pass\n")
    native._DECLARED.clear()
    edited = native.digest(source)
    assert len({alone, declared, edited}) == 3


def test_the_build_says_what_it_compiles_before_the_compilers_long_silence(monkeypatch, capsys):
    """A first `make run` sat for minutes on `python -m games.native_build` with nothing printed: the build now says
    what it compiles and how long that takes before it starts, and what it did after."""
    from games import native_build

    printed_before_building = []

    def build(modules):
        printed_before_building.append(capsys.readouterr().out)
        return {"modules": dict.fromkeys(modules)}

    monkeypatch.setattr(native_build, "out_of_date", lambda manifest: ("games.engine.cards", "games.engine.pots"))
    monkeypatch.setattr(native_build, "build", build)
    monkeypatch.setattr(sys, "argv", ["native_build"])
    assert native_build.main() == 0
    assert printed_before_building[0].startswith("Compiling 2 engine module(s) with Cython on ")
    assert "about a minute" in printed_before_building[0]
    assert capsys.readouterr().out.startswith("Compiled 2 engine module(s) with Cython")
