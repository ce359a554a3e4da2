"""One hand of Classic Sabacc (RULES 3.2-3.5): antes, the deal, rounds of play turns and betting with
their rolls and Sabacc Shifts, the call, the reveal, penalties, Sudden Demise, the pots and the Sabacc pot.

The hand moves by itself through every step that needs no decision and stops at each play turn and
each betting turn. Every operation is verified first (raising an `IllegalAction` subclass and changing
nothing), then applied and recorded in the log. Betting and side pots are the shared ones
(`games.engine.betting`, `games.engine.pots`).
"""

from dataclasses import dataclass
from operator import attrgetter

from games.engine.betting import BettingRound, BettingStructure, LegalActions
from games.engine.classic.cards import ClassicCard, codes, encode_cards, full_deck, parse_card
from games.engine.classic.chance import ListedChance, RollSpec, SeededChance
from games.engine.classic.dice import Roll
from games.engine.classic.options import ClassicOptions
from games.engine.classic.ranking import ClassicScore, evaluate
from games.engine.classic.settle import decide, share
from games.engine.errors import IllegalAction, InvalidCard, InvalidSelection, NotYourTurn, WrongPhase
from games.engine.frozen import builder
from games.engine.pots import Pot, side_pots, uncalled
from games.engine.records import Record, card_record, new_record

SABACC_POT = "sabacc"  # the name of the Sabacc pot among the game's pools
PLAY_VERBS = ("draw", "trade", "stand")
BET_VERBS = ("check", "call", "bet", "raise", "fold", "allin")
VERBS = PLAY_VERBS + BET_VERBS
# The keyword arguments of each verb in `Game.act` (a raise's `amount` is the new round total).
VERB_ARGS = {
    "draw": ("unlock", "lock"),
    "trade": ("card", "unlock", "lock"),
    "stand": ("unlock", "lock"),
    "check": ("call_hand",),
    "call": ("call_hand",),
    "bet": ("amount", "call_hand"),
    "raise": ("amount", "call_hand"),
    "fold": ("call_hand",),
    "allin": ("call_hand",),
}
# One letter per verb in the compact actions of the saved state.
LETTERS = {
    "draw": "d",
    "trade": "t",
    "stand": "n",
    "check": "k",
    "call": "c",
    "bet": "b",
    "raise": "r",
    "fold": "f",
    "allin": "a",
}
VERB_OF = {letter: verb for verb, letter in LETTERS.items()}
# Records whose cards only their own seat may see (the rest of the log is public).
PRIVATE_KINDS = frozenset({"deal", "draw", "trade", "shift"})
# `lock=TAKEN` on a draw or trade locks the card the play takes (Ruling 3.2.9) without naming it: a player
# cannot name a card they have not seen, and the engine's answer to a named one would tell the pile's top.
TAKEN = "taken"


def names_taken(lock: object) -> bool:
    """Whether a play's `lock` is `TAKEN` (any case, spaces around ignored)."""
    return isinstance(lock, str) and lock.strip().lower() == TAKEN


@dataclass(frozen=True)
class ClassicLegal(LegalActions):
    """`LegalActions` with a play turn's choices and the call of the hand.

    On a play turn: `can_draw`/`can_trade`/`can_stand`, the cards that may be traded or locked (after the
    optional unlock, `lockable` before the play) and unlocked. On a betting turn: `can_call_hand`.
    """

    can_draw: bool = False
    can_trade: bool = False
    can_stand: bool = False
    tradeable: tuple[str, ...] = ()
    lockable: tuple[str, ...] = ()
    unlockable: tuple[str, ...] = ()
    can_call_hand: bool = False

    def _play_verbs(self) -> list[str]:
        verbs = []
        if self.can_draw:
            verbs.append("draw")
        if self.can_trade:
            verbs.append("trade")
        if self.can_stand:
            verbs.append("stand")
        return verbs

    def _verb_list(self) -> list[str]:
        return self._play_verbs() + LegalActions._verb_list(self)

    def to_dict(self) -> dict:
        if (
            self.can_stand
            and not (
                self.can_fold or self.can_check or self.can_call or self.can_all_in or self.can_bet or self.can_raise
            )
            and not self.can_select
        ):
            # A play turn (no betting verb): `LegalActions.to_dict` would add nothing but the seat and the phase.
            data = {"seat": self.seat, "phase": self.phase, "verbs": self._play_verbs()}
        else:
            data = LegalActions.to_dict(self)
        if self.can_stand:
            data["tradeable"] = list(self.tradeable)
            data["lockable"] = list(self.lockable)
            data["unlockable"] = list(self.unlockable)
        if self.can_call_hand:
            data["can_call_hand"] = True
        return data


_BASE_FIELDS = tuple(LegalActions.__dataclass_fields__)
_BASE_VALUES = attrgetter(*_BASE_FIELDS)  # a betting turn's `LegalActions` fields, in order, in one call
_new_legal = builder(ClassicLegal)  # `ClassicLegal(...)`, cheaper: one is made on every decision

