"""One hand of Coruscant Shift: forced bets, deal, roll, select, betting, shift, improve, betting, reveal.

The hand moves by itself through every step that needs no decision and stops at each decision:
the simultaneous select and improve phases, and each turn of a betting round. Every operation is
verified first (raising an `IllegalAction` subclass and changing nothing), then applied, then
recorded in `log`.
"""

from collections import Counter

from games.engine.betting import LEGAL_DEFAULTS, LegalActions, legal_from
from games.engine.cards import Card, encode_cards, parse_card, take
from games.engine.coruscant.dice import Dice
from games.engine.coruscant.summary import coruscant_summary
from games.engine.errors import (
    InvalidCard,
    InvalidSelection,
    MissingReshuffle,
    NotYourTurn,
    WrongPhase,
)
from games.engine.forced import post_forced
from games.engine.hand_base import HandBase
from games.engine.pots import Pot
from games.engine.records import Record, card_record, new_record
from games.engine.shuffle import reshuffle_rng
from games.engine.ties import best, draw_off, split

SELECT_PHASES = ("select", "improve")
BETTING_PHASES = ("betting_1", "betting_2")


class Hand(HandBase):
    """The state of one hand. Hidden fields (cards, draw pile, seed) are private and kept out of repr."""

    # Slots, not a `__dict__`: the engine reads these on every decision, and a slot is read without a dict lookup.
    __slots__ = (
        "_actor",
        "_big_blind_seat",
        "_blinds",
        "_cards",
        "_chosen_now",
        "_given_piles",
        "_phase_start",
        "_reshuffles",
        "_selection",
        "_tie_draws",
        "acted",
        "pools_out",
    )

    def _start(
        self, deck: list[Card], dice: Dice, reshuffles: list[list[Card]] | None, pools: dict[str, int] | None
    ) -> None:
        # Reshuffled piles: given (a replay lists them, and a hand needing one more is refused), else drawn
        # from the hand's seed (a live hand) or, for a deck given without them, from the deck itself.
        self._given_piles = None if reshuffles is None else [list(pile) for pile in reshuffles]
        self._cards: dict[int, list[Card]] = {s: [] for s in self.seats}
        self._selection: dict[int, list[Card]] = {s: [] for s in self.seats}
        self._tie_draws: dict[int, list[Card]] = {}
        self._reshuffles = 0
        self.acted: set[int] = set()
        # Where the open select or improve phase starts in the log: the sizes chosen since are not public yet.
        self._phase_start = 0
        self._chosen_now: dict[int, int] = {}
        self._actor: int | None = None
        # The blinds posted when the hand begins (`begin`), and who posted the big one.
        self._blinds: dict[int, int] = {}
        self._big_blind_seat: int | None = None
        # Credits kept between hands outside the stacks and the carry-over (none in Coruscant Shift).
        self.pools_out: dict[str, int] = dict(pools or {})

    def __repr__(self) -> str:
        return f"<Hand {self.number} phase={self.phase} dealer={self.dealer} seats={self.seats}>"

    def dead_money(self) -> int:
        """The carry-over joins the main pot."""
        return self.carry_in

    # ----- queries -------------------------------------------------------------------------

    def _awaited(self) -> list[int]:
        """The seats whose decision is awaited, worked out once per state (the list is not copied)."""
        waiting = self._waiting
        if waiting is None:
            actor = None
            if self.phase in SELECT_PHASES:
                acted = self.acted
                waiting = [s for s in self._live if s not in acted]
            elif self.phase in BETTING_PHASES and self.round is not None:
                actor = self.structure.actor(self.round, self._stacks, self.folded)
                waiting = [] if actor is None else [actor]
            else:
                waiting = []
            self._waiting, self._actor = waiting, actor
        return waiting

    def actor(self) -> int | None:
        """The seat to act in a betting round; None outside betting or when the round is over."""
        self._awaited()
        return self._actor

    def waiting_for(self) -> list[int]:
        return list(self._awaited())

    def legal_actions(self, seat: int) -> LegalActions:
        if seat not in self._awaited():
            return LegalActions(seat=seat, phase=self.phase)
        # Worked out once per state for each awaited seat (a view asks, then the operation verifies).
        legal = self._legal.get(seat) if type(seat) is int else None
        if legal is None:
            if self.phase in SELECT_PHASES:
                selectable = tuple([c.code for c in self._cards[seat]])
                legal = legal_from(
                    LegalActions,
                    {**LEGAL_DEFAULTS, "seat": seat, "phase": self.phase, "can_select": True, "selectable": selectable},
                )
            else:
                legal = self.structure.legal(self.round, seat, self._stacks, self.phase)
            if type(seat) is int:
                self._legal[seat] = legal
        return legal

    def log_for(self, seat: int | None = None) -> list[Record]:
        """The operation log as `seat` may see it (None: a spectator): cards dealt to or chosen by others
        are removed, except selections revealed at the showdown."""
        shown = []
        open_from = self._phase_start if self.phase in SELECT_PHASES else len(self._log)
        for index, record in enumerate(self._log):
            if record.cards and record.kind in ("deal", "shift", "select") and record.seat != seat:
                revealed = record.kind == "select" and self.is_complete and record.seat in self.scores
                if not revealed:
                    # RULES 1.2.4: how many cards another player chose is public only once the phase closes.
                    amount = None if index >= open_from and record.kind == "select" else record.amount
                    record = Record(record.kind, record.seat, amount, (), record.note)
            shown.append(record)
        return shown

    def public_sizes(self) -> dict[int, tuple[int | None, int]]:
        """(selection size, cards held) of each seat as the other players see them (RULES 1.2.4).

        While a select or improve phase is open, only the sizes at its start are public (None for the
        selection in the select phase, when nobody has chosen yet in public); they become public when
        the phase closes.
        """
        sizes: dict[int, tuple[int | None, int]] = {}
        open_phase = self.phase in SELECT_PHASES
        chosen_now = self._chosen_now
        for seat in self.seats:
            held, selected = len(self._cards[seat]), len(self._selection[seat])
            if open_phase:
                chosen = chosen_now.get(seat, 0)
                held, selected = held + chosen, selected - chosen
            sizes[seat] = (None if self.phase == "select" else selected, held)
        return sizes

    def _all_cards(self) -> list[Card]:
        """Every card of the hand wherever it lies (hidden: only counts leave the engine)."""
        cards = self._draw + self._discard
        for seat in self.seats:
            cards += self._cards[seat] + self._selection[seat]
        return cards

    def draw_pile_size(self) -> int:
        return len(self._draw)

    def bets(self) -> dict[int, int]:
        """Each seat's bet in the current betting round."""
        return dict(self.round.bets) if self.round is not None and self.phase in BETTING_PHASES else {}

    def pot_total(self) -> int:
        return sum(self.contributions.values()) + self.carry_in

    # ----- the automatic steps ---------------------------------------------------------------

    def begin(self) -> None:
        """Forced bets, the deal and the roll; then wait for the selections."""
        posted = post_forced(self.seats, self.dealer, self._stacks, self.levels)
        for seat, amount in posted.antes.items():
            self.contributions[seat] += amount
            self.forced[seat] = self.forced.get(seat, 0) + amount
            self._log.append(new_record("ante", seat, amount))
        for seat, amount in posted.blinds.items():
            self.contributions[seat] += amount
            self.forced[seat] = self.forced.get(seat, 0) + amount
            self._log.append(new_record("blind", seat, amount))
        self._blinds = posted.blinds
        self._big_blind_seat = posted.big_blind_seat
        seats, size, log = self.seats, self.variant.hand_size, self._log
        if len(self._draw) >= size * len(seats):
            # The whole deal comes off the top of the pile: one card at a time, clockwise, `size` times round.
            dealt = self._draw[: size * len(seats)]
            del self._draw[: size * len(seats)]
            for index, card in enumerate(dealt):
                seat = seats[index % len(seats)]
                self._cards[seat].append(card)
                log.append(card_record("deal", seat, card))
        else:
            for _ in range(size):
                for seat in seats:
                    card = self._draw_card()
                    self._cards[seat].append(card)
                    log.append(card_record("deal", seat, card))
        roller = self.seats[0] if self.options.roller == "left_of_dealer" else self.dealer
        self._log.append(new_record("roll", roller, self.dice.number, note=self.dice.suit))
        self.phase = "select"
        self._open_select_phase()
        self._advance()

    def _draw_card(self) -> Card:
        if not self._draw:
            # Ruling: an empty draw pile is rebuilt from the discard pile, shuffled.
            self._reshuffles += 1
            if self._given_piles is not None:
                pile = self._given_pile()
            else:
                pile = list(self._discard)
                source = self._seed if self._seed is not None else encode_cards(self._deck)
                reshuffle_rng(source, self._reshuffles).shuffle(pile)
            self.reshuffled.append(list(pile))
            self._draw, self._discard = pile, []
            self._log.append(Record("reshuffle", amount=len(pile)))
        return self._draw.pop(0)

    def _given_pile(self) -> list[Card]:
        """The next listed reshuffle (RULES 1.2.6): exactly the cards of the discard pile, in any order."""
        number = self._reshuffles
        if number > len(self._given_piles):
            raise MissingReshuffle(
                f"the draw pile runs out (reshuffle {number}) but the hand lists "
                f"{len(self._given_piles)} reshuffle{'' if len(self._given_piles) == 1 else 's'}; list the new draw "
                f"pile: the {len(self._discard)} cards of the discard pile, in the order they were shuffled."
            )
        pile = self._given_piles[number - 1]
        if Counter(pile) != Counter(self._discard):
            extra = sorted(c.code for c in (Counter(pile) - Counter(self._discard)).elements())
            missing = sorted(c.code for c in (Counter(self._discard) - Counter(pile)).elements())
            raise MissingReshuffle(
                f"reshuffle {number} must list exactly the {len(self._discard)} cards of the discard pile; "
                f"not in the discard pile: {', '.join(extra) or 'none'}; missing: {', '.join(missing) or 'none'}."
            )
        return list(pile)

    def _open_select_phase(self) -> None:
        self._phase_start = len(self._log)
        self._chosen_now = {}

    def _open_round(self, number: int) -> None:
        live = self._live
        if number == 1 and self._big_blind_seat is not None:
            start = (self.seats.index(self._big_blind_seat) + 1) % len(self.seats)
        else:
            start = 0
        rotated = self.seats[start:] + self.seats[:start]
        order = [s for s in rotated if s in live]
        bets = dict(self._blinds) if number == 1 else {}
        # RULES 1.4, partial big blind: round 1 calls the full big blind even if it was not posted in full.
        floor = self.levels.big_blind if number == 1 and self._big_blind_seat is not None else 0
        self.round = self.structure.open_round(number, order, bets, self._stacks, floor)
        self.phase = f"betting_{number}"

    def _advance(self) -> None:
        """Run every step that needs no decision, stopping at the next decision or the end of the hand."""
        self._run_automatic_steps()
        self._changed()

    def _run_automatic_steps(self) -> None:
        while True:
            self._changed()
            if len(self._live) == 1 and self.phase != "complete":
                self._finish_fold_out()
                return
            if self.phase in SELECT_PHASES:
                if self._awaited():
                    return
                if self.phase == "select":
                    self._open_round(1)
                else:
                    for seat in self._live:
                        self._discard += self._cards[seat]
                        self._cards[seat] = []
                    self._open_round(2)
            elif self.phase in BETTING_PHASES:
                if self.actor() is not None:
                    return
                if self.phase == "betting_1":
                    self._shift()
                else:
                    self._showdown()
                    return
            else:
                return

    def _shift(self) -> None:
        need = {}
        for seat in self._live:
            self._discard += self._cards[seat]
            self._cards[seat] = []
            need[seat] = self.variant.hand_size - len(self._selection[seat])
        while any(need.values()):
            for seat in self._live:
                if need[seat]:
                    card = self._draw_card()
                    self._cards[seat].append(card)
                    need[seat] -= 1
                    self._log.append(card_record("shift", seat, card))
        self.acted = set()
        self.phase = "improve"
        self._open_select_phase()

    def _finish_fold_out(self) -> None:
        self._return_uncalled()
        (winner,) = self._live
        for pot in self.pots():
            self._pay(pot, [winner], {winner: pot.amount}, None)
        self._end()

    def _showdown(self) -> None:
        self._return_uncalled()
        self.scores = {s: self.variant.evaluate(self._selection[s], self.dice) for s in self._live}
        for pot in self.pots():
            eligible = list(pot.eligible) or list(self._live)
            winners = self._from_left(best(self.scores, eligible))
            draws = None
            if len(winners) > 1 and self.options.tie_rule == "draw":
                winners, draws = draw_off(winners, self._tie_draws, self._draw_tie_card)
                winners = self._from_left(winners)
            if len(winners) > 1:
                paid, odd = split(pot.amount, winners, self.odd_credits)
                self.carry_out += odd
            else:
                paid = {winners[0]: pot.amount}
            self._pay(pot, winners, paid, draws)
        self._end()

    def _draw_tie_card(self) -> Card | None:
        # Ruling: no reshuffle for a tie draw; an empty draw pile means the pot is split.
        if not self._draw:
            return None
        card = self._draw.pop(0)
        self._discard.append(card)
        self._log.append(Record("tie_draw", cards=(card,)))
        return card

    def _pay(self, pot: Pot, winners: list[int], paid: dict[int, int], draws: dict | None) -> None:
        for seat, amount in paid.items():
            self._stacks[seat] += amount
            self._log.append(new_record("award", seat, amount))
        self.awards.append(
            {"amount": pot.amount, "eligible": list(pot.eligible), "winners": winners, "paid": paid, "draws": draws}
        )

    def _end(self) -> None:
        for seat in self.seats:
            self._discard += self._cards[seat] + self._selection[seat]
            self._cards[seat], self._selection[seat] = [], []
        self.contributions = dict.fromkeys(self.seats, 0)
        self.carry_in = 0
        self.phase = "complete"
        self.round = None
        self._log.append(new_record("end"))

    def showdown_cards(self) -> dict[int, list[Card]]:
        """Revealed selections, once the hand ended in a showdown (empty after a fold-out)."""
        if not self.is_complete or not self.scores:
            return {}
        cards: dict[int, list[Card]] = {}
        for record in self._log:
            if record.kind == "select" and record.seat in self.scores:
                cards.setdefault(record.seat, []).extend(record.cards)
        return cards

    # ----- operations: verify, then apply ------------------------------------------------------

    def _who(self, seats: list[int]) -> str:
        return ", ".join(self.names[s] for s in seats) or "nobody"

    def _verify_waiting(self, seat: int, verb: str) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.names):
            raise NotYourTurn(f"Seat {seat!r} does not exist; seats run from 0 to {len(self.names) - 1}.")
        if self.phase == "complete":
            raise WrongPhase(f"Hand {self.number} is over; the next hand has not started.")
        if verb == "select" and self.phase not in SELECT_PHASES:
            raise WrongPhase(
                f"You cannot select cards now: the hand is in {self.phase.replace('_', ' ')}; "
                "it is a betting turn: check, call, bet, raise, fold or go all-in as your turn allows."
            )
        if verb != "select" and self.phase not in BETTING_PHASES:
            raise WrongPhase(
                f"You cannot {verb} now: the hand is in the {self.phase} phase; choose your cards with select."
            )
        waiting = self._awaited()
        if seat not in waiting:
            name = self.names[seat]
            if seat in self.folded:
                raise NotYourTurn(f"{name} has folded and takes no part in the rest of hand {self.number}.")
            if verb == "select" and seat in self.acted:
                raise NotYourTurn(
                    f"{name} has already chosen cards in this {self.phase} phase; waiting for {self._who(waiting)}."
                )
            raise NotYourTurn(f"It is not {name}'s turn: waiting for {self._who(waiting)}.")

    def verify_act(self, seat: int, verb: str, **args) -> None:
        """The variant plug-in's generic operation: `select` takes `cards`, `bet` and `raise` take `amount`
        (for a raise, the seat's new total for the round)."""
        self._check_verb_args(verb, args)
        if verb == "select":
            self.verify_select(seat, args.get("cards"))
        else:
            self.verify_bet_action(seat, verb, args.get("amount"))

    def act(self, seat: int, verb: str, **args) -> None:
        self._check_verb_args(verb, args)
        if verb == "select":
            cards = args.get("cards")
            self.select(seat, list(cards) if isinstance(cards, tuple) else cards)
        else:
            self.bet_action(seat, verb, args.get("amount"))

    def verify_select(self, seat: int, cards: list) -> list[Card]:
        self._verify_waiting(seat, "select")
        if not isinstance(cards, list | tuple):
            raise InvalidSelection("Cards must be a list of card codes such as ['+7c', '-8s', '0'].")
        try:
            chosen = [parse_card(c) for c in cards]
        except InvalidCard as exc:
            raise InvalidSelection(str(exc)) from None
        if take(self._cards[seat], chosen) is None:
            held, asked = Counter(self._cards[seat]), Counter(chosen)
            missing = next(c for c in chosen if asked[c] > held[c])
            allowed = ", ".join(c.code for c in self._cards[seat]) or "none"
            where = "your hand" if self.phase == "select" else "the cards you were dealt in the shift"
            if held[missing]:
                # The card is held, only chosen more often than held (the same card twice): say so.
                times = "twice" if asked[missing] == 2 else f"{asked[missing]} times"
                copies = "one" if held[missing] == 1 else str(held[missing])
                raise InvalidSelection(
                    f"You chose {missing.code} {times}, but you hold only {copies} in {where}: choose each card once. "
                    f"You may choose from: {allowed}."
                )
            raise InvalidSelection(f"You do not hold {missing.code} in {where}; you may choose from: {allowed}.")
        return chosen

    def select(self, seat: int, cards: list) -> None:
        chosen = self.verify_select(seat, cards)
        self._cards[seat] = take(self._cards[seat], chosen)
        self._selection[seat].extend(chosen)
        self.acted.add(seat)
        self._chosen_now[seat] = len(chosen)
        self._log.append(new_record("select", seat, len(chosen), tuple(chosen)))
        self._actions.append(self.variant.encode_action(seat, "select", {"cards": chosen}))
        self._advance()

    def verify_bet_action(self, seat: int, verb: str, amount: int | None = None) -> int:
        return self._checked(seat, verb, amount)[1]

    def _checked(self, seat: int, verb: str, amount: int | None) -> tuple[str, int]:
        """(the verb the action counts as, the chips it moves); raises if it is not allowed."""
        self._verify_waiting(seat, verb)
        return self.structure.check_action(self.round, seat, verb, amount, self._stacks, self.legal_actions(seat))

    def _fold_cards(self, seat: int) -> None:
        self._discard += self._cards[seat] + self._selection[seat]
        self._cards[seat], self._selection[seat] = [], []

    def bet_action(self, seat: int, verb: str, amount: int | None = None) -> None:
        verb, paid = self._checked(seat, verb, amount)
        self._pay_bet(seat, verb, paid)
        self._log.append(new_record(verb, seat, paid))
        self._actions.append(self.variant.encode_action(seat, verb, {"amount": amount}))
        self._advance()

    # ----- what the views and results show (the variant plug-in's hand interface) ----------

    def summary(self, game) -> dict:
        """The hand as a replay result shows it (docs/replay.md)."""
        return coruscant_summary(game, self)

    def add_public_hand(self, data: dict) -> None:
        """What the table sees of the hand besides pots and seats, added to `data`: the target and its suit."""
        data["target"] = self.dice.number
        data["suit"] = self.dice.suit

    def add_public_seats(self, rows: list[dict], viewer: int | None) -> None:
        """Each seat's public fields as `viewer` (None: a spectator) sees them, added to its row (`rows[seat]`):
        selection sizes stay hidden while their phase is open (RULES 1.2.4)."""
        # Only an open select or improve phase hides sizes (as `public_sizes` gives them, worked out here seat by seat
        # without its dict); outside them, and to the viewer itself, every size is public.
        phase = self.phase
        open_phase = phase in SELECT_PHASES
        hide_selection = phase == "select"
        chosen_now = self._chosen_now
        selections, held, acted = self._selection, self._cards, self.acted
        for seat in self.seats:
            row = rows[seat]
            selected, holding = len(selections[seat]), len(held[seat])
            if open_phase and seat != viewer:
                chosen = chosen_now.get(seat, 0)
                row["selection_size"] = None if hide_selection else selected - chosen
                row["cards_held"] = holding + chosen
            else:
                row["selection_size"] = selected
                row["cards_held"] = holding
            row["has_acted"] = seat in acted

    def private_view(self, seat: int) -> dict:
        """A seat's own cards, for its view only."""
        return {
            "cards": [card.code for card in self._cards.get(seat, ())],
            "selection": [card.code for card in self._selection.get(seat, ())],
        }
