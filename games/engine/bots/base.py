"""What a bot is: something that turns one seat's view into a decision, and how a decision is applied.

A bot never touches the game. It receives the seat's view (`game.view_for(seat)`: the public table,
its own cards and selection, and its legal actions under `"legal"`) and returns a `Decision`; the
caller applies it through the game's named operations. So a bot can only know what its seat may see.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from games.engine.cards import SUIT_LETTERS
from games.engine.draws import choice

if TYPE_CHECKING:
    import random

    from games.engine.state import Game


@dataclass(frozen=True)
class Decision:
    """One decision: `verb` is select, check, call, bet, raise, fold or allin.

    `cards` are card codes for select; `amount` is the bet for `bet` and the new round total for `raise`.
    """

    verb: str
    cards: tuple[str, ...] = ()
    amount: int | None = None
    # Other variants' arguments (`Game.act`): one card of the hand, and where a card comes from.
    card: str | None = None
    source: str | None = None
    # Classic Sabacc: a field card to unlock before the play, a card to lock after it, and calling the hand.
    unlock: str | None = None
    lock: str | None = None
    call_hand: bool = False

    def args(self, allowed: tuple[str, ...]) -> dict:
        """The keyword arguments of `Game.act` among `allowed` (the variant's `verb_args` for this verb)."""
        # Each allowed name is a field of the decision; `cards` goes as a list.
        return {name: list(self.cards) if name == "cards" else getattr(self, name) for name in allowed}


_object_new = object.__new__
_object_setattr = object.__setattr__


def new_decision(
    verb: str,
    cards: tuple[str, ...] = (),
    amount: int | None = None,
    card: str | None = None,
    source: str | None = None,
    unlock: str | None = None,
    lock: str | None = None,
    call_hand: bool = False,
) -> Decision:
    """`Decision(...)` with the same arguments, cheaper: its fields set as its `__dict__` in one step, compiled (the
    dataclass's generated `__init__` runs interpreted, a call per field); the random bots make one every decision.
    Decisions are frozen, so one naming nothing but its verb (stand, draw, check, call, fold, all-in, with or without
    calling the hand) is made once and shared."""
    plain = (
        amount is None
        and card is None
        and source is None
        and unlock is None
        and lock is None
        and type(cards) is tuple
        and not cards
        and (call_hand is False or call_hand is True)
    )
    if plain:
        decision = _PLAIN_DECISIONS.get((verb, call_hand))
        if decision is not None:
            return decision
    decision = _object_new(Decision)
    _object_setattr(
        decision,
        "__dict__",
        {
            "verb": verb,
            "cards": cards,
            "amount": amount,
            "card": card,
            "source": source,
            "unlock": unlock,
            "lock": lock,
            "call_hand": call_hand,
        },
    )
    if plain and type(verb) is str and len(_PLAIN_DECISIONS) < 64:
        _PLAIN_DECISIONS[(verb, call_hand)] = decision
    return decision


# The decisions naming only their verb made so far, by (verb, call_hand): a few dozen at most.
_PLAIN_DECISIONS: dict[tuple[str, bool], Decision] = {}


class Bot(Protocol):
    """A bot: built with its own `random.Random`, it decides from a seat's view alone."""

    kind: str

    def decide(self, view: dict) -> Decision: ...


class RandomBotBase:
    """What every random bot shares: its kind and its own `random.Random`; `decide` is the variant's."""

    kind = "random"

    def __init__(self, rng: "random.Random") -> None:
        self.rng = rng


def pick_verb(legal: dict, rng: "random.Random") -> str:
    """A uniformly random verb among those `legal` (a legal actions' `to_dict()`) allows."""
    verbs = legal["verbs"]
    if not verbs:
        raise ValueError(f"Seat {legal['seat']} has no decision to make in phase {legal['phase']}.")
    return choice(rng, verbs)


def apply_decision(game: "Game", seat: int, decision: Decision) -> None:
    """Apply `decision` for `seat` through the game's named operations (which verify it first)."""
    verb = decision.verb
    if verb not in game.variant.verbs:
        raise ValueError(f"Unknown decision verb {verb!r}.")
    game.act(seat, verb, **decision.args(game.variant.verb_args.get(verb, ())))


def play_turn(game: "Game", seat: int, bot: Bot) -> Decision:
    """Ask `bot` for `seat`'s decision, from that seat's view only, and apply it."""
    decision = bot.decide(game.view_for(seat))
    apply_decision(game, seat, decision)
    return decision


def target_of(view: dict) -> tuple[int, str]:
    """The current hand's target number and target suit letter, from a view."""
    hand = view["hand"]
    return hand["target"], SUIT_LETTERS[hand["suit"]]
