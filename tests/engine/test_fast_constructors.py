"""The constructors that skip a dataclass's generated `__init__` (objects made on every decision, filled from compiled
code) make the same frozen objects as the class itself: slotted classes (records, pots) and classes whose objects get
their whole `__dict__` at once (legal actions, decisions)."""

import dataclasses

import pytest

from games.engine.betting import LEGAL_DEFAULTS, BettingRound, LegalActions, NoLimit, legal_from
from games.engine.bots.base import Decision, new_decision
from games.engine.classic.actions import CLASSIC_LEGAL_DEFAULTS
from games.engine.classic.hand import ClassicLegal
from games.engine.classic.ranking import ClassicScore
from games.engine.coruscant.dice import Dice
from games.engine.coruscant.evaluation import Score
from games.engine.forced import NO_LEVELS, Levels, _new_levels
from games.engine.pots import Pot, _new_pot
from games.engine.records import Record, new_record, slotted_builder
from games.engine.spike.dice import SpikeDice
from games.engine.spike.evaluation import SpikeScore


def _legal(defaults: dict, cls: type):
    names = [field.name for field in dataclasses.fields(cls)]
    return lambda *args, **kwargs: legal_from(cls, {**defaults, **dict(zip(names, args, strict=False)), **kwargs})


@pytest.mark.parametrize(
    ("cls", "build", "args", "kwargs"),
    [
        (LegalActions, _legal(LEGAL_DEFAULTS, LegalActions), (3, "betting"), {"can_call": True, "call_amount": 4}),
        (
            ClassicLegal,
            _legal(CLASSIC_LEGAL_DEFAULTS, ClassicLegal),
            (1, "play"),
            {"can_draw": True, "can_stand": True, "tradeable": ("+3s",), "lockable": ()},
        ),
        (Decision, new_decision, ("bet",), {"amount": 5, "call_hand": True}),
        (Decision, new_decision, ("select", ("+3c", "0")), {}),
        (Pot, _new_pot, (40, (0, 2)), {}),
        (Record, new_record, ("bet",), {"seat": 2, "amount": 10}),
        (Record, new_record, ("roll", 1, 7), {"note": "circle"}),
        (SpikeScore, slotted_builder(SpikeScore), ("nulrhek", -3, 4, False, 9, 6, 1), {}),
        (SpikeDice, slotted_builder(SpikeDice), (5, 5), {}),
        (Levels, _new_levels, (3, 1, 2, 4, 2), {}),
        (Dice, slotted_builder(Dice), (-5, "circle"), {}),
        (Score, slotted_builder(Score), (3, 7, 2, 1), {}),
        (ClassicScore, slotted_builder(ClassicScore), ("ordinary", -19, (1, 19, False)), {}),
    ],
)
def test_a_built_object_is_the_class_s_own(cls, build, args, kwargs):
    built, made = build(*args, **kwargs), cls(*args, **kwargs)
    assert type(built) is cls
    assert built == made and hash(built) == hash(made) and repr(built) == repr(made)
    for field in dataclasses.fields(cls):
        assert getattr(built, field.name) == getattr(made, field.name), field.name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(built, dataclasses.fields(cls)[0].name, None)
    assert build(*args) == cls(*args)  # the defaults are the class's


def test_a_round_opened_is_the_dataclass_s_own():
    structure = NoLimit(min_bet=2, max_bet=None, min_raise="last_increment", stay_cost=0)
    opened = structure.open_round(1, [2, 0, 1], {0: 1, 1: 2}, [10, 0, 10], floor=2)
    made = BettingRound(number=1, order=[2, 0, 1], bets={2: 0, 0: 1, 1: 2}, needs={2, 0}, last_increment=2, floor=2)
    assert type(opened) is BettingRound and opened == made


def test_a_game_s_levels_before_its_first_hand_are_the_class_s_own():
    assert type(NO_LEVELS) is Levels and Levels(0, 0, 0, 1) == NO_LEVELS
    assert Levels.first(ante=5, small_blind=1, big_blind=2, min_bet=1) == Levels(5, 1, 2, 2, 1)


def test_a_decision_naming_only_its_verb_is_shared_and_the_class_s_own():
    assert new_decision("stand") is new_decision("stand") and new_decision("stand") == Decision("stand")
    assert new_decision("call", call_hand=True) == Decision("call", call_hand=True) != new_decision("call")
    assert new_decision("bet", amount=4) is not new_decision("bet", amount=4)


def test_a_slotted_builder_takes_every_field():
    with pytest.raises(TypeError):
        slotted_builder(SpikeDice)(5)
