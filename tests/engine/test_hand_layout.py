"""The hands' compiled layout (`games/engine/**/*.pxd`) and their plain Python `__slots__` name the same fields."""

import re
from pathlib import Path

import pytest

from games.engine.classic.hand import ClassicHand
from games.engine.coruscant.hand import Hand
from games.engine.hand_base import HandBase
from games.engine.spike.hand import SpikeHand

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
    ("cls", "pxd"),
    [
        (HandBase, "hand_base.pxd"),
        (Hand, "coruscant/hand.pxd"),
        (ClassicHand, "classic/hand.pxd"),
        (SpikeHand, "spike/hand.pxd"),
    ],
)
def test_each_hand_declares_the_fields_its_slots_name(cls, pxd):
    own = set(cls.__dict__["__slots__"])
    assert own, cls
    assert _declared(ENGINE / pxd, cls.__name__) == own


def test_the_variants_hands_add_no_shared_field_again():
    shared = set(HandBase.__slots__)
    for cls in (Hand, ClassicHand, SpikeHand):
        assert not shared & set(cls.__dict__["__slots__"]), cls
        assert issubclass(cls, HandBase)
