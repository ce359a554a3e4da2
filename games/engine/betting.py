"""Betting structures (RULES 1.4) as plug-in classes, and the state of one betting round.

A structure answers three questions for a seat: does it have a decision, what may it do
(bounds included), and what does an action change. `NoLimit` is the default; `FixedStay`
is the Halcyon pay-to-stay round.
"""

from dataclasses import dataclass, field, fields
from typing import Any

from games.engine.errors import InvalidAmount, WrongPhase

VERBS = ("select", "check", "call", "bet", "raise", "fold", "allin")


@dataclass(frozen=True)
class LegalActions:
    """What one seat may do now, with the bounds; every amount is in credits.

    `min_bet`/`max_bet` bound `bet(amount)`; `min_raise_to`/`max_raise_to` bound `raise_to(total)`, the
    seat's new total for the betting round; `call_amount` and `all_in_amount` are the chips that
    calling or going all-in would move from the stack.
    """

    seat: int
    phase: str
    can_select: bool = False
    selectable: tuple[str, ...] = ()
    can_check: bool = False
    can_call: bool = False
    call_amount: int = 0
    can_bet: bool = False
    min_bet: int = 0
    max_bet: int = 0
    can_raise: bool = False
    min_raise_to: int = 0
    max_raise_to: int = 0
    can_fold: bool = False
    can_all_in: bool = False
    all_in_amount: int = 0

    @property
    def verbs(self) -> tuple[str, ...]:
        return tuple(self._verb_list())

    def _verb_list(self) -> list[str]:
        """The allowed verbs in the order of VERBS (asked on every decision: flag by flag, no tuples built)."""
        # Every field is in the object's `__dict__` (a frozen dataclass without slots, or `legal_from`): read there,
        # a dict lookup each, instead of an attribute lookup that searches the class first.
        values = self.__dict__
        verbs = []
        if values["can_select"]:
            verbs.append("select")
        if values["can_check"]:
            verbs.append("check")
        if values["can_call"]:
            verbs.append("call")
        if values["can_bet"]:
            verbs.append("bet")
        if values["can_raise"]:
            verbs.append("raise")
        if values["can_fold"]:
            verbs.append("fold")
        if values["can_all_in"]:
            verbs.append("allin")
        return verbs

    def to_dict(self) -> dict:
        values = self.__dict__  # as in `_verb_list`
        data = {"seat": values["seat"], "phase": values["phase"], "verbs": self._verb_list()}
        if values["can_select"]:
            data["selectable"] = list(values["selectable"])
        if values["can_call"]:
            data["call_amount"] = values["call_amount"]
        if values["can_bet"]:
            data["min_bet"], data["max_bet"] = values["min_bet"], values["max_bet"]
        if values["can_raise"]:
            data["min_raise_to"], data["max_raise_to"] = values["min_raise_to"], values["max_raise_to"]
        if values["can_all_in"]:
            data["all_in_amount"] = values["all_in_amount"]
        return data


@dataclass(slots=True)
class BettingRound:
    """One betting round: each seat's bet so far, who still has to act, and where each seat's last action
    left the betting (for reopening, RULES 1.4).

    `floor` is a bet to call that nobody may have posted in full: the big blind in round 1 (RULES 1.4,
    partial big blind). `acted_at[seat]` is (the current bet, the minimum raise increment) just after the
    seat's last action in this round.
    """

    number: int
    order: list[int]
    bets: dict[int, int]
    needs: set[int]
    last_increment: int
    floor: int = 0
    next_index: int = 0
    acted_at: dict[int, tuple[int, int]] = field(default_factory=dict)

    @property
    def current_bet(self) -> int:
        # `max(self.bets.values(), default=0)` (bets are never negative), without the keyword call: every decision
        # asks it several times.
        top = self.floor
        for bet in self.bets.values():
            if bet > top:
                top = bet
        return top

    def owes(self, seat: int) -> int:
        return self.current_bet - self.bets.get(seat, 0)

    def may_raise(self, seat: int) -> bool:
        """TDA 47 (RULES 1.4): a seat that has acted may raise again only once the bet has risen by a full
        raise since its last action, several short all-ins counting together."""
        last = self.acted_at.get(seat)
        return last is None or self.current_bet - last[0] >= last[1]


# Every field of a `LegalActions` at its default, in field order: `{**LEGAL_DEFAULTS, ...}` is a whole one.
LEGAL_DEFAULTS = {f.name: f.default for f in fields(LegalActions)}
_object_new = object.__new__
_object_setattr = object.__setattr__


def legal_from(cls: type, values: dict) -> Any:
    """An object of `cls` (`LegalActions` or a variant's subclass, frozen dataclasses without slots) holding
    `values`, every field of it (from `{**defaults, ...}`), without the generated `__init__`: one is made on every
    decision, and set in one step it costs a fraction of a call with keywords."""
    legal = _object_new(cls)
    _object_setattr(legal, "__dict__", values)
    return legal


