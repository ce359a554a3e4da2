"""The variant plug-in point: what differs between Sabacc games, and the defaults they share.

A variant is one `Variant` subclass, registered by name. It brings its deck, its dice (rolled from the
hand seed), its options class and presets, the class that plays one hand (`hand_class`) with its own
player verbs, and the few answers the shared machinery (`Game`, betting, side pots, views, save/load,
fair decks, replays) asks of it. docs/engine.md describes the whole interface; everything here has a
default that suits a game played like Coruscant Shift, so a variant overrides only what differs.
"""

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from games.engine.cards import Card, check_deck, decode_cards, encode_cards, full_deck, parse_card
from games.engine.errors import IllegalAction, InvalidOptions
from games.engine.forced import ESCALATIONS, Levels


class VariantHand(Protocol):
    """What the shared machinery (`Game`, views, save/load, replays, fair decks) reads and calls on one hand of
    any variant; docs/engine.md, "A hand class", says what each one means. `Variant.hand_class` builds it. (A
    variant whose hands roll `dice` keeps them there for `Variant.seed_problems`' default; Classic has its own.)"""

    number: int
    dealer: int
    seats: list[int]
    phase: str
    folded: set[int]
    contributions: dict[int, int]
    carry_out: int
    pools_out: dict[str, int]
    awards: list[dict]
    commitment: str | None
    reshuffled: list
    options: Any
    _actions: list[str]

    @property
    def is_complete(self) -> bool: ...

    def begin(self) -> None: ...

    def waiting_for(self) -> list[int]: ...

    def actor(self) -> int | None: ...

    def legal_actions(self, seat: int) -> Any: ...

    def verify_act(self, seat: int, verb: str, **args: Any) -> None: ...

    def act(self, seat: int, verb: str, **args: Any) -> None: ...

    def pot_total(self) -> int: ...

    def pots(self) -> list: ...

    def bets(self) -> dict[int, int]: ...

    def _all_cards(self) -> list: ...

    def draw_pile_size(self) -> int: ...

    def log_for(self, seat: int | None) -> list: ...

    def summary(self, game: Any) -> dict: ...

    def add_public_hand(self, data: dict) -> None: ...

    def add_public_seats(self, rows: list[dict], viewer: int | None) -> None: ...

    def private_view(self, seat: int) -> dict: ...