# Records are frozen, so the few possible records of a roll ("3-5") and of a round's opening are made once.
_DICE_RECORDS = {(a, b): new_record("dice", note=f"{a}-{b}") for a in range(1, 7) for b in range(1, 7)}
_ROUND_RECORDS: dict[tuple[int, str], Record] = {}
# Each card's one character in the compact actions.
_CHARS = {card.index: encode_cards([card]) for card in full_deck()}
# The records of a card dealt or shifted to a seat are frozen, so each is made once (`card_record` without hashing
# the card in Python: keyed by its index).
_CARD_RECORDS: dict[tuple[str, int, int], Record] = {}


def _card_record(kind: str, seat: int, card: ClassicCard) -> Record:
    key = (kind, seat, card.index)
    record = _CARD_RECORDS.get(key)
    if record is None:
        record = _CARD_RECORDS[key] = card_record(kind, seat, card)
    return record


_SEAT_RECORDS: dict[tuple[str, int, int | None], Record] = {}


def _seat_record(kind: str, seat: int, amount: int | None) -> Record:
    """`new_record(kind, seat, amount)`, made once for the few that repeat (antes, stands)."""
    key = (kind, seat, amount)
    record = _SEAT_RECORDS.get(key)
    if record is None:
        if len(_SEAT_RECORDS) >= 4096:
            _SEAT_RECORDS.clear()
        record = _SEAT_RECORDS[key] = new_record(kind, seat, amount)
    return record


def _round_record(number: int, note: str) -> Record:
    record = _ROUND_RECORDS.get((number, note))
    if record is None:
        record = _ROUND_RECORDS[(number, note)] = new_record("round", amount=number, note=note)
    return record