def _others_can_act(rnd: BettingRound, seat: int, stacks: list[int], folded: set[int]) -> bool:
    for other in rnd.order:  # noqa: SIM110 - `any(...)` over the order, without a generator per call
        if other != seat and other not in folded and stacks[other] > 0:
            return True
    return False


class BettingStructure:
    """Base of the betting structures; `name` is the option value that selects it."""

    name = ""

    def __init__(self, *, min_bet: int, max_bet: int | None, min_raise: str, stay_cost: int) -> None:
        self.min_bet = min_bet
        self.max_bet = max_bet
        self.min_raise = min_raise
        self.stay_cost = stay_cost

    def open_round(
        self, number: int, order: list[int], bets: dict[int, int], stacks: list[int], floor: int = 0
    ) -> BettingRound:
        """`floor`: the bet to call even if nobody posted it in full (the big blind in round 1)."""
        increment = max(max(bets.values(), default=0), floor, self.min_bet)
        # `BettingRound(...)` without the dataclass's generated (interpreted) `__init__`: fields set here, compiled.
        rnd = _object_new(BettingRound)
        rnd.number = number
        rnd.order = list(order)
        rnd.bets = {s: bets.get(s, 0) for s in order}
        rnd.needs = {s for s in order if stacks[s] > 0}
        rnd.last_increment = increment
        rnd.floor = floor
        rnd.next_index = 0
        rnd.acted_at = {}
        return rnd

    def normalize(self, rnd: BettingRound, seat: int, verb: str, amount: int | None, stacks: list[int]) -> str:
        """The verb an action counts as (RULES 1.4): the structure may read one verb as another."""
        return verb

    def check_action(
        self, rnd: BettingRound, seat: int, verb: str, amount: int | None, stacks: list[int], legal: LegalActions
    ) -> tuple[str, int]:
        """(the verb an action counts as, the chips it moves from the stack); raises if it is not allowed.

        Every variant's betting turn goes through here, so a verb reads the same in all of them."""
        verb = self.normalize(rnd, seat, verb, amount, stacks)
        return verb, self.verify(rnd, seat, verb, amount, stacks, legal)

    def has_decision(self, rnd: BettingRound, seat: int, stacks: list[int], folded: set[int]) -> bool:
        raise NotImplementedError

    def actor(self, rnd: BettingRound, stacks: list[int], folded: set[int]) -> int | None:
        """The seat to act, scanning clockwise from where the last action left off; None when the round is over."""
        order = rnd.order
        unfolded = 0
        for seat in order:  # at most one seat not folded: nobody acts (counted without a set per call)
            if seat not in folded:
                unfolded += 1
        if unfolded <= 1:
            return None
        n, start, needs = len(order), rnd.next_index, rnd.needs
        for step in range(n):
            seat = order[(start + step) % n]
            if (
                seat in needs
                and seat not in folded
                and stacks[seat] > 0
                and self.has_decision(rnd, seat, stacks, folded)
            ):
                return seat
        return None

    def legal(self, rnd: BettingRound, seat: int, stacks: list[int], phase: str) -> LegalActions:
        raise NotImplementedError

    def verify(
        self,
        rnd: BettingRound,
        seat: int,
        verb: str,
        amount: int | None,
        stacks: list[int],
        legal: LegalActions | None = None,
    ) -> int:
        """Check `verb` for `seat` and return the chips it moves from the stack; raise if it is not allowed.

        `legal` may pass in `self.legal(...)` for this very state, when the caller already has it."""
        raise NotImplementedError

    def apply(self, rnd: BettingRound, seat: int, verb: str, paid: int, stacks: list[int], folded: set[int]) -> None:
        """Record a verified action whose `paid` chips have already left the stack."""
        raise NotImplementedError

    def _done(self, rnd: BettingRound, seat: int) -> None:
        rnd.needs.discard(seat)
        rnd.next_index = rnd.order.index(seat) + 1


