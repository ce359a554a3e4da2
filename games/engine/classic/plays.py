"""A Classic hand's operations, each verified first (an `IllegalAction` subclass says why, nothing changes) and
then applied: the play turn (draw, trade or stand, with an unlock and a lock) and the betting actions (with the
call of the hand). `ClassicHand` takes them from `ClassicPlays`.
"""

from games.engine.classic.actions import (
    _CHARS,
    BET_VERBS,
    LETTERS,
    PLAY_VERBS,
    TAKEN,
    VERB_ARGS,
    VERBS,
    _canonical,
    _seat_record,
    names_taken,
)
from games.engine.classic.cards import ClassicCard, codes, parse_card
from games.engine.errors import IllegalAction, InvalidCard, InvalidSelection, NotYourTurn, WrongPhase
from games.engine.hand_base import HandBase
from games.engine.records import new_record


class ClassicPlays(HandBase):
    """The operations of `ClassicHand` (which holds the fields they read and write)."""

    # No fields of its own: `ClassicHand`'s slots hold them all.
    __slots__ = ()

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

    def _fold_cards(self, seat: int) -> None:
        # Ruling 3.2.11: the folded cards, field included, go face down onto the discard pile.
        self._discard += self._hand[seat] + self._field[seat]
        self._hand[seat], self._field[seat] = [], []

    def bet_action(self, seat: int, verb: str, amount: int | None = None, call_hand: object = False) -> None:
        verb, paid = self._checked(seat, verb, amount, call_hand)
        self._pay_bet(seat, verb, paid)
        self._log.append(new_record(verb, seat, paid, note="call_hand" if call_hand is True else ""))
        if call_hand is True:
            self.called_by = seat
        arg = "" if amount is None or verb not in ("bet", "raise") else str(amount)
        self._actions.append(f"{seat}{LETTERS[verb]}{arg}{'!' if call_hand is True else ''}")
        self._advance()


def _only(verb: str, args: dict) -> dict:
    """`args` if `verb` takes every one of them; otherwise an error naming what it takes."""
    allowed = VERB_ARGS.get(verb, ())
    for key in args:
        if key not in allowed:
            raise IllegalAction(f"{verb} takes {', '.join(allowed) or 'no arguments'}; got {key!r}.")
    return args


def _char(card: ClassicCard | None) -> str:
    return "-" if card is None else _CHARS[card.index]
