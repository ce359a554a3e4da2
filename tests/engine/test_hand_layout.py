"""The compiled layout of the hands and the game (`games/engine/**/*.pxd`) and their plain Python `__slots__` name
the same fields, and every field is set when the object is built: compiled, an extension type's unset field reads
as None where a plain slot would raise, so no code may rely on either."""

import ast
import re
from pathlib import Path

import pytest

from games import native
from games.engine.classic.hand import ClassicHand
from games.engine.coruscant.hand import Hand
from games.engine.hand_base import HandBase
from games.engine.spike.hand import SpikeHand
from games.engine.state import Game

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def _declared(pxd: Path, cls: str) -> set[str]:
    text = pxd.read_text()
    body = text.split(f"cdef class {cls}", 1)[1]
    return {
        name.strip()
        for line in body.splitlines()
        if (m := re.match(r"\s+cdef public \w+ (.+)", line))
        for name in m.group(1).split(",")
    }


@pytest.mark.parametrize(
    ("cls", "pxd", "declared_on"),
    [
        (HandBase, "hand_base.pxd", "HandBase"),
        (Hand, "coruscant/hand.pxd", "Hand"),
        (ClassicHand, "classic/hand.pxd", "ClassicHand"),
        (SpikeHand, "spike/hand.pxd", "SpikeHand"),
        # `Game`'s fields are declared on its base, whose operations read them too.
        (Game, "between_hands.pxd", "BetweenHands"),
    ],
)
def test_each_class_declares_the_fields_its_slots_name(cls, pxd, declared_on):
    own = set(cls.__dict__["__slots__"])
    assert own, cls
    assert _declared(ENGINE / pxd, declared_on) == own


def _set_in(cls: type, methods: tuple[str, ...]) -> set[str]:
    """The fields `self.x = ...` sets in `methods` of `cls` and its bases, read from their source files (compiled,
    a method has no source to ask for)."""
    names = set()
    for klass in cls.__mro__[:-1]:
        tree = ast.parse(native.source_of(klass.__module__).read_text())
        (body,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == klass.__name__]
        for function in body.body:
            if isinstance(function, ast.FunctionDef) and function.name in methods:
                for node in ast.walk(function):
                    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
                    for target in targets:
                        if isinstance(target, ast.Attribute) and getattr(target.value, "id", "") == "self":
                            names.add(target.attr)
    return names


@pytest.mark.parametrize("cls", [Hand, ClassicHand, SpikeHand, Game])
def test_every_field_is_set_when_the_object_is_built(cls):
    fields = {name for klass in cls.__mro__ for name in klass.__dict__.get("__slots__", ())}
    assert fields - _set_in(cls, ("__init__", "_start")) == set()


def test_the_variants_hands_add_no_shared_field_again():
    shared = set(HandBase.__slots__)
    for cls in (Hand, ClassicHand, SpikeHand):
        assert not shared & set(cls.__dict__["__slots__"]), cls
        assert issubclass(cls, HandBase)