class NoLimit(BettingStructure):
    """Check, bet, call, raise to a total, fold, all-in at any size; short all-ins reopen raising only
    together, once they add up to a full raise (TDA 47)."""

    name = "no_limit"

    def has_decision(self, rnd: BettingRound, seat: int, stacks: list[int], folded: set[int]) -> bool:
        # RULES 1.4: with nobody else able to act, a seat decides only if an all-in player put in more.
        return _others_can_act(rnd, seat, stacks, folded) or rnd.bets[seat] < max(rnd.bets.values())

    def normalize(self, rnd: BettingRound, seat: int, verb: str, amount: int | None, stacks: list[int]) -> str:
        """All-in by any name (RULES 1.4): a bet, raise or call of exactly the whole stack is an all-in, whatever
        the current bet (a whole-stack bet into an opened round, a whole-stack raise with nothing bet). A bet's
        amount, like a raise's total, is the seat's total for the round."""
        stack = stacks[seat]
        if stack <= 0:
            return verb
        if verb == "call" and rnd.owes(seat) >= stack:
            return "allin"
        if (verb == "bet" or verb == "raise") and _is_int(amount) and amount == rnd.bets[seat] + stack:
            return "allin"
        return verb

    def _cap(self) -> float:
        return float("inf") if self.max_bet is None else self.max_bet

    def _min_increment(self, rnd: BettingRound) -> int:
        if self.min_raise == "last_increment":
            return max(rnd.last_increment, self.min_bet)
        return self.min_bet

    def legal(self, rnd: BettingRound, seat: int, stacks: list[int], phase: str) -> LegalActions:
        stack, mine, current = stacks[seat], rnd.bets[seat], rnd.current_bet
        owes = current - mine
        min_bet, max_bet = self.min_bet, self.max_bet
        # `self._cap()` and `self._min_increment(rnd)`, inlined: asked on every betting decision.
        top = mine + stack if max_bet is None else min(mine + stack, max_bet)
        can_bet = current == 0 and top >= min_bet
        increment = min_bet
        if self.min_raise == "last_increment" and rnd.last_increment > min_bet:
            increment = rnd.last_increment
        min_to = current + increment
        last = rnd.acted_at.get(seat)
        may_raise = last is None or current - last[0] >= last[1]  # rnd.may_raise(seat), inlined
        can_raise = current > 0 and may_raise and top >= min_to
        all_in_total = mine + stack
        can_all_in = (
            stack > 0 and (max_bet is None or all_in_total <= max_bet) and (all_in_total <= current or may_raise)
        )
        return legal_from(
            LegalActions,
            {
                **LEGAL_DEFAULTS,
                "seat": seat,
                "phase": phase,
                "can_check": owes == 0,
                "can_call": owes > 0,
                "call_amount": min(owes, stack) if owes > 0 else 0,
                "can_bet": can_bet,
                "min_bet": min_bet if can_bet else 0,
                "max_bet": int(top) if can_bet else 0,
                "can_raise": can_raise,
                "min_raise_to": min_to if can_raise else 0,
                "max_raise_to": int(top) if can_raise else 0,
                "can_fold": True,
                "can_all_in": can_all_in,
                "all_in_amount": stack if can_all_in else 0,
            },
        )

    def verify(
        self,
        rnd: BettingRound,
        seat: int,
        verb: str,
        amount: int | None,
        stacks: list[int],
        legal: LegalActions | None = None,
    ) -> int:
        if legal is None:
            legal = self.legal(rnd, seat, stacks, "")
        owes = rnd.owes(seat)
        if verb == "fold":
            return 0
        if verb == "check":
            if not legal.can_check:
                raise WrongPhase(f"You cannot check: you owe {owes} to call; {allowed_text(legal)}.")
            return 0
        if verb == "call":
            if not legal.can_call:
                raise WrongPhase(f"You cannot call: there is no bet to call; {allowed_text(legal)}.")
            return legal.call_amount
        if verb == "bet":
            if not legal.can_bet:
                if rnd.current_bet > 0:
                    raise WrongPhase(
                        f"You cannot bet: the round is already opened at {rnd.current_bet}; {allowed_text(legal)}."
                    )
                raise InvalidAmount(
                    f"You cannot bet: a bet is at least {self.min_bet} and you have {stacks[seat]}; "
                    f"{allowed_text(legal)}."
                )
            if not _is_int(amount) or not legal.min_bet <= amount <= legal.max_bet:
                raise InvalidAmount(f"A bet must be from {legal.min_bet} to {legal.max_bet}; got {amount!r}.")
            return amount
        if verb == "raise":
            if not legal.can_raise:
                if rnd.current_bet == 0:
                    hint = "bet or check instead" if legal.can_bet else allowed_text(legal)
                    raise WrongPhase(f"You cannot raise: nobody has bet this round; {hint}.")
                if not rnd.may_raise(seat):
                    raise WrongPhase(
                        "You cannot raise: the bet has not risen by a full raise since you acted, so the betting "
                        f"is not reopened for you; {allowed_text(legal)}."
                    )
                raise InvalidAmount(
                    f"You cannot raise: a raise goes to at least {rnd.current_bet + self._min_increment(rnd)} "
                    f"and you can reach {min(rnd.bets[seat] + stacks[seat], self._cap())}; {allowed_text(legal)}."
                )
            if not _is_int(amount) or not legal.min_raise_to <= amount <= legal.max_raise_to:
                raise InvalidAmount(
                    f"A raise must take your total for this round to between {legal.min_raise_to} and "
                    f"{legal.max_raise_to}; got {amount!r}."
                )
            return amount - rnd.bets[seat]
        if verb == "allin":
            if not legal.can_all_in:
                if stacks[seat] == 0:
                    raise WrongPhase("You cannot go all-in: you have no credits left behind.")
                if self.max_bet is not None and rnd.bets[seat] + stacks[seat] > self.max_bet:
                    raise InvalidAmount(
                        f"You cannot go all-in: a round's total is capped at {self.max_bet}; {allowed_text(legal)}."
                    )
                raise WrongPhase(
                    "You cannot go all-in for more than the call: the betting is not reopened for you; "
                    f"{allowed_text(legal)}."
                )
            return stacks[seat]
        raise WrongPhase(f"Unknown betting action {verb!r}; the actions are check, call, bet, raise, fold, allin.")

    def apply(self, rnd: BettingRound, seat: int, verb: str, paid: int, stacks: list[int], folded: set[int]) -> None:
        if verb != "fold" and paid:
            current = rnd.current_bet
            total = rnd.bets[seat] + paid
            rnd.bets[seat] = total
            if total > current:
                increment = total - current
                full = increment >= (self.min_bet if current == 0 else self._min_increment(rnd))
                others = {o for o in rnd.order if o != seat and o not in folded and stacks[o] > 0}
                if full:
                    rnd.last_increment = increment
                    rnd.needs = set(others)
                else:
                    rnd.needs |= {o for o in others if rnd.bets[o] < total}
            rnd.acted_at[seat] = (max(current, total), self._min_increment(rnd))
        else:
            rnd.acted_at[seat] = (rnd.current_bet, self._min_increment(rnd))
        self._done(rnd, seat)


