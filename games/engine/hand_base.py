"""What every variant's hand class shares: the keywords it is built with and the fields every hand starts with,
the plain queries on its state, the pots derived from its contributions and the uncalled bet returned. A variant's
hand derives from `HandBase`, starts its own fields in `_start` and says which credits besides the bets join the
main pot (`dead_money`)."""

from typing import Any

from games.engine.betting import BettingRound, BettingStructure
from games.engine.errors import IllegalAction, WrongPhase
from games.engine.forced import Levels
from games.engine.pots import Pot, side_pots, uncalled
from games.engine.records import Record, new_record


class HandBase:
    """The shared state and queries of a hand: the fields every hand has (a variant's hand class adds its own)."""

    # The fields every hand starts with (`__init__`); a variant's hand adds its own. Compiled, `hand_base.pxd`
    # declares the same fields and the class is an extension type whose fields are read without a lookup.
    __slots__ = (
        "_actions",
        "_deck",
        "_discard",
        "_draw",
        "_legal",
        "_live",
        "_log",
        "_pots",
        "_pots_key",
        "_seed",
        "_stacks",
        "_waiting",
        "awards",
        "carry_in",
        "carry_out",
        "commitment",
        "contributions",
        "dealer",
        "dice",
        "folded",
        "forced",
        "levels",
        "names",
        "number",
        "odd_credits",
        "options",
        "phase",
        "reshuffled",
        "returned",
        "round",
        "scores",
        "seats",
        "structure",
        "variant",
    )

    def __init__(
        self,
        *,
        number: int,
        dealer: int,
        seats: list[int],
        names: list[str],
        stacks: list[int],
        options: Any,
        variant: Any,
        structure: BettingStructure,
        levels: Levels,
        carry: int,
        deck: list,
        dice: Any,
        seed: str | None,
        commitment: str | None,
        reshuffles: list[list] | None = None,
        last: bool = False,
        pools: dict[str, int] | None = None,
    ) -> None:
        """The keywords `Game.start_hand` gives every variant's hand: who plays (`seats` clockwise from the
        dealer's left, the game's `stacks`, shared: chips leave them as they are bet), the rules, the deck and
        dice (from `seed`, or given with their `reshuffles`), the credits kept between hands (`carry`, `pools`)."""
        self.number = number
        self.dealer = dealer
        self.seats = list(seats)
        self.names = names
        self._stacks = stacks
        self.options = options
        self.variant = variant
        self.structure = structure
        self.levels = levels
        self.carry_in = carry
        self.carry_out = 0
        self.dice = dice
        self._seed = seed
        self.commitment = commitment
        # RULES 1.5 and Ruling 2.4.4, no carry past the end: the odd credits of a split in a game's last hand go
        # left of the dealer.
        self.odd_credits = "left_of_dealer" if last else options.odd_credits
        self._deck: tuple = tuple(deck)
        self._draw: list = list(deck)
        self._discard: list = []
        self.reshuffled: list[list] = []
        self.contributions: dict[int, int] = dict.fromkeys(seats, 0)
        self.forced: dict[int, int] = {}
        self.folded: set[int] = set()
        self._live: list[int] = list(seats)
        self.phase = "deal"
        self.round: BettingRound | None = None
        self._log: list[Record] = []
        self._actions: list[str] = []
        self.returned: tuple[int, int] | None = None
        self.scores: dict[int, Any] = {}
        self.awards: list[dict] = []
        # Derived from the state, worked out once per state (forgotten by `_changed`; the pots by `pots`).
        self._waiting: list[int] | None = None
        self._legal: dict[int, Any] = {}
        self._pots: list[Pot] = []
        self._pots_key: tuple | None = None
        self._start(deck, dice, reshuffles, pools)

    def _start(self, deck: list, dice: Any, reshuffles: list[list] | None, pools: dict[str, int] | None) -> None:
        """The variant's own fields, after the shared ones."""
        raise NotImplementedError

    def _changed(self) -> None:
        """Forget who is awaited and what they may do; every change of the state ends here."""
        self._waiting = None
        if self._legal:
            self._legal.clear()

    def _return_uncalled(self) -> None:
        """The part of the last bet that nobody called goes back to its stack (RULES 1.4)."""
        back = uncalled(self.contributions)
        if back:
            seat, amount = back
            self.contributions[seat] -= amount
            self._stacks[seat] += amount
            self.returned = back
            self._log.append(new_record("return", seat, amount))
            self._changed()

    def _check_verb_args(self, verb: str, args: dict) -> None:
        """An unknown verb, or an argument the verb does not take, is refused, naming what is allowed."""
        verbs = self.variant.verbs
        if verb not in verbs:
            raise WrongPhase(f"Unknown action {verb!r}; the actions are {', '.join(verbs)}.")
        if args:
            allowed = self.variant.verb_args.get(verb, ())
            for name in args:  # `args.keys() - allowed`, without a set per decision when nothing is extra
                if name not in allowed:
                    break
            else:
                return
            extra = args.keys() - allowed
            if extra:
                takes = f"takes {', '.join(allowed)}" if allowed else "takes no arguments"
                raise IllegalAction(f"{verb} {takes}; got {', '.join(sorted(extra))}.")

    def _pay_bet(self, seat: int, verb: str, paid: int) -> None:
        """Apply a verified betting action whose `paid` chips leave the seat's stack; a fold also lays the seat's
        cards face down (the hand class's `_fold_cards(seat)`: where they go is the variant's rule)."""
        self._stacks[seat] -= paid
        self.contributions[seat] += paid
        if verb == "fold":
            self.folded.add(seat)
            self._live.remove(seat)
            self._fold_cards(seat)
        self.structure.apply(self.round, seat, verb, paid, self._stacks, self.folded)

    def _from_left(self, seats) -> list[int]:
        """`seats` in the hand's order, from the dealer's left."""
        chosen = set(seats)
        return [s for s in self.seats if s in chosen]

    @property
    def is_complete(self) -> bool:
        return self.phase == "complete"

    @property
    def live(self) -> list[int]:
        """Seats still in the hand (not folded), clockwise from the dealer's left."""
        return list(self._live)

    @property
    def seed(self) -> None:
        """Always None: hand seeds are revealed only when the game ends (RULES 1.7), by `Game.revealed_seeds()`."""
        return None

    def is_all_in(self, seat: int) -> bool:
        return seat in self.seats and seat not in self.folded and self._stacks[seat] == 0

    def dead_money(self) -> int:
        """Credits in the main pot besides the bets (a carry-over, card prices); none by default."""
        return 0

    def pots(self) -> list[Pot]:
        # Pots follow from contributions, folds (which only grow) and the dead money alone: worked out again only
        # when one of them changes.
        extra = self.dead_money()
        key = (tuple(self.contributions.values()), len(self.folded), extra)
        if key != self._pots_key:
            self._pots = side_pots(self.contributions, self.folded, extra)
            self._pots_key = key
        return list(self._pots)
