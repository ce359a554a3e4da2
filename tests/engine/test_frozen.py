"""`builder(cls)` makes the same frozen objects as the class itself, for slotted classes and for classes whose
objects get their whole `__dict__` at once (the legal actions and decisions made on every decision)."""

import dataclasses

import pytest

from games.engine.betting import LegalActions
from games.engine.bots.base import Decision
from games.engine.classic.hand import ClassicLegal
from games.engine.frozen import builder
from games.engine.pots import Pot
from games.engine.records import Record


@pytest.mark.parametrize(
    ("cls", "args", "kwargs"),
    [
        (LegalActions, (3, "betting"), {"can_call": True, "call_amount": 4, "can_fold": True}),
        (ClassicLegal, (1, "play"), {"can_draw": True, "can_stand": True, "tradeable": ("+3s",), "lockable": ()}),
        (Decision, ("bet",), {"amount": 5, "call_hand": True}),
        (Pot, (40, (0, 2)), {}),
        (Record, ("bet",), {"seat": 2, "amount": 10}),
    ],
)
def test_a_built_object_is_the_class_s_own(cls, args, kwargs):
    built, made = builder(cls)(*args, **kwargs), cls(*args, **kwargs)
    assert type(built) is cls
    assert built == made and hash(built) == hash(made) and repr(built) == repr(made)
    for field in dataclasses.fields(cls):
        assert getattr(built, field.name) == getattr(made, field.name), field.name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, dataclasses.fields(cls)[0].name, None)
    assert builder(cls)(*args) == cls(*args)  # the defaults are the class's


def test_classes_it_cannot_build_are_refused():
    @dataclasses.dataclass(frozen=True)
    class Later:
        items: list = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True)
    class Checked:
        value: int

        def __post_init__(self) -> None:
            pass

    for cls in (Later, Checked):
        with pytest.raises(TypeError):
            builder(cls)