class FixedStay(BettingStructure):
    """Halcyon: each seat in turn pays the fixed stay cost with `call` or folds, once per round; no raises."""

    name = "fixed_stay"

    def has_decision(self, rnd: BettingRound, seat: int, stacks: list[int], folded: set[int]) -> bool:
        return _others_can_act(rnd, seat, stacks, folded)

    def normalize(self, rnd: BettingRound, seat: int, verb: str, amount: int | None, stacks: list[int]) -> str:
        """RULES 1.4: an `allin` of no more than the stay cost is read as `call` (any other is refused)."""
        return "call" if verb == "allin" and 0 < stacks[seat] <= self.stay_cost else verb

    def legal(self, rnd: BettingRound, seat: int, stacks: list[int], phase: str) -> LegalActions:
        stack = stacks[seat]
        pay = min(self.stay_cost, stack)
        return legal_from(
            LegalActions,
            {
                **LEGAL_DEFAULTS,
                "seat": seat,
                "phase": phase,
                "can_call": True,
                "call_amount": pay,
                "can_fold": True,
                "can_all_in": stack <= self.stay_cost,
                "all_in_amount": stack if stack <= self.stay_cost else 0,
            },
        )

    def verify(
        self,
        rnd: BettingRound,
        seat: int,
        verb: str,
        amount: int | None,
        stacks: list[int],
        legal: LegalActions | None = None,
    ) -> int:
        stack = stacks[seat]
        if verb == "fold":
            return 0
        if verb == "call":
            return min(self.stay_cost, stack)
        if verb == "allin" and stack <= self.stay_cost:
            return stack
        raise WrongPhase(
            f"In a pay-to-stay round you either call (pay {min(self.stay_cost, stack)} to stay) or fold; "
            f"{verb} is not allowed."
        )

    def apply(self, rnd: BettingRound, seat: int, verb: str, paid: int, stacks: list[int], folded: set[int]) -> None:
        if paid:
            rnd.bets[seat] += paid
        self._done(rnd, seat)


STRUCTURES: dict[str, type[BettingStructure]] = {NoLimit.name: NoLimit, FixedStay.name: FixedStay}


def make_structure(name: str, *, min_bet: int, max_bet: int | None, min_raise: str, stay_cost: int) -> BettingStructure:
    return STRUCTURES[name](min_bet=min_bet, max_bet=max_bet, min_raise=min_raise, stay_cost=stay_cost)


def allowed_text(legal: LegalActions) -> str:
    """The betting moves `legal` allows, in words ("call, raise or fold"), for error messages.

    Going all-in is named only when neither a bet nor a raise is possible: otherwise it is one of them.
    """
    words = {"check": "check", "call": "call", "bet": "bet", "raise": "raise", "fold": "fold", "allin": "go all-in"}
    verbs = [v for v in legal.verbs if v != "select"]
    if legal.can_bet or legal.can_raise:
        verbs = [v for v in verbs if v != "allin"]
    names = [words[v] for v in verbs]
    if len(names) <= 1:
        return names[0] if names else "nothing"
    return f"{', '.join(names[:-1])} or {names[-1]}"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
