"""The game between hands: re-buys, add-ons, joins and leaves, item stakes, player entropy, new forced-bet
levels, paying out what is left on the table, closing a cash table, the seeds revealed at the end, and the
events that record them (saved and replayed like decisions). `Game` (state.py) holds one game and its hand and
takes these operations from `BetweenHands`; each is a verify / can / apply triad like a hand's decisions.
"""

from typing import TYPE_CHECKING

from games.engine import leftovers
from games.engine.errors import EngineError, IllegalAction, InvalidAmount, InvalidState, WrongPhase
from games.engine.forced import Levels
from games.engine.shuffle import commitment, mix_entropy, server_seed

if TYPE_CHECKING:
    from games.engine.variant import VariantHand as Hand

MIN_SEATS, MAX_SEATS = 2, 8
MAX_ENTROPY = 200


class BetweenHands:
    """The between-hands operations of `Game` (which holds the fields they read and write)."""

    # No fields of its own in Python: `Game`'s slots hold them all (compiled, `between_hands.pxd` declares them here).
    __slots__ = ()

    # ----- between hands -------------------------------------------------------------------------

    def _verify_between_hands(self, what: str) -> None:
        if self.over:
            raise WrongPhase(f"The game is over; {what} is closed.")
        if self.in_hand:
            raise WrongPhase(f"{what.capitalize()} happens between hands; wait for this hand to finish.")

    def _verify_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.names):
            raise IllegalAction(f"Seat {seat!r} does not exist; seats run from 0 to {len(self.names) - 1}.")
        if seat in self.left:
            raise WrongPhase(f"{self.names[seat]} has left the table; they may join again.")

    def _verify_buying(self, seat: int, amount: int, *, option: str, doing: str, out: bool) -> None:
        """A re-buy (`out`: the seat is out of credits) or an add-on (it still holds some): allowed by `option`,
        between hands, for a seated player, of a whole number of credits."""
        if not getattr(self.options, option):
            what = "Re-buys" if option == "rebuys" else "Add-ons"
            raise WrongPhase(f"{what} are not allowed in this game (option {option!r} is off).")
        self._verify_between_hands(doing)
        self._verify_seat(seat)
        stack = self.stacks[seat]
        if out and stack > 0:
            raise WrongPhase(
                f"{self.names[seat]} still holds {stack} credits; only a player out of credits may re-buy."
            )
        if not out and stack == 0:
            raise WrongPhase(f"{self.names[seat]} has no credits; a player out of credits re-buys instead.")
        _verify_credits(amount, "A re-buy" if out else "An add-on")

    def verify_rebuy(self, seat: int, amount: int) -> None:
        self._verify_buying(seat, amount, option="rebuys", doing="re-buying", out=True)

    def can_rebuy(self, seat: int, amount: int) -> bool:
        return _can(self.verify_rebuy, seat, amount)

    def rebuy(self, seat: int, amount: int) -> None:
        """Bring a player who is out of credits back with `amount` new credits (only between hands)."""
        self.verify_rebuy(seat, amount)
        self._record(["rebuy", seat, amount])

    def verify_add_on(self, seat: int, amount: int) -> None:
        self._verify_buying(seat, amount, option="add_ons", doing="adding on", out=False)

    def can_add_on(self, seat: int, amount: int) -> bool:
        return _can(self.verify_add_on, seat, amount)

    def add_on(self, seat: int, amount: int) -> None:
        """A player who still holds credits buys `amount` more (only between hands, option `add_ons`)."""
        self.verify_add_on(seat, amount)
        self._record(["addon", seat, amount])

    def verify_contribute_entropy(self, seat: int, value: str) -> None:
        self._verify_between_hands("contributing entropy")
        self._verify_seat(seat)
        if not isinstance(value, str) or not 1 <= len(value) <= MAX_ENTROPY or not value.isprintable():
            raise IllegalAction(
                f"Entropy is a text of 1 to {MAX_ENTROPY} printable characters (the browser makes a random one); "
                f"got {_short(value)}."
            )

    def can_contribute_entropy(self, seat: int, value: str) -> bool:
        return _can(self.verify_contribute_entropy, seat, value)

    def contribute_entropy(self, seat: int, value: str) -> None:
        """RULES 1.7: a seated player's contribution to the next hand's seed (a later one replaces it)."""
        self.verify_contribute_entropy(seat, value)
        self._record(["entropy", seat, value])

    def next_commitment(self) -> str | None:
        """The SHA-256 of the next hand's server seed, public before the hand starts (None when the game is over)."""
        if self.over:
            return None
        return commitment(server_seed(self._master, self.hands_played + 1))

    def verify_close_table(self) -> None:
        if self.options.end_rule != "never":
            raise WrongPhase(
                "Only a cash game (end rule 'never', the casino preset) is closed; this game ends by itself."
            )
        self._verify_between_hands("closing the table")

    def can_close_table(self) -> bool:
        return _can(self.verify_close_table)

    def close_table(self) -> None:
        """Close a cash game between hands: `end_game` once the game is known to be a cash game (the same
        "close" record, leftovers paid out by RULES 1.5, hand seeds revealed by RULES 1.7)."""
        self.verify_close_table()
        self.end_game()

    def verify_end_game(self) -> None:
        self._verify_between_hands("ending the game")

    def can_end_game(self) -> bool:
        return _can(self.verify_end_game)

    def end_game(self) -> None:
        """End any game between hands, by its organiser's decision (an online league table ended at a hand break):
        recorded as a close, so the game is over as it stands (`standings`: by stack), what is left on the table is
        paid out (RULES 1.5) and its hand seeds are revealed (RULES 1.7). A cash game's `close_table` is this after
        its own check, so a replayed "close" event, cash game or not, is this."""
        self.verify_end_game()
        self._record(["close"])
        leftovers.pay_at_end(self)

    def verify_set_levels(self, *, ante: int, small_blind: int, big_blind: int, min_bet: int | None = None) -> None:
        self._verify_between_hands("changing the forced bets")
        for name, value in (("ante", ante), ("small_blind", small_blind), ("big_blind", big_blind)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidAmount(f"'{name}' is a whole number of credits, 0 or more; got {value!r}.")
        if not self.variant.has_blinds:
            title = self.variant.name.replace("_", " ").title()
            if small_blind or big_blind:
                raise InvalidAmount(
                    f"{title} has no blinds: a level sets its hand-pot ante (and min bet); give small_blind 0 "
                    f"and big_blind 0, not {small_blind} and {big_blind}."
                )
            if ante < 1:
                raise InvalidAmount(f"Every {title} hand has a hand-pot ante of at least 1 credit; got {ante}.")
        if small_blind > big_blind:
            raise InvalidAmount(f"The small blind ({small_blind}) may not exceed the big blind ({big_blind}).")
        if min_bet is not None:
            if isinstance(min_bet, bool) or not isinstance(min_bet, int) or min_bet < 1:
                raise InvalidAmount(f"'min_bet' is a whole number of credits, at least 1; got {min_bet!r}.")
            if min_bet < big_blind:
                raise InvalidAmount(f"The min bet ({min_bet}) may not be below the big blind ({big_blind}).")

    def can_set_levels(self, *, ante: int, small_blind: int, big_blind: int, min_bet: int | None = None) -> bool:
        try:
            self.verify_set_levels(ante=ante, small_blind=small_blind, big_blind=big_blind, min_bet=min_bet)
        except EngineError:
            return False
        return True

    def set_levels(self, *, ante: int, small_blind: int, big_blind: int, min_bet: int | None = None) -> Levels:
        """Change the forced bets between hands (a tournament's new level); returns the levels now in force.

        The next hand plays exactly these levels; the preset's escalation, if any, continues from them at
        the hands after it. Without `min_bet` it is the `min_bet` option or the big blind, whichever is
        larger. The doubling factor (which scales `max_bet`) is kept. A variant without blinds (Corellian
        Spike, Classic) takes the ante as its hand-pot ante (its Sabacc-pot ante stays the option's) and
        refuses blinds (`Variant.has_blinds`).
        """
        self.verify_set_levels(ante=ante, small_blind=small_blind, big_blind=big_blind, min_bet=min_bet)
        if min_bet is None:
            min_bet = max(self.options.min_bet, big_blind)
        self._record(["levels", [ante, small_blind, big_blind, min_bet]])
        return self.levels

    def verify_pay_leftovers(self) -> None:
        if self.options.end_rule != "never" and not self.over:
            raise WrongPhase(
                "This game pays out what is left in its pots when it ends (RULES 1.5 'Credits left at the end'); "
                "only a table whose organiser ends it (end rule 'never', a tournament's table) pays out before."
            )
        if self.in_hand:
            raise WrongPhase("Paying out what is left in the pots happens between hands; wait for this hand to finish.")
        if not leftovers.left_on_table(self):
            raise WrongPhase("Nothing is left in the carry-over or the Sabacc pot to pay out.")
        if not leftovers.recipients(self):
            raise WrongPhase("Nobody at the table holds credits to take what is left in the pots.")

    def can_pay_leftovers(self) -> bool:
        return _can(self.verify_pay_leftovers)

    def pay_leftovers(self) -> dict[int, int]:
        """Pay out now what is left on the table, as every game does when it ends (`games.engine.leftovers`): at
        a tournament's table, when its last player holding credits leaves. Returns each seat's share."""
        self.verify_pay_leftovers()
        shares = {seat: 0 for seat in leftovers.recipients(self)}
        paid = leftovers.shares(self)
        shares.update(dict(paid))
        self._record(["leftovers", paid])
        return shares

    def _hand_seed(self, number: int, entry: dict) -> str:
        """The seed of seeded hand `number` from its history record (server seed mixed with its entropy)."""
        return mix_entropy(server_seed(self._master, number), [(n, v) for n, v in entry.get("n", [])])

    def revealed_seeds(self) -> list[dict]:
        """RULES 1.7: every seeded hand's commitment, server seed, player entropy and hand seed, once the game
        is over (a cash game: once the table is closed); before that, `WrongPhase`."""
        if not self.over:
            raise WrongPhase("Hand seeds are revealed when the game ends (a cash game: when the table closes).")
        if self._history_from:
            raise InvalidState("This game was loaded without its history, so its earlier hands' entropy is unknown.")
        seeds = []
        number = 0
        for entry in self._history:
            if "a" not in entry:
                continue
            number += 1
            if "d" in entry:
                continue
            server = server_seed(self._master, number)
            contributions = [(name, value) for name, value in entry.get("n", [])]
            seeds.append(
                {
                    "hand": number,
                    "commitment": commitment(server),
                    "server_seed": server,
                    "entropy": {name: value for name, value in contributions},
                    "seed": mix_entropy(server, contributions),
                }
            )
        return seeds

    def verify_join(self, name: str, stack: int) -> None:
        if self.options.end_rule != "never":
            raise WrongPhase("Players can only join a cash game (end rule 'never', the casino preset).")
        self._verify_between_hands("joining")
        if not isinstance(name, str) or not name.strip():
            raise IllegalAction(f"A player's name must be a non-empty text; got {name!r}.")
        if name in self.names and self.names.index(name) not in self.left:
            raise IllegalAction(f"{name} is already seated; choose another name.")
        if name not in self.names and len(self.names) - len(self.left) >= MAX_SEATS:
            raise WrongPhase(f"The table is full: it seats at most {MAX_SEATS} players.")
        _verify_credits(stack, "A buy-in")

    def can_join(self, name: str, stack: int) -> bool:
        return _can(self.verify_join, name, stack)

    def join(self, name: str, stack: int) -> int:
        """Seat a player with `stack` credits in a cash game, between hands; returns their seat.

        A player who left earlier gets their old seat back; otherwise a new seat is added after the
        last one, or the seat of someone who left is reused when all eight seats exist.
        """
        self.verify_join(name, stack)
        self._record(["join", name, stack])
        return self.names.index(name)

    def verify_leave(self, seat: int) -> None:
        if self.options.end_rule != "never":
            raise WrongPhase("Players can only leave a cash game (end rule 'never', the casino preset).")
        self._verify_between_hands("leaving")
        self._verify_seat(seat)

    def can_leave(self, seat: int) -> bool:
        return _can(self.verify_leave, seat)

    def leave(self, seat: int) -> int:
        """A player leaves a cash game between hands, taking their stack with them; returns the stack."""
        self.verify_leave(seat)
        stack = self.stacks[seat]
        self._record(["leave", seat, stack])
        return stack

    def verify_stake_item(self, seat: int, item: str, value: int) -> None:
        if not self.options.item_stakes:
            raise WrongPhase("Special-item stakes are not allowed in this game (option 'item_stakes' is off).")
        self._verify_between_hands("staking an item")
        self._verify_seat(seat)
        if self.stacks[seat] > 0:
            raise WrongPhase(f"{self.names[seat]} still holds credits; only a player out of credits may stake an item.")
        if not isinstance(item, str) or not item.strip():
            raise IllegalAction(f"Name the item being staked; got {item!r}.")
        _verify_credits(value, "An item's agreed value")

    def can_stake_item(self, seat: int, item: str, value: int) -> bool:
        return _can(self.verify_stake_item, seat, item, value)

    def stake_item(self, seat: int, item: str, value: int) -> None:
        """RULES 1.6, optional: a player out of credits stakes an item worth `value` credits, agreed by the table.

        The player plays on with `value` credits. If they lose them all, the item goes to the winner of the
        pot they lost (see `item_transfers`); while they hold credits, the item stays staked.
        """
        self.verify_stake_item(seat, item, value)
        self._record(["item", seat, [item, value]])

    def _transfer_item(self, hand: "Hand", seat: int) -> None:
        item, value = self.items.pop(seat)
        lost = [a for a in hand.awards if seat in a["eligible"] and seat not in a["winners"]]
        award = lost[0] if lost else hand.awards[0]
        winner = award["winners"][0]
        self.item_transfers.append({"hand": hand.number, "item": item, "value": value, "from": seat, "to": winner})

    def _record(self, event: list) -> None:
        self._apply_event(event)
        self._history.append({"e": event})

    def _apply_event(self, event: list) -> None:
        """Apply a verified between-hands event; also used when loading a saved game."""
        kind = event[0]
        if kind == "rebuy":
            _, seat, amount = event
            self.stacks[seat] += amount
            self.out_at.pop(seat, None)
        elif kind == "addon":
            _, seat, amount = event
            self.stacks[seat] += amount
        elif kind == "entropy":
            _, seat, value = event
            self.entropy[seat] = value
        elif kind == "close":
            self.over = True
        elif kind == "leftovers":
            self._pay(event[1])
        elif kind == "levels":
            _, (ante, small_blind, big_blind, min_bet) = event
            self.levels = Levels(ante, small_blind, big_blind, min_bet, self.levels.factor)
            self.levels_set = True
        elif kind == "join":
            _, name, stack = event
            if name in self.names:
                seat = self.names.index(name)
            elif len(self.names) < MAX_SEATS:
                seat = len(self.names)
                self.names.append(name)
                self.stacks.append(0)
            else:
                seat = min(self.left)
                self.names[seat] = name
            self.left.discard(seat)
            self.out_at.pop(seat, None)
            self.stacks[seat] = stack
        elif kind == "item":
            _, seat, (item, value) = event
            self.stacks[seat] += value
            self.items[seat] = [item, value]
            self.out_at.pop(seat, None)
        elif kind == "leave":
            _, seat, _stack = event
            self.stacks[seat] = 0
            self.left.add(seat)
            self.entropy.pop(seat, None)
            self.out_at.pop(seat, None)
        else:
            raise InvalidState(f"Unknown saved event {kind!r}.")
        self._tail.append(event)

    # ----- snapshots (used by serialize.py) ------------------------------------------------------

    def _snapshot(self) -> dict:
        extra = {"entropy": [[s, v] for s, v in sorted(self.entropy.items())]} if self.entropy else {}
        if self.pools:
            extra["pools"] = dict(self.pools)
        if self.levels_set:
            extra["levels_set"] = True
        if self.leftovers_paid:
            extra["leftovers"] = [[s, v] for s, v in sorted(self.leftovers_paid.items())]
        return {
            **extra,
            "names": list(self.names),
            "left": sorted(self.left),
            "stacks": list(self.stacks),
            "dealer": self.dealer,
            "levels": self.levels.to_list(),
            "carry": self.carry,
            "played": self.hands_played,
            "out": [[s, h] for s, h in sorted(self.out_at.items())],
            "dealt": sorted(self.dealt),
            "over": self.over,
            "items": [[s, list(i)] for s, i in sorted(self.items.items())],
            "moved": [dict(t) for t in self.item_transfers],
        }

    def _restore(self, data: dict) -> None:
        self.names[:] = data["names"]
        self.left = set(data["left"])
        self.stacks[:] = data["stacks"]
        self.dealer = data["dealer"]
        self.levels = Levels.from_list(data["levels"])
        self.carry = data["carry"]
        self.hands_played = data["played"]
        self.out_at = {s: h for s, h in data["out"]}
        self.dealt = set(data["dealt"])
        self.over = data["over"]
        self.items = {s: i for s, i in data["items"]}
        self.item_transfers = [dict(t) for t in data["moved"]]
        self.entropy = {s: v for s, v in data.get("entropy", [])}
        self.pools = dict(data.get("pools", {}))
        self.levels_set = bool(data.get("levels_set", False))
        self.leftovers_paid = {s: v for s, v in data.get("leftovers", [])}


def _verify_credits(amount: object, what: str) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
        raise InvalidAmount(f"{what} is a whole number of credits, at least 1; got {amount!r}.")


def _short(value: object) -> str:
    """A value for an error message, cut short (an entropy text is never repeated in full)."""
    if isinstance(value, str):
        return f"a text of {len(value)} characters" if value else "an empty text"
    return type(value).__name__


def _can(verify, *args) -> bool:
    try:
        verify(*args)
    except EngineError:
        return False
    return True
