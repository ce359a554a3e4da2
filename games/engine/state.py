"""The game: seats, stacks, the button, escalation, eliminations, the current hand and the end rule.

Hands never start by themselves: call `start_hand()` between hands (that is when re-buys may
happen). Inside a hand everything that needs no decision runs on its own; `waiting_for()` names
the seats whose decision is awaited. Each operation comes as a triad: `verify_x()` raises the
reason it is illegal, `can_x()` answers yes or no, `x()` verifies and applies.
"""

import random
from collections.abc import Sequence
from typing import Any

from games.engine import leftovers, views
from games.engine.betting import LegalActions
from games.engine.between_hands import MAX_SEATS, MIN_SEATS, BetweenHands, _can
from games.engine.cards import Card
from games.engine.errors import EngineError, IllegalAction, InvalidOptions, WrongPhase
from games.engine.forced import NO_LEVELS
from games.engine.shuffle import commitment, deck_from_seed, mix_entropy, server_seed
from games.engine.twister import Twister
from games.engine.variant import VariantHand as Hand
from games.engine.variant import default_variant, get_variant

# Each options class at its defaults, made once: a new `Game` starts with them (frozen, so one can be shared) until
# `new` or `from_json` sets its own, and the benches make a new game for nearly every hand.
_DEFAULT_OPTIONS: dict[type, Any] = {}


def _default_options(options_class: type) -> Any:
    options = _DEFAULT_OPTIONS.get(options_class)
    if options is None:
        options = _DEFAULT_OPTIONS[options_class] = options_class()
    return options