class ClassicHand:
    """The state of one Classic hand. Hidden fields (cards, piles, seed) are private and kept out of repr."""

    # Slots, not a `__dict__`: the engine reads these on every decision, and a slot is read without a dict lookup.
    __slots__ = (
        "_actions",
        "_deck",
        "_discard",
        "_draw",
        "_field",
        "_hand",
        "_legal",
        "_live",
        "_log",
        "_pending_roll",
        "_pots",
        "_pots_key",
        "_seed",
        "_skipped_from_start",
        "_stacks",
        "_turn_index",
        "_turns",
        "_waiting",
        "awards",
        "called_by",
        "carry_out",
        "chance",
        "commitment",
        "contributions",
        "dealer",
        "declared",
        "demise_cards",
        "ended",
        "folded",
        "forced",
        "names",
        "number",
        "options",
        "penalties",
        "phase",
        "reshuffled",
        "returned",
        "reveal",
        "revealed_cards",
        "rolls",
        "round",
        "round_number",
        "sabacc_antes",
        "sabacc_award",
        "sabacc_before",
        "sabacc_from_pots",
        "sabacc_penalties",
        "sabacc_pot",
        "scores",
        "seats",
        "shifts",
        "stalled",
        "structure",
    )

    def __init__(
        self,
        *,
        number: int,
        dealer: int,
        seats: list[int],
        names: list[str],
        stacks: list[int],
        options: ClassicOptions,
        structure: BettingStructure,
        deck: list[ClassicCard],
        dice: RollSpec | None = None,
        reshuffles: list[list[ClassicCard]] | None = None,
        seed: str | None = None,
        commitment: str | None = None,
        pools: dict[str, int] | None = None,
        **_shared: object,
    ) -> None:
        """The keywords `Game.start_hand` gives every variant's hand. A seeded hand (`seed`) rolls and forms new
        piles from its seed; a given deck takes its rolls and piles from `dice` (a `RollSpec`) and `reshuffles`
        (the top cards of each new pile), the rest in the seeded order."""
        if seed is not None:
            chance = SeededChance(seed)
        else:
            spec = dice or RollSpec()
            chance = ListedChance(deck, spec.rolls, reshuffles, hand=number, order_seed=spec.order_seed)
        sabacc_pot = (pools or {}).get(SABACC_POT, 0)
        self.number = number
        self.dealer = dealer
        self.seats = list(seats)  # in the hand, clockwise from the dealer's left
        self.names = names
        self._stacks = stacks  # the game's stacks, shared
        self.options = options
        self.structure = structure
        self.chance = chance
        self._seed = seed
        self.commitment = commitment
        self.carry_out = 0  # the hand pot never carries over (RULES 3.5)
        self._deck: tuple[ClassicCard, ...] = tuple(deck)
        self._draw: list[ClassicCard] = list(self._deck)
        self._discard: list[ClassicCard] = []
        self._hand: dict[int, list[ClassicCard]] = {s: [] for s in seats}
        self._field: dict[int, list[ClassicCard]] = {s: [] for s in seats}
        self.contributions: dict[int, int] = dict.fromkeys(seats, 0)
        self.forced: dict[int, int] = {}
        self.sabacc_antes: dict[int, int] = {}
        self.sabacc_before = sabacc_pot
        self.sabacc_pot = sabacc_pot
        self.folded: set[int] = set()
        self._live: list[int] = list(seats)
        self.phase = "deal"
        self.round_number = 0
        self.round: BettingRound | None = None
        self._turns: list[int] = []
        self._turn_index = 0
        self._pending_roll: str | None = None
        self.stalled = False  # a roll is due and a listed hand has no roll left
        self._skipped_from_start = False
        self.called_by: int | None = None
        self.ended: str | None = None
        self.rolls: list[Roll] = []
        self.shifts: list[int] = []
        self.reshuffled: list[list[ClassicCard]] = []
        self._log: list[Record] = []
        self._actions: list[str] = []
        self.returned: tuple[int, int] | None = None
        self.reveal: dict[int, ClassicScore] = {}
        self.revealed_cards: dict[int, tuple[list[ClassicCard], list[ClassicCard]]] = {}
        self.scores: dict[int, ClassicScore] = {}
        self.demise_cards: dict[int, list[ClassicCard]] = {}
        self.penalties: dict[int, int] = {}
        self.awards: list[dict] = []
        self.sabacc_award: dict = {"winners": [], "paid": {}}
        self.sabacc_from_pots = 0
        self.sabacc_penalties = 0
        self.declared: dict[int, int] = {}
        self._waiting: list[int] | None = None
        self._legal: dict[int, ClassicLegal] = {}
        self._pots: list[Pot] = []
        self._pots_key: tuple | None = None

    def __repr__(self) -> str:
        return f"<ClassicHand {self.number} phase={self.phase} round={self.round_number} dealer={self.dealer}>"

    # ----- queries -----------------------------------------------------------------------------

    @property
    def is_complete(self) -> bool:
        return self.phase == "complete"

    @property
    def live(self) -> list[int]:
        return list(self._live)

    @property
    def seed(self) -> None:
        """Always None: hand seeds are revealed only when the game ends (`Game.revealed_seeds()`)."""
        return None

    def is_all_in(self, seat: int) -> bool:
        return seat in self.seats and seat not in self.folded and self._stacks[seat] == 0

    @property
    def pools_out(self) -> dict[str, int]:
        """What the hand hands back to the game to keep between hands: the Sabacc pot (RULES 3.5)."""
        return {SABACC_POT: self.sabacc_pot}

    def pot_total(self) -> int:
        """Credits of this hand outside the stacks: the hand pot and the Sabacc pot."""
        return sum(self.contributions.values()) + self.sabacc_pot

    def hand_pot(self) -> int:
        return sum(self.contributions.values())

    def pots(self) -> list[Pot]:
        # Pots follow from contributions and folds alone; worked out again only when they change.
        key = (tuple(self.contributions.values()), len(self.folded))
        if key != self._pots_key:
            self._pots = side_pots(self.contributions, self.folded)
            self._pots_key = key
        return list(self._pots)

    def bets(self) -> dict[int, int]:
        return dict(self.round.bets) if self.round is not None and self.phase == "betting" else {}

    def draw_pile_size(self) -> int:
        return len(self._draw)

    def discard_size(self) -> int:
        return len(self._discard)

    def field(self, seat: int) -> list[ClassicCard]:
        """A player's interference field: public."""
        return list(self._field.get(seat, []))

    def held_count(self, seat: int) -> int:
        return len(self._hand.get(seat, []))

    def _all_cards(self) -> list[ClassicCard]:
        """Every card of the hand wherever it lies (only counts leave the engine)."""
        cards = self._draw + self._discard
        for seat in self.seats:
            cards = cards + self._hand[seat] + self._field[seat]
        return cards

    def _changed(self) -> None:
        self._waiting = None
        if self._legal:
            self._legal.clear()

    def _awaited(self) -> list[int]:
        waiting = self._waiting
        if waiting is None:
            waiting = []
            if not self.stalled and self._pending_roll is None:
                if self.phase == "play":
                    seat = self._turn_seat()
                    waiting = [] if seat is None else [seat]
                elif self.phase == "betting" and self.round is not None:
                    actor = self.structure.actor(self.round, self._stacks, self.folded)
                    waiting = [] if actor is None else [actor]
            self._waiting = waiting
        return waiting

    def waiting_for(self) -> list[int]:
        waiting = self._waiting
        return list(self._awaited() if waiting is None else waiting)

    def actor(self) -> int | None:
        waiting = self._waiting
        if waiting is None:
            waiting = self._awaited()
        return waiting[0] if waiting else None

    def _turn_seat(self) -> int | None:
        while self._turn_index < len(self._turns):
            seat = self._turns[self._turn_index]
            if seat not in self.folded:
                return seat
            self._turn_index += 1
        return None

    def _may_call_hand(self) -> bool:
        return self.called_by is None and self.round_number >= self.options.call_round

    def legal_actions(self, seat: int) -> ClassicLegal:
        phase = self.phase
        waiting = self._waiting
        if seat not in (self._awaited() if waiting is None else waiting):
            return ClassicLegal(seat=seat, phase=phase)
        legal = self._legal.get(seat)
        if legal is None:
            if phase == "play":
                hand, field = self._hand[seat], self._field[seat]
                can_take = bool(self._draw or self._discard)
                held = tuple([card.code for card in hand])
                legal = _new_legal(
                    seat=seat,
                    phase=phase,
                    can_draw=can_take,
                    can_trade=can_take and bool(hand or field),
                    can_stand=True,
                    tradeable=held,
                    lockable=held,
                    unlockable=tuple([card.code for card in field]),
                )
            else:
                base = self.structure.legal(self.round, seat, self._stacks, phase)
                legal = _new_legal(*_BASE_VALUES(base), can_call_hand=self._may_call_hand())
            self._legal[seat] = legal
        return legal

    def log_for(self, seat: int | None = None) -> list[Record]:
        """The log as `seat` may see it (None: a spectator): cards dealt, drawn, traded or shifted to others
        are removed; locks, unlocks, rolls, the reveal and Sudden Demise cards are public."""
        shown = []
        for record in self._log:
            if record.cards and record.kind in PRIVATE_KINDS and record.seat != seat:
                record = new_record(record.kind, record.seat, record.amount, (), "")
            shown.append(record)
        return shown

    def use_seed(self, seed: str) -> None:
        """Verifying a finished game: the rest of this hand's rolls and piles come from its revealed seed (the
        deck was checked against it), so a listed roll or pile the seed does not make shows as a difference."""
        self._seed = seed
        self.chance = SeededChance(seed)

    # ----- what the views show ----------------------------------------------------------------------

    def add_public_seats(self, rows: list[dict], viewer: int | None = None) -> None:
        """Each seat's public part, added to its row (`rows[seat]`): how many cards it holds, its interference
        field (public, face up) and, with `declare_totals`, its declared two-card total."""
        hands, fields, declared = self._hand, self._field, self.declared
        for seat in self.seats:
            field = fields[seat]
            row = rows[seat]
            row["cards_held"] = len(hands[seat])
            row["field"] = [card.code for card in field] if field else []
            if seat in declared:
                row["declared_total"] = declared[seat]

    def add_public_hand(self, data: dict) -> None:
        """The hand's public part, added to `data`: the round, every roll and Shift as they happen, the piles'
        sizes, the pots."""
        rolls = self.rolls
        data["variant"] = "classic"
        data["round"] = self.round_number
        data["rolls"] = [[a, b] for a, b in rolls]
        data["last_roll"] = list(rolls[-1]) if rolls else None
        data["shifts"] = list(self.shifts)
        data["draw_pile"] = len(self._draw)
        data["discard_pile"] = len(self._discard)
        data["hand_pot"] = sum(self.contributions.values())  # `self.hand_pot()`
        data["sabacc_pot"] = self.sabacc_pot
        data["call_round"] = self.options.call_round
        data["called_by"] = self.called_by
        data["ended"] = self.ended

    def private_view(self, seat: int) -> dict:
        """What only `seat` sees: the cards in its hand (its field is public anyway)."""
        return {
            "cards": [card.code for card in self._hand.get(seat, ())],
            "field": [card.code for card in self._field.get(seat, ())],
            "selection": [],
        }

    # ----- the automatic steps -----------------------------------------------------------------

    def begin(self) -> None:
        """Antes, the deal and the declared totals; then the first play round."""
        for seat in self.seats:
            stack = self._stacks[seat]
            # Ruling 3.2.1: the hand-pot ante first, then what is left toward the Sabacc ante.
            ante = min(self.options.ante, stack)
            sabacc = min(self.options.sabacc_ante, stack - ante)
            self._stacks[seat] = stack - ante - sabacc
            self.contributions[seat] += ante
            self.forced[seat] = ante
            self.sabacc_antes[seat] = sabacc
            self.sabacc_pot += sabacc
            self._log.append(_seat_record("ante", seat, ante))
            if sabacc:
                self._log.append(_seat_record("sabacc_ante", seat, sabacc))
        for _ in range(2):
            for seat in self.seats:
                card = self._take()
                self._hand[seat].append(card)
                self._log.append(_card_record("deal", seat, card))
        if self.options.declare_totals:
            for seat in self.seats:
                total = sum(card.value for card in self._hand[seat])
                self.declared[seat] = total
                self._log.append(new_record("declare", seat, total))
        self._open_play_round()
        self._advance()

    def _take(self) -> ClassicCard:
        """The top card of the draw pile; an empty pile is first rebuilt from the discard pile (Ruling 3.2.14)."""
        if not self._draw:
            pile = self.chance.new_pile(self._discard, len(self.reshuffled) + 1, "reshuffle")
            self.reshuffled.append(list(pile))
            self._draw, self._discard = pile, []
            self._log.append(new_record("reshuffle", amount=len(pile)))
        return self._draw.pop(0)

    def _open_play_round(self) -> None:
        self.round_number += 1
        self.phase = "play"
        self.round = None
        self._turns = list(self._live)
        self._turn_index = 0
        self._log.append(_round_record(self.round_number, "play"))

    def _open_betting_round(self) -> None:
        self.phase = "betting"
        self.round = self.structure.open_round(self.round_number, list(self._live), {}, self._stacks)
        self._log.append(_round_record(self.round_number, "betting"))
        self._changed()
        self._skipped_from_start = self.actor() is None

    def _advance(self) -> None:
        legal = self._legal
        while True:
            self._waiting = None  # `self._changed()`, inlined: this loop runs several times a decision
            if legal:
                legal.clear()
            phase = self.phase
            if phase == "complete" or self.stalled:
                return
            if len(self._live) == 1:
                self._finish_fold_out()
                return
            if self._pending_roll is not None:
                roll = self.chance.next_roll()
                if roll is None:
                    self.stalled = True
                    self._changed()
                    return
                what, self._pending_roll = self._pending_roll, None
                self._roll(roll)
                if what == "round":
                    self._after_round()
                continue
            if phase == "play":
                if self._turn_seat() is not None:
                    return
                self._open_betting_round()
                continue
            if phase == "betting":
                if self.actor() is not None:
                    return
                self.phase = "closing"
                if self.options.shift_rolls != "off":
                    self._pending_roll = "round"
                else:
                    self._after_round()
                continue
            return

    def _roll(self, roll: Roll) -> None:
        self.rolls.append(roll)
        # A public record of the two faces ("3-5"); a pair is followed by the Shift it sets off.
        faces = (roll[0], roll[1])
        self._log.append(_DICE_RECORDS.get(faces) or new_record("dice", note=f"{roll[0]}-{roll[1]}"))
        if roll[0] == roll[1]:  # a pair
            self.shifts.append(len(self.rolls))
            self._log.append(new_record("sabacc_shift", amount=len(self.rolls)))
            self._shift()

    def _after_round(self) -> None:
        """The end of a betting round, after its closing roll: the hand is called, or the next round opens."""
        number, opts = self.round_number, self.options
        if self.called_by is not None:
            self.ended = "called"
        elif self._skipped_from_start and number >= opts.call_round:
            self.ended = "no_betting"  # Ruling 3.2.6
        elif opts.max_rounds is not None and number >= opts.max_rounds:
            self.ended = "max_rounds"  # Ruling 3.2.7
        if self.ended is not None:
            self._showdown()
        else:
            self._open_play_round()

    def _shift(self) -> None:
        """A Sabacc Shift: every card in no field becomes a new draw pile; each player gets back as many."""
        need = {seat: len(self._hand[seat]) for seat in self._live}
        pool = self._draw + self._discard
        for seat in self._live:
            pool += self._hand[seat]
            self._hand[seat] = []
        pile = self.chance.new_pile(pool, len(self.reshuffled) + 1, "shift")
        self.reshuffled.append(list(pile))
        self._draw, self._discard = pile, []
        self._log.append(new_record("shift_pile", amount=len(pile)))
        # One card at a time around the table to each seat still owed one, from the top of the new pile.
        hands, log, taken = self._hand, self._log, 0
        for dealt in range(max(need.values(), default=0)):
            for seat in self._live:
                if need[seat] > dealt:
                    card = pile[taken]
                    taken += 1
                    hands[seat].append(card)
                    log.append(_card_record("shift", seat, card))
        del pile[:taken]

    def _return_uncalled(self) -> None:
        back = uncalled(self.contributions)
        if back:
            seat, amount = back
            self.contributions[seat] -= amount
            self._stacks[seat] += amount
            self.returned = back
            self._log.append(new_record("return", seat, amount))

    def _from_left(self, seats) -> list[int]:
        chosen = set(seats)
        return [s for s in self.seats if s in chosen]

    def _cards_of(self, seat: int) -> list[ClassicCard]:
        return self._hand[seat] + self._field[seat]

    def _finish_fold_out(self) -> None:
        self.ended = "folds"
        self._return_uncalled()
        (winner,) = self._live
        for pot in self.pots():
            self._pay(pot, [winner], {winner: pot.amount})
        score = evaluate(self._cards_of(winner), self.options.hand_ranking)
        winners = []
        if score.wins_sabacc_pot:
            # Ruling 3.3.8: the last player shows an Idiot's Array or a Pure Sabacc and takes the Sabacc pot.
            self.reveal[winner] = self.scores[winner] = score
            self.revealed_cards[winner] = (list(self._cards_of(winner)), list(self._field[winner]))
            self._log.append(new_record("reveal", winner, score.total, tuple(self._cards_of(winner)), score.hand))
            winners = [winner]
        self._pay_sabacc_pot(winners)
        self._end()

    def _showdown(self) -> None:
        self._return_uncalled()
        ranking = self.options.hand_ranking
        live = self._live
        for seat in live:
            cards = self._cards_of(seat)
            self.reveal[seat] = evaluate(cards, ranking)
            self.revealed_cards[seat] = (list(cards), list(self._field[seat]))
            self._log.append(new_record("reveal", seat, self.reveal[seat].total, tuple(cards), self.reveal[seat].hand))
        self.scores = dict(self.reveal)
        # Penalties first (Ruling 3.4.3), each the whole hand pot, capped by the stack (Ruling 3.4.2).
        hand_pot = self.hand_pot()
        for seat in live:
            if self.reveal[seat].bombed:
                paid = min(hand_pot, self._stacks[seat])
                self._stacks[seat] -= paid
                self.sabacc_pot += paid
                self.sabacc_penalties += paid
                self.penalties[seat] = paid
                self._log.append(new_record("penalty", seat, paid))
        main_winners: list[int] = []
        for index, pot in enumerate(self.pots()):
            eligible = self._from_left(pot.eligible or live)
            winners = decide(eligible, self.scores, self._deal_demise)
            if winners:
                self._pay(pot, winners, share(pot.amount, winners))
            else:
                # Ruling 3.4.5: a pot nobody is left to win goes into the Sabacc pot.
                self.sabacc_pot += pot.amount
                self.sabacc_from_pots += pot.amount
                self.awards.append({"amount": pot.amount, "eligible": list(pot.eligible), "winners": [], "paid": {}})
                self._log.append(new_record("to_sabacc_pot", amount=pot.amount))
            if index == 0:
                main_winners = winners
        # Ruling 3.3.7: the hand shown at the reveal decides the Sabacc pot.
        self._pay_sabacc_pot([s for s in main_winners if self.reveal[s].wins_sabacc_pot])
        self._end()

    def _deal_demise(self, seats: list[int]) -> bool:
        """Sudden Demise: one card to each of `seats`, or none when too few are left (Ruling 3.3.6)."""
        if len(self._draw) + len(self._discard) < len(seats):
            return False
        for seat in seats:
            card = self._take()
            self._hand[seat].append(card)
            self.demise_cards.setdefault(seat, []).append(card)
            self.scores[seat] = evaluate(self._cards_of(seat), self.options.hand_ranking)
            self._log.append(new_record("sudden_demise", seat, cards=(card,)))
        return True

    def _pay(self, pot: Pot, winners: list[int], paid: dict[int, int]) -> None:
        for seat, amount in paid.items():
            self._stacks[seat] += amount
            self._log.append(new_record("award", seat, amount))
        self.awards.append({"amount": pot.amount, "eligible": list(pot.eligible), "winners": winners, "paid": paid})

    def _pay_sabacc_pot(self, winners: list[int]) -> None:
        """Ruling 3.3.9: paid last, whole, to the winners (listed even when it holds nothing)."""
        paid = share(self.sabacc_pot, winners) if winners else {}
        for seat, amount in paid.items():
            self._stacks[seat] += amount
            self._log.append(new_record("sabacc_award", seat, amount))
        self.sabacc_pot -= sum(paid.values())
        self.sabacc_award = {"winners": list(winners), "paid": paid}

    def _end(self) -> None:
        for seat in self.seats:
            self._discard += self._hand[seat] + self._field[seat]
            self._hand[seat], self._field[seat] = [], []
        self.contributions = dict.fromkeys(self.seats, 0)
        self.phase = "complete"
        self.round = None
        self._log.append(new_record("end"))
        self._changed()

    # ----- operations: verify, then apply ------------------------------------------------------

    def _who(self) -> str:
        return ", ".join(self.names[s] for s in self._awaited()) or "nobody"

    def _verify_waiting(self, seat: int, verb: str) -> None:
        if (type(seat) is not int and (isinstance(seat, bool) or not isinstance(seat, int))) or not (
            0 <= seat < len(self.names)
        ):
            raise NotYourTurn(f"Seat {seat!r} does not exist; seats run from 0 to {len(self.names) - 1}.")
        phase = self.phase
        if phase == "complete":
            raise WrongPhase(f"Hand {self.number} is over; the next hand has not started.")
        if self.stalled:
            raise WrongPhase(
                f"roll {len(self.rolls) + 1} of the hand is due but its dice are used up; "
                "list every roll the hand makes"
            )
        if verb not in VERBS:
            raise WrongPhase(f"Unknown action {verb!r}; the actions are: {', '.join(VERBS)}.")
        name = self.names[seat]
        waiting = self._waiting
        if seat not in (self._awaited() if waiting is None else waiting):
            if seat in self.folded:
                raise NotYourTurn(f"{name} has folded and takes no part in the rest of hand {self.number}.")
            raise NotYourTurn(f"It is not {name}'s turn: waiting for {self._who()}.")
        if verb in PLAY_VERBS and phase != "play":
            raise WrongPhase(
                f"wrong phase: it is {name}'s betting turn in round {self.round_number} "
                "(check, call, bet, raise, fold or allin)"
            )
        if verb in BET_VERBS and phase == "play":
            raise WrongPhase(
                f"wrong phase: it is {name}'s play turn in round {self.round_number} (draw, trade or stand)"
            )

    def _card(self, value: object, what: str) -> ClassicCard:
        try:
            return parse_card(value)
        except InvalidCard as exc:
            raise InvalidSelection(f"{what}: {exc}") from None

    def verify_play(
        self,
        seat: int,
        verb: str,
        card: object = None,
        unlock: object = None,
        lock: object = None,
        *,
        seen_only: bool = False,
    ) -> tuple[ClassicCard | None, ClassicCard | None, ClassicCard | None]:
        """Check a play turn; return the (trade card, unlocked card, locked card) it names.

        `seen_only`: decide from what the player sees, as a player's own decision must be: a named lock is a card
        they keep (the card taken is locked as `TAKEN` only). Without it a named lock may also be the card taken,
        as replays and saved games name it; that answer depends on the hidden pile, so a player never gets it."""
        self._verify_waiting(seat, verb)
        if verb not in PLAY_VERBS:
            raise WrongPhase(f"{verb} is a betting action; on a play turn draw, trade or stand.")
        name = self.names[seat]
        hand, field = self._hand[seat], self._field[seat]  # only read: an unlock below works on copies
        out = into = given = None
        if unlock is not None:
            out = self._card(unlock, "unlock")
            if out not in field:
                where = " (it is in the hand, not the field)" if out in hand else ""
                raise InvalidSelection(
                    f"cannot unlock {out.code}: it is not in {name}'s interference field{where}; "
                    f"the field holds: {', '.join(codes(field)) or 'nothing'}."
                )
            field = list(field)
            field.remove(out)
            hand = [*hand, out]
        if verb in ("draw", "trade") and not (self._draw or self._discard):
            raise IllegalAction("The draw pile and the discard pile are both empty: nobody can draw; stand instead.")
        if verb == "trade":
            if card is None:
                raise InvalidSelection("A trade names the card to give up: trade with card, a card of your hand.")
            given = self._card(card, "trade")
            if given not in hand:
                where = " (it is in the interference field: unlock it first)" if given in field else ""
                raise InvalidSelection(f"cannot trade {given.code}: it is not in {name}'s hand{where}")
        elif card is not None:
            raise InvalidSelection(f"Only a trade names a card to give up; {verb} takes no card.")
        if lock is not None:
            taken = names_taken(lock)
            if taken and verb == "stand":
                raise InvalidSelection(
                    "Standing takes no card: lock a card you hold, or draw or trade and lock the card you take."
                )
            into = None if taken else self._card(lock, "lock")
            after = list(hand)
            if given is not None:
                after.remove(given)
            if verb != "stand" and (taken or not seen_only):
                # Ruling 3.2.9: the card just taken may be locked; it is the top of the pile (or of the pile the
                # discard pile is about to become, which the hand's chance fixes without changing anything).
                pile = self._draw or self.chance.new_pile(self._discard, len(self.reshuffled) + 1, "reshuffle")
                after.append(pile[0])
                if taken:  # `lock="taken"`: the card this play takes, named without being seen
                    into = pile[0]
            if into not in after:
                if seen_only:
                    gone = " (the trade gives it up)" if into == given else ""
                    kept = ", ".join(codes(_canonical(after))) or "none"
                    also = "" if verb == "stand" else f", or `{TAKEN}` for the card the {verb} takes"
                    raise InvalidSelection(f"cannot lock {into.code}{gone}: lock a card {name} keeps ({kept}){also}.")
                where = " (it is already in the interference field)" if into in field else ""
                raise InvalidSelection(f"cannot lock {into.code}: it is not in {name}'s hand{where}")
        return given, out, into

    def play(self, seat: int, verb: str, card: object = None, unlock: object = None, lock: object = None) -> None:
        """A play turn: optionally unlock one field card, draw, trade or stand, optionally lock one card."""
        given, out, into = self.verify_play(seat, verb, card, unlock, lock)
        hand, field = self._hand[seat], self._field[seat]
        if out is not None:
            field.remove(out)
            hand.append(out)
            self._log.append(new_record("unlock", seat, cards=(out,)))
        taken = None
        if verb != "stand":
            taken = self._take()
            hand.append(taken)
        if verb == "trade":
            hand.remove(given)
            self._discard.append(given)
        if verb == "stand":
            self._log.append(_seat_record("stand", seat, None))
        else:
            kept = (taken,) if given is None else (taken, given)
            self._log.append(new_record(verb, seat, cards=kept))
        if into is not None:
            hand.remove(into)
            field.append(into)
            self._log.append(new_record("lock", seat, cards=(into,)))
        self._actions.append(f"{seat}{LETTERS[verb]}{_char(given)}{_char(out)}{_char(into)}")
        self._turn_index += 1
        if self.options.shift_rolls == "turns_and_rounds":
            self._pending_roll = "turn"
        self._advance()

    def verify_act(self, seat: int, verb: str, **args: object) -> None:
        """Any verb of a Classic hand (`Game.verify_act`): raises why it is illegal, changes nothing."""
        if verb in PLAY_VERBS:
            self.verify_play(seat, verb, **_only(verb, args))
        else:
            self.verify_bet_action(seat, verb, **_only(verb, args))

    def act(self, seat: int, verb: str, **args: object) -> None:
        if verb in PLAY_VERBS:
            self.play(seat, verb, **_only(verb, args))
        else:
            self.bet_action(seat, verb, **_only(verb, args))

    def verify_bet_action(self, seat: int, verb: str, amount: int | None = None, call_hand: object = False) -> int:
        return self._checked(seat, verb, amount, call_hand)[1]

    def _checked(self, seat: int, verb: str, amount: int | None, call_hand: object) -> tuple[str, int]:
        self._verify_waiting(seat, verb)
        if verb in PLAY_VERBS:
            raise WrongPhase(
                f"wrong phase: it is {self.names[seat]}'s betting turn in round {self.round_number} "
                "(check, call, bet, raise, fold or allin)"
            )
        if not (call_hand is None or call_hand is False or call_hand is True):
            raise IllegalAction(f"call_hand is true or left out; got {call_hand!r}.")
        if call_hand is True:
            if verb == "fold":
                raise IllegalAction("A fold cannot call the hand; call it with a check, call, bet, raise or all-in.")
            if self.called_by is not None:
                raise IllegalAction(f"The hand is already called (by {self.names[self.called_by]}); once a hand.")
            if self.round_number < self.options.call_round:
                raise IllegalAction(
                    f"The hand may be called from betting round {self.options.call_round} on; "
                    f"this is round {self.round_number}."
                )
        return self.structure.check_action(self.round, seat, verb, amount, self._stacks, self.legal_actions(seat))

    def bet_action(self, seat: int, verb: str, amount: int | None = None, call_hand: object = False) -> None:
        verb, paid = self._checked(seat, verb, amount, call_hand)
        self._stacks[seat] -= paid
        self.contributions[seat] += paid
        if verb == "fold":
            self.folded.add(seat)
            self._live.remove(seat)
            # Ruling 3.2.11: the folded cards, field included, go face down onto the discard pile.
            self._discard += self._hand[seat] + self._field[seat]
            self._hand[seat], self._field[seat] = [], []
        self.structure.apply(self.round, seat, verb, paid, self._stacks, self.folded)
        self._log.append(new_record(verb, seat, paid, note="call_hand" if call_hand is True else ""))
        if call_hand is True:
            self.called_by = seat
        arg = "" if amount is None or verb not in ("bet", "raise") else str(amount)
        self._actions.append(f"{seat}{LETTERS[verb]}{arg}{'!' if call_hand is True else ''}")
        self._advance()

    # ----- results -------------------------------------------------------------------------------

    def summary(self, game) -> dict:
        """The hand in the shape of the replay result (docs/replay.md, Classic), complete or part-way."""
        names, stacks = game.names, game.stacks
        data = {
            "number": self.number,
            "dealer": names[self.dealer],
            "forced": {names[s]: a for s, a in self.forced.items() if a},
            "sabacc_antes": {names[s]: a for s, a in self.sabacc_antes.items() if a},
        }
        if not self.is_complete:
            data.update({"complete": False, "rounds": self.round_number, "pot": self.hand_pot()})
            return data
        showdown = {}
        for seat in self.seats:
            if seat not in self.reveal:
                continue
            cards, field = self.revealed_cards[seat]
            row = {
                "cards": codes(_canonical(cards)),
                "field": codes(_canonical(field)),
                **self.reveal[seat].to_dict(),
            }
            if seat in self.demise_cards:
                row["sudden_demise"] = {"cards": codes(self.demise_cards[seat]), **self.scores[seat].to_dict()}
            showdown[names[seat]] = row
        data.update(
            {
                "rounds": self.round_number,
                "ended": self.ended,
                "called_by": names[self.called_by] if self.ended == "called" else None,
                "rolls": len(self.rolls),
                "shifts": list(self.shifts),
                "folded": [names[s] for s in self.seats if s in self.folded],
                "showdown": showdown,
                "penalties": {names[s]: a for s, a in self.penalties.items()},
                "pots": [
                    {
                        "amount": award["amount"],
                        "eligible": [names[s] for s in award["eligible"]],
                        "winners": [names[s] for s in award["winners"]],
                        "paid": {names[s]: a for s, a in award["paid"].items()},
                    }
                    for award in self.awards
                ],
                "sabacc_pot": {
                    "before": self.sabacc_before,
                    "antes": sum(self.sabacc_antes.values()),
                    "penalties": self.sabacc_penalties,
                    "from_pots": self.sabacc_from_pots,
                    "winners": [names[s] for s in self.sabacc_award["winners"]],
                    "paid": {names[s]: a for s, a in self.sabacc_award["paid"].items()},
                    "after": self.sabacc_pot,
                },
                "carry_over": 0,
                "stacks": {name: stacks[s] for s, name in enumerate(names)},
            }
        )
        return data


def _only(verb: str, args: dict) -> dict:
    """`args` if `verb` takes every one of them; otherwise an error naming what it takes."""
    allowed = VERB_ARGS.get(verb, ())
    for key in args:
        if key not in allowed:
            raise IllegalAction(f"{verb} takes {', '.join(allowed) or 'no arguments'}; got {key!r}.")
    return args


def _char(card: ClassicCard | None) -> str:
    return "-" if card is None else _CHARS[card.index]


def _canonical(cards: list[ClassicCard]) -> list[ClassicCard]:
    return sorted(cards, key=lambda c: c.index)
