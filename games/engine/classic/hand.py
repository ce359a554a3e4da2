"""One hand of Classic Sabacc (RULES 3.2-3.5): antes, the deal, rounds of play turns and betting with
their rolls and Sabacc Shifts, the call, the reveal, penalties, Sudden Demise, the pots and the Sabacc pot.

The hand moves by itself through every step that needs no decision and stops at each play turn and
each betting turn. Every operation is verified first (raising an `IllegalAction` subclass and changing
nothing), then applied and recorded in the log. Betting and side pots are the shared ones
(`games.engine.betting`, `games.engine.pots`).
"""

from games.engine.betting import legal_from
from games.engine.classic.actions import (
    _DICE_RECORDS,
    BET_VERBS,
    CLASSIC_LEGAL_DEFAULTS,
    LETTERS,
    PLAY_VERBS,
    PRIVATE_KINDS,
    SABACC_POT,
    TAKEN,
    VERB_ARGS,
    VERB_OF,
    VERBS,
    ClassicLegal,
    _card_record,
    _round_record,
    _seat_record,
    names_taken,
)
from games.engine.classic.cards import ClassicCard
from games.engine.classic.chance import ListedChance, RollSpec, SeededChance
from games.engine.classic.dice import Roll
from games.engine.classic.ranking import ClassicScore
from games.engine.classic.showdown import ClassicShowdown
from games.engine.records import Record, new_record

# The verbs and legal actions live in `actions`; these names are read from here too.
__all__ = [
    "BET_VERBS",
    "LETTERS",
    "PLAY_VERBS",
    "SABACC_POT",
    "TAKEN",
    "VERBS",
    "VERB_ARGS",
    "VERB_OF",
    "ClassicHand",
    "ClassicLegal",
    "names_taken",
]


class ClassicHand(ClassicShowdown):
    """The state of one Classic hand. Hidden fields (cards, piles, seed) are private and kept out of repr."""

    # Slots, not a `__dict__`: the engine reads these on every decision, and a slot is read without a dict lookup.
    __slots__ = (
        "_field",
        "_hand",
        "_pending_roll",
        "_skipped_from_start",
        "_turn_index",
        "_turns",
        "called_by",
        "chance",
        "declared",
        "demise_cards",
        "ended",
        "penalties",
        "reveal",
        "revealed_cards",
        "rolls",
        "round_number",
        "sabacc_antes",
        "sabacc_award",
        "sabacc_before",
        "sabacc_from_pots",
        "sabacc_penalties",
        "sabacc_pot",
        "shifts",
        "stalled",
    )

    def _start(
        self, deck: list[ClassicCard], dice: RollSpec | None, reshuffles: list | None, pools: dict[str, int] | None
    ) -> None:
        """A seeded hand (`seed`) rolls and forms new piles from its seed; a given deck takes its rolls and piles
        from `dice` (a `RollSpec`) and `reshuffles` (the top cards of each new pile), the rest in the seeded
        order."""
        if self._seed is not None:
            chance = SeededChance(self._seed)
        else:
            spec = dice or RollSpec()
            chance = ListedChance(deck, spec.rolls, reshuffles, hand=self.number, order_seed=spec.order_seed)
        sabacc_pot = (pools or {}).get(SABACC_POT, 0)
        self.chance = chance
        self._hand: dict[int, list[ClassicCard]] = {s: [] for s in self.seats}
        self._field: dict[int, list[ClassicCard]] = {s: [] for s in self.seats}
        self.sabacc_antes: dict[int, int] = {}
        self.sabacc_before = sabacc_pot
        self.sabacc_pot = sabacc_pot
        self.round_number = 0
        self._turns: list[int] = []
        self._turn_index = 0
        self._pending_roll: str | None = None
        self.stalled = False  # a roll is due and a listed hand has no roll left
        self._skipped_from_start = False
        self.called_by: int | None = None
        self.ended: str | None = None
        self.rolls: list[Roll] = []
        self.shifts: list[int] = []
        self.reveal: dict[int, ClassicScore] = {}
        self.revealed_cards: dict[int, tuple[list[ClassicCard], list[ClassicCard]]] = {}
        self.demise_cards: dict[int, list[ClassicCard]] = {}
        self.penalties: dict[int, int] = {}
        self.sabacc_award: dict = {"winners": [], "paid": {}}
        self.sabacc_from_pots = 0
        self.sabacc_penalties = 0
        self.declared: dict[int, int] = {}

    def __repr__(self) -> str:
        return f"<ClassicHand {self.number} phase={self.phase} round={self.round_number} dealer={self.dealer}>"

    # ----- queries -----------------------------------------------------------------------------

    @property
    def pools_out(self) -> dict[str, int]:
        """What the hand hands back to the game to keep between hands: the Sabacc pot (RULES 3.5)."""
        return {SABACC_POT: self.sabacc_pot}

    def pot_total(self) -> int:
        """Credits of this hand outside the stacks: the hand pot and the Sabacc pot."""
        return sum(self.contributions.values()) + self.sabacc_pot

    def hand_pot(self) -> int:
        return sum(self.contributions.values())

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
                values = {
                    **CLASSIC_LEGAL_DEFAULTS,
                    "seat": seat,
                    "phase": phase,
                    "can_draw": can_take,
                    "can_trade": can_take and bool(hand or field),
                    "can_stand": True,
                    "tradeable": held,
                    "lockable": held,
                    "unlockable": tuple([card.code for card in field]),
                }
            else:
                base = self.structure.legal(self.round, seat, self._stacks, phase)
                values = {**CLASSIC_LEGAL_DEFAULTS, **base.__dict__, "can_call_hand": self._may_call_hand()}
            legal = legal_from(ClassicLegal, values)
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

    def _cards_of(self, seat: int) -> list[ClassicCard]:
        return self._hand[seat] + self._field[seat]