class Game(BetweenHands):
    """One game at one table. Build it with `Game.new()` or `Game.from_json()`."""

    # Slots, not a `__dict__`: views and every decision read these, and a slot is read without a dict lookup.
    __slots__ = (
        "_current_index",
        "_history",
        "_history_from",
        "_loading",
        "_master",
        "_pre",
        "_replay_version",
        "_tail",
        "carry",
        "dealer",
        "dealer_draw",
        "dealt",
        "entropy",
        "first_dealer",
        "hand",
        "hands_played",
        "item_transfers",
        "items",
        "left",
        "leftovers_paid",
        "levels",
        "levels_set",
        "names",
        "options",
        "out_at",
        "over",
        "pools",
        "preset",
        "results",
        "stacks",
        "starting_names",
        "starting_stacks",
        "variant",
    )

    def __init__(self) -> None:
        self.variant = default_variant()
        self.options: Any = _default_options(self.variant.options_class)
        self.preset: str | None = None
        self.names: list[str] = []
        self.starting_names: list[str] = []
        self.starting_stacks: list[int] = []
        self.stacks: list[int] = []
        self.first_dealer = 0
        self.dealer: int | None = None
        self.dealer_draw: list[dict[int, str]] = []
        self.levels = NO_LEVELS
        # True after `set_levels` until the next hand starts: that hand plays the levels as set, unescalated.
        self.levels_set = False
        self.carry = 0
        # Credits a variant keeps between hands besides the stacks and the carry-over (Corellian Spike's
        # Sabacc pot), by name; the hand takes them in and gives them back (`hand.pools_out`).
        self.pools: dict[str, int] = {}
        # What each seat was paid of the credits left on the table (RULES 1.5 "Credits left at the end").
        self.leftovers_paid: dict[int, int] = {}
        self.hands_played = 0
        self.out_at: dict[int, int] = {}
        self.dealt: set[int] = set()
        self.over = False
        self.hand: Hand | None = None
        self.results: list[dict] = []
        # Every hand and between-hands event, for `export_replay`; kept out of `to_json()` (see history_json).
        self._history: list[dict] = []
        # How many entries came before the first one in `_history` (a game loaded without its history).
        self._history_from = 0
        # A replay document's format, when the game was loaded from one (`replay.load_replay`).
        self._replay_version = 1
        # True while `serialize.load` plays the saved hand again: what its end paid out is in the saved tail.
        self._loading = False
        self._master = ""
        self._pre: dict | None = None
        self._tail: list[list] = []
        self._current_index: int | None = None
        self.left: set[int] = set()
        self.items: dict[int, list] = {}
        self.item_transfers: list[dict] = []
        # Player entropy for the next hand (RULES 1.7), by seat: applied and cleared when it starts.
        self.entropy: dict[int, str] = {}

    def __repr__(self) -> str:
        return f"<Game {self.variant.name} hands_played={self.hands_played} seats={len(self.names)} over={self.over}>"

    # ----- building ----------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        *,
        options: Any,
        players: Sequence[tuple[str, int]],
        dealer: int | None = None,
        rng: random.Random,
        variant: str | None = None,
        preset: str | None = None,
    ) -> "Game":
        """A new game of `variant` (default: the first registered); `players` are (name, stack) in clockwise seat
        order. Without `dealer`, high card deals."""
        game = cls()
        game.variant = default_variant() if variant is None else get_variant(variant)
        game.options = game.variant.coerce_options(options)
        game.preset = preset
        players = list(players)
        if not MIN_SEATS <= len(players) <= MAX_SEATS:
            raise InvalidOptions(f"A table seats {MIN_SEATS} to {MAX_SEATS} players; got {len(players)}.")
        names = []
        for entry in players:
            if not isinstance(entry, list | tuple) or len(entry) != 2:
                raise InvalidOptions(f"Each player is (name, stack); got {entry!r}.")
            name, stack = entry
            if not isinstance(name, str) or not name.strip():
                raise InvalidOptions(f"A player's name must be a non-empty text; got {name!r}.")
            if name in names:
                raise InvalidOptions(f"Player names must differ; {name!r} appears twice.")
            if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
                raise InvalidOptions(f"{name}'s stack must be a whole number of credits, 0 or more; got {stack!r}.")
            names.append(name)
        game.names = names
        game.starting_names = list(names)
        game.stacks = [stack for _, stack in players]
        game.starting_stacks = list(game.stacks)
        if sum(1 for s in game.stacks if s > 0) < 2:
            raise InvalidOptions("At least two players need credits to start a game.")
        game.levels = game.variant.first_levels(game.options)
        game._master = f"{rng.getrandbits(128):032x}"
        if dealer is None:
            game.first_dealer = game._draw_for_dealer()
        else:
            if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < len(names):
                raise InvalidOptions(f"The dealer must be a seat from 0 to {len(names) - 1}; got {dealer!r}.")
            if game.stacks[dealer] == 0:
                raise InvalidOptions(f"{names[dealer]} has no credits and cannot deal.")
            game.first_dealer = dealer
        for seat, stack in enumerate(game.stacks):
            if stack == 0:
                game.out_at[seat] = 0
        return game

    def _draw_for_dealer(self) -> int:
        """Each player with credits draws a card; highest value deals; tied players draw again (seed 000)."""
        rng = Twister(f"{self._master}/dealer")
        contenders = [s for s, stack in enumerate(self.stacks) if stack > 0]
        while True:
            deck = self.variant.deck()
            rng.shuffle(deck)
            drawn = {seat: deck[i] for i, seat in enumerate(contenders)}
            self.dealer_draw.append({seat: card.code for seat, card in drawn.items()})
            top = max(card.value for card in drawn.values())
            contenders = [s for s in contenders if drawn[s].value == top]
            if len(contenders) == 1:
                return contenders[0]

    # ----- queries -------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def in_hand(self) -> bool:
        """True while a hand is being played (started and not complete)."""
        hand = self.hand
        return hand is not None and hand.phase != "complete"

    @property
    def between_hands(self) -> bool:
        return not self.in_hand and not self.over

    def seats_with_credits(self) -> list[int]:
        return [s for s, stack in enumerate(self.stacks) if stack > 0]

    def waiting_for(self) -> list[int]:
        hand = self.hand
        return hand.waiting_for() if hand is not None and hand.phase != "complete" else []

    def legal_actions(self, seat: int) -> LegalActions:
        """What `seat` may do now: an object with `verbs` (the variant's verbs, in its order), `phase`,
        `seat` and `to_dict()`; betting turns give a `LegalActions` with the bounds."""
        hand = self.hand
        if hand is not None and hand.phase != "complete":
            return hand.legal_actions(seat)
        return LegalActions(seat=seat, phase="over" if self.over else "between_hands")

    def total_credits(self) -> int:
        """Stacks + credits in the current hand's pots and bets + carry-over; never changes except by re-buys."""
        in_pot = self.hand.pot_total() if self.in_hand else sum(self.pools.values())
        return sum(self.stacks) + in_pot + self.carry

    def card_count(self) -> int:
        """Cards accounted for across draw pile, discard pile, hands and selections (62 whenever a hand exists)."""
        if self.hand is None:
            return len(self.variant.deck())
        return len(self.hand._all_cards())

    def standings(self) -> list[dict]:
        """RULES 1.5: most credits first, then the later elimination; equal keys share a place."""

        def key(seat: int) -> tuple[int, float]:
            out = self.out_at.get(seat)
            return (self.stacks[seat], float("inf") if out is None or self.stacks[seat] > 0 else out)

        order = sorted(range(len(self.names)), key=lambda s: (key(s)[0], key(s)[1], -s), reverse=True)
        rows: list[dict] = []
        for index, seat in enumerate(order):
            place = rows[-1]["place"] if rows and key(order[index - 1]) == key(seat) else index + 1
            rows.append({"seat": seat, "player": self.names[seat], "place": place, "stack": self.stacks[seat]})
        return rows

    # ----- starting hands ------------------------------------------------------------------------

    def _next_dealer(self) -> int | None:
        n = len(self.names)
        first = self.hands_played == 0 or self.dealer is None
        origin, steps = (self.first_dealer, range(n)) if first else (self.dealer, range(1, n + 1))
        for step in steps:
            seat = (origin + step) % n
            if self.stacks[seat] > 0 and (self.options.end_rule != "everyone_deals" or seat not in self.dealt):
                return seat
        return None

    def verify_start_hand(
        self,
        deck: list[Card] | None = None,
        dice: Any = None,
        *,
        reshuffles: list[list[Card]] | None = None,
        entropy: dict[int, str] | None = None,
    ) -> None:
        if self.over:
            raise WrongPhase("The game is over; no more hands can start.")
        if self.in_hand:
            raise WrongPhase(f"Hand {self.hand.number} is still being played; finish it before starting another.")
        if len(self.seats_with_credits()) < 2:
            raise WrongPhase("A hand needs at least two players with credits; re-buy or wait for players to join.")
        if self._next_dealer() is None:
            raise WrongPhase("Every player with credits has dealt; the game is over.")
        if deck is not None:
            self.variant.check_deck(list(deck))
        if reshuffles is not None and deck is None:
            raise IllegalAction("Reshuffles can only be listed for a hand whose deck is given.")
        for seat, value in (entropy or {}).items():
            self.verify_contribute_entropy(seat, value)

    def can_start_hand(self) -> bool:
        return _can(self.verify_start_hand)

    def start_hand(
        self,
        *,
        deck: list[Card] | None = None,
        dice: Any = None,
        reshuffles: list[list[Card]] | None = None,
        entropy: dict[int, str] | None = None,
    ) -> Hand:
        """Start the next hand. `deck` (top card first), `dice` and `reshuffles` (each new draw pile when the
        draw pile runs out, top card first; a hand needing one more is refused) stack the hand for replays and
        tests. Without them everything comes from the hand seed: the server seed, committed before the hand
        (`next_commitment()`), mixed with the players' entropy; `entropy` contributes more of it first."""
        self.verify_start_hand(deck, dice, reshuffles=reshuffles, entropy=entropy)
        for seat, value in (entropy or {}).items():
            self.contribute_entropy(seat, value)
        self._pre = self._snapshot()
        self._tail = []
        number = self.hands_played + 1
        previous = self.dealer
        dealer = self._next_dealer()
        if self.levels_set:
            self.levels_set = False
        elif number > 1:
            n = len(self.names)
            passed = any((previous + step) % n == self.first_dealer for step in range(1, (dealer - previous) % n + 1))
            self.levels = self.variant.next_levels(
                self.levels,
                self.options,
                players_left=len(self.seats_with_credits()),
                passed_first_dealer=passed,
            )
        self.dealer = dealer
        n = len(self.names)
        seats = [(dealer + step) % n for step in range(1, n + 1)]
        seats = [s for s in seats if self.stacks[s] > 0]
        record: dict = {"a": []}
        contributions = [(self.names[s], v) for s, v in sorted(self.entropy.items())]
        if contributions:
            record["n"] = [list(pair) for pair in contributions]
        self.entropy = {}
        if deck is None:
            server = server_seed(self._master, number)
            seed, proof = mix_entropy(server, contributions), commitment(server)
            cards = deck_from_seed(seed, self.variant.deck())
            rolled = self.variant.roll(seed, self.options)
            if dice is None:
                dice = rolled
            elif dice != rolled:
                record["x"] = self.variant.encode_dice(dice)
        else:
            seed, proof, cards = None, None, list(deck)
            record["d"] = self.variant.encode_cards(cards)
            if dice is None:
                dice = self.variant.given_dice(record["d"], self.options)
            if dice is not None:
                record["x"] = self.variant.encode_dice(dice)
            if reshuffles is not None:
                record["r"] = [self.variant.encode_cards(pile) for pile in reshuffles]
        opts = self.options
        alive = self.seats_with_credits()
        last = (opts.hands is not None and number >= opts.hands) or (
            opts.end_rule == "everyone_deals" and all(s in self.dealt or s == dealer for s in alive)
        )
        hand = self.variant.hand_class(
            number=number,
            dealer=dealer,
            seats=seats,
            names=self.names,
            stacks=self.stacks,
            options=self.variant.hand_options(self.options, self.levels),
            variant=self.variant,
            structure=self.variant.structure(self.options, self.levels),
            levels=self.levels,
            carry=self.carry,
            deck=cards,
            dice=dice,
            seed=seed,
            commitment=proof,
            reshuffles=reshuffles,
            last=last,
            pools=dict(self.pools),
        )
        self.carry = 0
        self.pools = {}
        self.hand = hand
        self.dealt.add(dealer)
        hand._actions = record["a"]
        self._current_index = len(self._history)
        self._history.append(record)
        hand.begin()
        self._after_operation()
        return hand

    def _after_operation(self) -> None:
        hand = self.hand
        if hand is None or hand.phase != "complete" or hand.number == self.hands_played:
            return
        if hand.reshuffled:
            # Every reshuffled pile, for exports (a seeded hand's follow from its seed and the play).
            self._history[self._current_index]["o"] = [self.variant.encode_cards(pile) for pile in hand.reshuffled]
        self._history[self._current_index].update(self.variant.hand_record(hand))
        self.hands_played = hand.number
        self.carry += hand.carry_out
        self.pools = {name: amount for name, amount in hand.pools_out.items() if amount}
        for seat in hand.seats:
            if self.stacks[seat] == 0 and seat in self.items:
                self._transfer_item(hand, seat)
            if self.stacks[seat] == 0 and seat not in self.out_at:
                self.out_at[seat] = hand.number
        self.results.append(self._summary(hand))
        self._check_end()

    def _check_end(self) -> None:
        alive = self.seats_with_credits()
        opts = self.options
        end_rule = getattr(opts, "end_rule", "last_player")
        if end_rule != "never" and len(alive) <= 1:
            self.over = True
            if alive and self.carry and self.variant.carry_to_last_player:
                # One player holds every credit at the end, so the carry-over is theirs too.
                self.stacks[alive[0]] += self.carry
                self.carry = 0
        if opts.hands is not None and self.hands_played >= opts.hands:
            self.over = True
        if end_rule == "everyone_deals" and not any(s not in self.dealt for s in alive):
            self.over = True
        if self.over and not self._loading:
            leftovers.pay_at_end(self)

    def _pay(self, paid: list) -> None:
        for seat, amount in paid:
            self.stacks[seat] += amount
            self.leftovers_paid[seat] = self.leftovers_paid.get(seat, 0) + amount
        self.carry = 0
        self.pools = {}

    # ----- player operations -------------------------------------------------------------------

    def _hand_for(self, verb: str) -> Hand:
        hand = self.hand
        if hand is not None and hand.phase != "complete":
            return hand
        if self.over and not self.in_hand:
            raise WrongPhase(f"The game is over; you cannot {verb}.")
        if self.hand is not None and not self.in_hand:
            raise WrongPhase(f"Hand {self.hand.number} is over; you cannot {verb} until the next hand starts.")
        if not self.in_hand:
            raise WrongPhase(f"No hand is being played; you cannot {verb} until the first hand starts.")
        return self.hand

    def verify_act(self, seat: int, verb: str, **args: Any) -> None:
        """Any player verb of the game's variant (`variant.verbs`), with its keyword arguments
        (`variant.verb_args`): raises an `IllegalAction` subclass saying why, and changes nothing."""
        self._hand_for(verb).verify_act(seat, verb, **args)

    def can_act(self, seat: int, verb: str, **args: Any) -> bool:
        try:
            self.verify_act(seat, verb, **args)
        except EngineError:
            return False
        return True

    def act(self, seat: int, verb: str, **args: Any) -> None:
        """Verify, then apply, one decision of the variant: `act(seat, "raise", amount=40)` (Coruscant Shift
        also has the named methods `select`, `check`, `call`, `bet`, `raise_to`, `fold`, `all_in`)."""
        hand = self.hand
        if hand is None or hand.phase == "complete":
            hand = self._hand_for(verb)  # raises why no hand can act
        hand.act(seat, verb, **args)
        self._after_operation()

    def verify_select(self, seat: int, cards: list) -> None:
        self._hand_for("select").verify_select(seat, cards)

    def can_select(self, seat: int, cards: list) -> bool:
        return _can(self.verify_select, seat, cards)

    def select(self, seat: int, cards: list) -> None:
        """Choose the selection (select phase) or the cards to add to it (improve phase)."""
        self._hand_for("select").select(seat, list(cards) if isinstance(cards, tuple) else cards)
        self._after_operation()

    def _verify_bet(self, verb: str, seat: int, amount: int | None = None) -> None:
        self._hand_for(verb).verify_bet_action(seat, verb, amount)

    def _bet(self, verb: str, seat: int, amount: int | None = None) -> None:
        self._hand_for(verb).bet_action(seat, verb, amount)
        self._after_operation()

    def verify_check(self, seat: int) -> None:
        self._verify_bet("check", seat)

    def can_check(self, seat: int) -> bool:
        return _can(self.verify_check, seat)

    def check(self, seat: int) -> None:
        self._bet("check", seat)

    def verify_call(self, seat: int) -> None:
        self._verify_bet("call", seat)

    def can_call(self, seat: int) -> bool:
        return _can(self.verify_call, seat)

    def call(self, seat: int) -> None:
        self._bet("call", seat)

    def verify_bet(self, seat: int, amount: int) -> None:
        self._verify_bet("bet", seat, amount)

    def can_bet(self, seat: int, amount: int) -> bool:
        return _can(self.verify_bet, seat, amount)

    def bet(self, seat: int, amount: int) -> None:
        self._bet("bet", seat, amount)

    def verify_raise_to(self, seat: int, total: int) -> None:
        self._verify_bet("raise", seat, total)

    def can_raise_to(self, seat: int, total: int) -> bool:
        return _can(self.verify_raise_to, seat, total)

    def raise_to(self, seat: int, total: int) -> None:
        """Raise so that the seat's total for this betting round is `total`."""
        self._bet("raise", seat, total)

    def verify_fold(self, seat: int) -> None:
        self._verify_bet("fold", seat)

    def can_fold(self, seat: int) -> bool:
        return _can(self.verify_fold, seat)

    def fold(self, seat: int) -> None:
        self._bet("fold", seat)

    def verify_all_in(self, seat: int) -> None:
        self._verify_bet("allin", seat)

    def can_all_in(self, seat: int) -> bool:
        return _can(self.verify_all_in, seat)

    def all_in(self, seat: int) -> None:
        self._bet("allin", seat)

    # ----- results -------------------------------------------------------------------------------

    def _summary(self, hand: Hand) -> dict:
        """The hand as the replay result format shows it (REPLAY.md), names instead of seats."""
        return views.hand_summary(self, hand)

    def view_for(self, seat: int) -> dict:
        return views.view_for(self, seat)

    def spectator_view(self) -> dict:
        return views.spectator_view(self)

    def to_json(self) -> str:
        """The live state: enough to go on playing, bounded in size however long the game runs."""
        from games.engine.serialize import dump

        return dump(self)

    def history_json(self) -> str:
        """The hands before the current one, which only `export_replay` needs; grows with every hand.

        Raises `InvalidState` for a game loaded without its history.
        """
        from games.engine.serialize import dump_history

        return dump_history(self)

    @classmethod
    def from_json(cls, text: str, *, history: str | None = None) -> "Game":
        """Load a `to_json()` state; give its `history_json()` too for a game that can still be exported."""
        from games.engine.serialize import load

        return load(cls, text, history)