class OptionsClass(Protocol):
    """A variant's options dataclass (`games.engine.variant_options.VariantOptions`): built from a dict of option
    values and written back to one."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Any: ...

    def to_dict(self) -> dict[str, Any]: ...


# A bot's decision function for one variant: (the seat's view, the bot's generator, its bluff rate) -> Decision.
BotDecide = Callable[[dict, Any, float], Any]


class Variant:
    """Base of the variants; subclasses set the class attributes and override what differs."""

    name = ""
    # Cards dealt to each player at the start of a hand (informative; the hand class deals).
    hand_size = 0
    # The decision phases of a hand, in order; the automatic steps run between them.
    phases: tuple[str, ...] = ()
    # The player verbs of a hand, as `Game.act(seat, verb, **args)` and replays name them.
    verbs: tuple[str, ...] = ()
    # The keyword arguments each verb takes in `Game.act` (a verb not listed takes none).
    verb_args: dict[str, tuple[str, ...]] = {}
    options_class: type[OptionsClass] = None  # type: ignore[assignment]
    # The class that plays one hand of this variant (see docs/engine.md, "A hand class").
    hand_class: type[VariantHand] = None  # type: ignore[assignment]
    # The variant's bots (`games.engine.bots`): the random bot's choice among the legal decisions
    # (`legal`, rng) -> Decision, None for the shared one; the sensible bot's (view, rng, bluff) -> Decision.
    random_decision: Callable[[dict, Any], Any] | None = None
    sensible_decision: BotDecide | None = None
    # Preset name -> option values (the rest are the options class's defaults).
    presets: dict[str, dict[str, Any]] = {}
    # Whether a replay hand lists `reshuffles` (a variant whose draw pile never runs out says False).
    uses_reshuffles = True
    # Whether a replay document must name the first dealer (otherwise a draw for high card decides).
    replay_needs_dealer = False
    # Whether every seat of a replay document must start with at least one credit.
    replay_min_stack = False
    # Whether the carry-over goes to the last player holding credits when the game ends that way.
    carry_to_last_player = True
    # Whether the variant has blinds. Without them (Corellian Spike, Classic) `Game.set_levels` takes only an
    # ante, which becomes the hand-pot ante of the hands after it (`hand_options`), and refuses blinds.
    has_blinds = True

    # How a hand's dice and new draw piles follow from its hand seed `s`, in words and Python a person can run
    # (the seeds page and docs/rules.md, fair decks); each variant says its own, next to its `roll`.
    dice_recipe = ""
    pile_recipe = (
        'reshuffle k (from 1) shuffles the discard pile, oldest discard first, with random.Random(s + "/reshuffle/" '
        "+ str(k)).shuffle"
    )

    # ----- cards and dice ---------------------------------------------------------------------

    def fair_recipe(self, options: Any) -> dict[str, Any]:
        """How to recompute a seeded hand by hand: the canonical deck (its size and codes in order, which
        `random.Random(s).shuffle` turns into the draw pile, top card first), the dice and the new piles."""
        order = [card.code for card in self.deck()]
        return {"deck_size": len(order), "order": order, "dice": self.dice_recipe, "piles": self.pile_recipe}

    def deck(self) -> list[Card]:
        """The canonical deck (a new list each call); a hand seed shuffles it."""
        return full_deck()

    def parse_card(self, text: object) -> Any:
        """One card of this variant's deck from its code (`InvalidCard` says what a card is)."""
        return parse_card(text)

    def encode_cards(self, cards: Any) -> str:
        """Cards as the compact text of the saved state (one character each)."""
        return encode_cards(cards)

    def decode_cards(self, text: str) -> list:
        return decode_cards(text)

    def check_deck(self, cards: list) -> None:
        """Refuse a given deck that is not exactly this variant's deck (`InvalidCard` names the card)."""
        check_deck(cards, self.deck())

    def roll(self, seed: str, options: Any) -> Any:
        """The hand's dice from its hand seed (or a given deck's compact code); None when it rolls none."""
        raise NotImplementedError

    def encode_dice(self, dice: Any) -> str:
        """The dice as a short text for the saved state."""
        raise NotImplementedError

    def decode_dice(self, text: str) -> Any:
        raise NotImplementedError

    def given_dice(self, deck_code: str, options: Any) -> Any:
        """The dice of a hand whose deck is given without dice (tests, saved games): by default rolled from
        the deck's code, so that a given deck still fixes the whole hand."""
        return self.roll(deck_code, options)

    # ----- options --------------------------------------------------------------------------

    def coerce_options(self, options: Any) -> Any:
        """Accept this variant's options dataclass, or a dict of option values (full or partial)."""
        if isinstance(options, self.options_class):
            return options
        for other in _REGISTRY.values():
            if other is not self and isinstance(options, other.options_class):
                raise InvalidOptions(
                    f"These are options of {other.name}, but the game's variant is {self.name}; "
                    f"give variant={other.name!r} too."
                )
        return self.options_class.from_dict(options)

    def build_options(self, preset: str, overrides: dict | None = None) -> Any:
        """The options of `preset` with `overrides` applied, checked (`InvalidOptions` says what is allowed)."""
        if preset not in self.presets:
            raise InvalidOptions(f"Unknown preset {preset!r}; the presets are: {', '.join(self.presets)}.")
        if overrides is not None and not isinstance(overrides, dict):
            raise InvalidOptions("Option overrides must be an object of option names and values.")
        return self.options_class.from_dict({**self.presets[preset], **(overrides or {})})

    # ----- forced bets and betting ----------------------------------------------------------

    def first_levels(self, options: Any) -> Levels:
        """The forced bets and min bet of the first hand."""
        return Levels.first(
            ante=options.ante,
            small_blind=getattr(options, "small_blind", 0),
            big_blind=getattr(options, "big_blind", 0),
            min_bet=options.min_bet,
        )

    def hand_options(self, options: Any, levels: Levels) -> Any:
        """The options one hand plays with, given the levels in force; by default the game's options (a hand
        reads its forced bets from `levels`)."""
        return options

    def next_levels(self, levels: Levels, options: Any, *, players_left: int, passed_first_dealer: bool) -> Levels:
        """The levels of the next hand (escalation); by default they never change."""
        escalation = getattr(options, "escalation", "none")
        return ESCALATIONS[escalation].next_levels(
            levels,
            players_left=players_left,
            passed_first_dealer=passed_first_dealer,
            increments=getattr(options, "ante_increments", (0, 0, 0, 0)),
        )

    def structure(self, options: Any, levels: Levels) -> Any:
        """The betting structure of a hand (`games.engine.betting`)."""
        from games.engine.betting import make_structure

        return make_structure(
            getattr(options, "betting", "no_limit"),
            min_bet=levels.min_bet,
            max_bet=levels.max_bet(options.max_bet),
            min_raise=options.min_raise,
            stay_cost=getattr(options, "stay_cost", 1),
        )

    # ----- compact actions (saved state and history) ----------------------------------------

    def encode_action(self, seat: int, verb: str, args: dict[str, Any]) -> str:
        """One decision as the short text kept in the saved state."""
        raise NotImplementedError

    def decode_action(self, text: str) -> tuple[int, str, dict[str, Any]]:
        """(seat, verb, the keyword arguments of `Game.act`) of a compact action."""
        raise NotImplementedError

    # ----- replay documents (docs/replay.md) ------------------------------------------------

    def replay_dice(self, number: int, hand: dict, options: Any) -> Any:
        """The dice of replay hand `number` from its document, or None; raise `EngineError` with the reason."""
        raise NotImplementedError

    def dice_document(self, dice: Any) -> Any:
        """The dice as a replay document writes them."""
        raise NotImplementedError

    def replay_args(self, verb: str, action: dict) -> dict[str, Any]:
        """The keyword arguments of `Game.act` for one replay action (its document fields)."""
        raise NotImplementedError

    def export_action(self, names: Sequence[str], seat: int, verb: str, args: dict[str, Any]) -> dict:
        """One decision as a replay document writes it."""
        raise NotImplementedError

    def result_extra(self, game: Any) -> dict:
        """Top-level fields the variant adds to a replay result (beside `stacks` and `carry_over`)."""
        return {}

    def replay_deck(self, number: int, listed: list, seed: Any) -> list | None:
        """The whole deck of replay hand `number` from its `listed` top cards, or None for the shared rule
        (the rest shuffled from the document's seed). Raise `EngineError` for a card listed too often."""
        return None

    def replay_chance(self, number: int, hand: dict, options: Any, seed: Any) -> Any:
        """The dice of a replay hand, knowing the document's `seed` too; by default `replay_dice`."""
        return self.replay_dice(number, hand, options)

    def use_seed(self, hand: Any, seed: str) -> None:
        """Verifying a game (`verify_game`): from now on `hand` draws its reshuffles (and the rest of its chance)
        from the revealed `seed` instead of the document."""
        hand._given_piles = None
        hand._seed = seed

    def seed_problems(self, hand: Any, listed: dict, seed: str) -> list[str]:
        """Verifying a game: what in the finished `hand` (its document `listed`) its `seed` does not give,
        besides the deck and the reshuffles that `fairness` checks itself."""
        if hand.dice != self.roll(seed, hand.options):
            return ["the dice are not the ones its seed rolls."]
        return []

    def replay_leftovers(self, hand: Any) -> str | None:
        """Why a finished replay hand left listed chance unused (dice or piles), or None."""
        return None

    def hand_record(self, hand: Any) -> dict:
        """Extra fields kept in the game's history for a finished hand (for exports), by short key."""
        return {}

    def export_hand(self, document: dict, record: dict, hand: Any) -> None:
        """Adjust one exported hand (`document`) from its history `record` and, for the current hand, `hand`."""


_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Add a variant to the registry (its package's `variant` module calls this once, on import); the first
    registered is the default variant (`Game.new` and replay documents without a `variant`)."""
    _REGISTRY[variant.name] = variant
    return variant


def get_variant(name: str) -> Variant:
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise InvalidOptions(f"Unknown variant {name!r}; the variants are: {', '.join(variant_names())}.") from None


def default_variant() -> Variant:
    """The first variant registered (`games.engine.variants` lists them in order)."""
    return next(iter(_REGISTRY.values()))


def variant_names() -> tuple[str, ...]:
    """Every registered variant, in the order they are registered."""
    return tuple(_REGISTRY)


def replay_amount(verb: str, action: dict) -> int:
    """The credits of a replay's bet (`amount`) or raise (`to`, the new total), checked to be a whole number."""
    key = "amount" if verb == "bet" else "to"
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f'needs "{key}", a whole number of credits; got {value!r}.')
    return value
