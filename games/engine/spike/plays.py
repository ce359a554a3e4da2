"""A Corellian Spike hand's operations, each verified first (an `IllegalAction` subclass says why, nothing
changes) and then applied: card turns (stand, draw, trade, buy), spikes and the betting actions. `SpikeHand`
takes them from `SpikePlays`.
"""

from games.engine.cards import Card, codes, parse_card
from games.engine.errors import IllegalAction, InvalidAmount, InvalidCard, NotYourTurn, WrongPhase
from games.engine.hand_base import HandBase
from games.engine.records import new_record
from games.engine.spike.actions import BET_VERBS, BETTING_PHASES, CARD_PHASES, CARD_VERBS, PRICE_NAMES
from games.engine.spike.options import POSITIONS


class SpikePlays(HandBase):
    """The operations of `SpikeHand` (which holds the fields they read and write)."""

    __slots__ = ()

    # ----- operations: verify, then apply -------------------------------------------------------

    def _who(self, seats: list[int]) -> str:
        return ", ".join(self.names[s] for s in seats) or "nobody"

    def _phase_words(self, seat: int) -> str:
        name = self.names[seat]
        if self.phase == "spike":
            return f"the spike dice matched: {name} must spike a card first"
        if self.phase in CARD_PHASES:
            return f"it is {name}'s card turn in round {self.round_number}: stand, draw, trade or buy"
        return f"it is {name}'s betting turn in round {self.round_number}: check, call, bet, raise, fold or all-in"

    def _check(self, seat: int, verb: str, args: dict) -> tuple:
        """Verify a decision; return what applying it needs. Raises and changes nothing."""
        self._check_verb_args(verb, args)
        names, phase = self.names, self.phase
        # A seat is a whole number (not a bool) of the table: `type(...) is int` first, the common case.
        if (type(seat) is not int and (isinstance(seat, bool) or not isinstance(seat, int))) or not (
            0 <= seat < len(names)
        ):
            raise NotYourTurn(f"Seat {seat!r} does not exist; seats run from 0 to {len(names) - 1}.")
        if phase == "complete":
            raise WrongPhase(f"Hand {self.number} is over; the next hand has not started.")
        waiting = self._awaited()
        if seat not in waiting:
            name = names[seat]
            if seat in self.folded:
                raise NotYourTurn(f"{name} has folded and takes no part in the rest of hand {self.number}.")
            raise NotYourTurn(f"It is not {name}'s turn: waiting for {self._who(waiting)}.")
        right = (
            (phase == "spike" and verb == "spike")
            or (phase in CARD_PHASES and verb in CARD_VERBS)
            or (phase in BETTING_PHASES and verb in BET_VERBS)
        )
        if not right:
            raise WrongPhase(f"{self._phase_words(seat)}.")
        if phase in BETTING_PHASES:
            amount = args.get("amount")
            return self.structure.check_action(self.round, seat, verb, amount, self._stacks, self.legal_actions(seat))
        stack = self._stacks[seat]
        name = names[seat]
        if verb == "stand":
            return (verb,)
        if verb == "draw":
            price = self.options.gain_cost
            self._afford(name, "a draw", price, stack)
            return verb, price
        card = None
        if verb in ("trade", "spike"):
            card = self._held(seat, args.get("card"), verb)
        if verb == "spike":
            return verb, card
        source = args.get("source")
        if verb == "buy" and not self.options.gain_from_discard:
            where = "the market" if self.options.market == "galaxy" else "the discard pile"
            raise WrongPhase(
                f"Buying without giving a card is off at this table (option 'gain_from_discard'): "
                f"trade a card of your hand for a card of {where}, draw or stand."
            )
        face_up = self.sources()
        if source not in face_up and not (verb == "trade" and source == "deck"):
            raise IllegalAction(self._no_source(source, face_up, verb))
        price = self.price(source, trade=verb == "trade")
        what = "a trade with the draw pile" if source == "deck" else PRICE_NAMES[source]
        self._afford(name, what, price, stack)
        return verb, price, source, card

    def _afford(self, name: str, what: str, price: int, stack: int) -> None:
        # Ruling 2.2.8: no card may cost more than the stack.
        if price > stack:
            raise InvalidAmount(f"{what} costs {price} credit{'' if price == 1 else 's'}; {name} has {stack}.")

    def _no_source(self, source: object, face_up: list[str], verb: str) -> str:
        shown = ", ".join(face_up) or "none"
        if verb == "trade":
            shown += " (or deck, the draw pile)"
        if source in POSITIONS:
            if self.options.market != "galaxy":
                return f"there is no {source} at this table (discard-pile market); the cards to take are: {shown}."
            return f"there is no {source.capitalize()} in round {self.round_number}; the face-up cards are: {shown}."
        if source == "discard":
            if self.options.market == "galaxy":
                return f"the discard pile is face down at this table (galaxy market); take from: {shown}."
            return f"the discard pile is empty; take from: {shown}."
        if source is None:
            return f'say where the card comes from ("source"): {shown}.'
        return f"unknown source {source!r}; take from: {shown}."

    def _held(self, seat: int, card: object, verb: str) -> Card:
        held = self._cards[seat]
        if card is None:
            raise IllegalAction(f"{verb} needs the card of your hand to give; you hold {', '.join(codes(held))}.")
        try:
            parsed = parse_card(card)
        except InvalidCard as exc:
            raise IllegalAction(str(exc)) from None
        if parsed not in held:
            raise IllegalAction(f"You do not hold {parsed.code}; you hold {', '.join(codes(held))}.")
        return parsed

    def verify_act(self, seat: int, verb: str, **args) -> None:
        self._check(seat, verb, args)

    def act(self, seat: int, verb: str, **args) -> None:
        checked = self._check(seat, verb, args)
        if self.phase in BETTING_PHASES:
            self._bet(seat, checked[0], checked[1])
        elif checked[0] == "spike":
            self._spike(seat, checked[1])
        else:
            self._card_turn(seat, checked)
        self._actions.append(self.variant.encode_action(seat, verb, args))
        self._advance()

    def _bet(self, seat: int, verb: str, paid: int) -> None:
        self._pay_bet(seat, verb, paid)
        self._log.append(new_record(verb, seat, paid))

    def _fold_cards(self, seat: int) -> None:
        # Ruling 2.2.13: a folded hand is set aside face down.
        self._aside += self._cards[seat]
        self._cards[seat] = []

    def _spike(self, seat: int, card: Card) -> None:
        self._cards[seat].remove(card)
        self._discard.append(card)
        taken = self._draw.pop(0)
        self._cards[seat].append(taken)
        note = f"gave {card.code}" if self.options.market == "discard_pile" else ""
        self._log.append(new_record("spike", seat, 0, (card, taken), note))
        self._pending.pop(0)
        self.acted.add(seat)

    def _pay_price(self, seat: int, price: int) -> None:
        if price:
            self._stacks[seat] -= price
            self.card_costs[seat] += price

    def _card_turn(self, seat: int, checked: tuple) -> None:
        verb = checked[0]
        last_turn = self.round_number == 3 and len(self._pending) == 1
        if verb == "stand":
            self._log.append(new_record("stand", seat, 0))
        elif verb == "draw":
            price = checked[1]
            self._pay_price(seat, price)
            card = self._draw.pop(0)
            self._cards[seat].append(card)
            self._log.append(new_record("draw", seat, price, (card,)))
        else:
            _, price, source, given = checked
            self._pay_price(seat, price)
            hand = self._cards[seat]
            public = self.options.market == "discard_pile"
            if source == "deck":
                hand.remove(given)
                self._discard.append(given)
                taken = self._draw.pop(0)
                note = f"deck; gave {given.code}" if public else "deck"
            elif source == "discard":
                taken = self._discard.pop()  # Ruling 2.5.3: take first, then give
                if given is not None:
                    hand.remove(given)
                    self._discard.append(given)
                note = f"discard {taken.code}" + (f"; gave {given.code}" if given is not None else "")
            else:
                index = POSITIONS.index(source)
                if given is not None:
                    hand.remove(given)
                    self._discard.append(given)  # Ruling 2.2.6: face down, never into the market
                taken = self._market.pop(index)
                if not last_turn:
                    self._market.insert(0, self._draw.pop(0))
                note = f"{source} {taken.code}"
            hand.append(taken)
            if source != "deck":
                self.purchases.append(
                    {"seat": seat, "round": self.round_number, "from": source, "card": taken.code, "price": price}
                )
            cards = (given, taken) if given is not None else (taken,)
            self._log.append(new_record(verb, seat, price, cards, note))
        self._pending.pop(0)
        self.acted.add(seat)
