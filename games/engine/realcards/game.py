"""A game at a table with real cards: the site keeps the chips, the players keep their cards.

`RealCardsGame` runs the engine's own `Game` and hand classes (betting, pots, phases, evaluation, ties,
odd credits, between hands: nothing is copied) on a deck of unknown cards (`unknown.py`). The table drives it
with steps, plain dicts, each verified (an `IllegalAction` subclass saying what is wrong and what is allowed;
nothing changes) and then applied:

    {"step": "deal"}                                   the dealer deals the next hand
    {"step": "dice", "dice": ...} / {"step": "dice", "by": "site"}   a roll entered, or rolled by the site
    {"step": "act", "seat": 2, "verb": "call"}         a player's choice (the variant's verbs, no card names)
    {"step": "reveal", "seat": 1, "cards": ["+7c", "0"]}  a hand shown (again, until the next deal: a correction)
    {"step": "card", "card": "-3s"}                    a tie-break card turned over (Sudden Demise, draw)
    {"step": "winners", "pot": 0, "seats": [1, 3]}      instead of showing: who takes each pot (`winners.py`)
    {"step": "levels" | "rebuy" | "add_on" | "join" | "leave" | "close" | "leftovers", ...}  between hands

The state is a function of the setup and the steps: a hand is run again from its start whenever a card or a
roll becomes known (the next run deals it in its place), and `undo()` rebuilds the game without the last step.
"""

import copy
import random
from collections import Counter
from typing import Any

from games.engine.errors import EngineError, IllegalAction, InvalidSelection, WrongPhase
from games.engine.realcards.due import due
from games.engine.realcards.tables import table_for, table_variant
from games.engine.realcards.unknown import NeedCard, NeedDice, is_unknown
from games.engine.realcards.winners import naming_complete, verify_named
from games.engine.shuffle import mix_entropy, server_seed
from games.engine.state import Game
from games.engine.variant import default_variant, get_variant
from games.engine.variant_options import build_options

# Between-hands steps: the step's name -> (the Game operation, its keyword arguments from the step).
BETWEEN = {
    "levels": ("set_levels", ("ante", "small_blind", "big_blind", "min_bet")),
    "rebuy": ("rebuy", ("seat", "amount")),
    "add_on": ("add_on", ("seat", "amount")),
    "join": ("join", ("name", "stack")),
    "leave": ("leave", ("seat",)),
    "close": ("close_table", ()),
    "leftovers": ("pay_leftovers", ()),
}
STEPS = ("deal", "dice", "act", "reveal", "card", "winners", *BETWEEN)


class RealCardsGame:
    """One game played with a printed deck and real dice (or the site's fair rolls)."""

    def __init__(self, setup: dict, *, master: str | None = None) -> None:
        self.setup = _checked_setup(setup)
        base = get_variant(self.setup["variant"])
        self.table = table_for(base.name)
        options = build_options(base.name, self.setup["preset"], self.setup["options"])
        game = Game.new(
            options=options,
            players=[tuple(p) for p in self.setup["players"]],
            dealer=self.setup["dealer"],
            rng=random.Random(0),
            variant=base.name,
            preset=self.setup["preset"],
        )
        # The master seed of the site's rolls: the caller's (kept with the table, private until the game ends).
        game._master = master if master is not None else f"{random.SystemRandom().getrandbits(128):032x}"
        game.variant = table_variant(base, self)
        self.base = base
        self.game = game
        self.steps: list[dict] = []
        self.changes: list[dict] = []  # every step and every undo, in order: the hand's log of corrections
        self.check_site_rolls = False  # a replay whose seed is revealed checks each site roll against it
        self._reset_state()

    def _reset_state(self) -> None:
        self.boards: dict[int, dict[int, Any]] = {}  # hand -> deck slot -> the card shown there
        self.shown: dict[int, dict[Any, list[int]]] = {}  # hand -> seat (or "card") -> slots it filled
        self.dice: dict[int, list[Any]] = {}  # hand -> the rolls entered, in order
        self.named: dict[int, dict[Any, list[int]]] = {}  # hand -> pot -> the winners the table named
        self.need: tuple | None = None  # ("dice",) or ("card", slot): what the hand waits for besides players
        self._snapshot: tuple[Game, int] | None = None  # the game before the current hand, and its first step
        self._changed = False  # whether the step being applied has changed anything yet
        self._batch = False  # a rebuild showing several hands in a row runs the hand once, after the last
        self._starting = 0  # the hand being dealt or played: the one whose shown cards and rolls the deck uses

    # ----- what the variant proxy asks -------------------------------------------------------------------

    def _number(self) -> int:
        hand = self.game.hand
        return hand.number if hand is not None else 0

    def board(self) -> dict[int, Any]:
        return self.boards.get(self._starting, {})

    def entered_dice(self) -> list[Any]:
        return self.dice.get(self._starting, [])

    # ----- queries -----------------------------------------------------------------------------------

    def revealed_seed(self) -> str:
        """The master seed of the site's rolls, once the game is over (before that, `WrongPhase`): with it anyone
        can check every site roll against the commitment published before its hand."""
        if not self.game.over:
            raise WrongPhase("The seed of the site's rolls is revealed when the game ends.")
        return self.game._master

    def _hand_seed(self, number: int) -> str:
        """The hand seed of hand `number` (nobody contributes entropy at a real table): private until the end."""
        return mix_entropy(server_seed(self.game._master, number), [])

    def live(self) -> list[int]:
        hand = self.game.hand
        if hand is None:
            return []
        return [s for s in hand.seats if s not in hand.folded]

    def unknown_of(self, seat: int) -> list:
        return [c for c in self.table.held(self.game.hand, seat) if is_unknown(c)]

    # ----- steps -------------------------------------------------------------------------------------

    def verify_step(self, step: dict) -> None:
        """Raise an `IllegalAction` subclass if `step` may not be taken now; change nothing."""
        # The registered variant and the table object are shared, never copied.
        probe = copy.deepcopy(self, {id(self.base): self.base, id(self.table): self.table})
        probe._apply(copy.deepcopy(step))

    def can_step(self, step: dict) -> bool:
        try:
            self.verify_step(step)
        except EngineError:
            return False
        return True

    def step(self, step: dict) -> None:
        """Verify, then apply, one step of the table; a refused step changes nothing."""
        step = copy.deepcopy(step)
        self._changed = False
        try:
            self._apply(step)
        except BaseException:
            # Refusals come before anything changes; should anything fail later, the game is rebuilt as it was.
            if self._changed:
                self._rebuild(self.steps, self.changes)
            raise
        self.steps.append(step)
        self.changes.append({"did": copy.deepcopy(step)})

    def undo(self) -> dict:
        """Take back the last step (a mis-tap); the game is rebuilt from its setup and the other steps."""
        if not self.steps:
            raise WrongPhase("There is nothing to undo: no step has been taken yet.")
        last = self.steps[-1]
        self._rebuild(self.steps[:-1], [*self.changes, {"undid": copy.deepcopy(last)}])
        return last

    def _rebuild(self, steps: list[dict], changes: list[dict]) -> None:
        rebuilt = RealCardsGame(self.setup, master=self.game._master)
        for index, step in enumerate(steps):
            # Hands shown one after another at the same reveal need one run of the hand, after the last of them.
            later = steps[index + 1] if index + 1 < len(steps) else {}
            rebuilt._batch = step.get("step") == "reveal" and later.get("step") == "reveal"
            rebuilt._apply(copy.deepcopy(step))
            rebuilt.steps.append(step)
        rebuilt._batch = False
        rebuilt.changes = list(changes)
        rebuilt.check_site_rolls = self.check_site_rolls
        self.__dict__.clear()
        self.__dict__.update(rebuilt.__dict__)
        self.game.variant._game = self  # the variant asks this game (not the one built) for its cards and rolls

    def _apply(self, step: dict) -> None:
        if not isinstance(step, dict) or step.get("step") not in STEPS:
            got = step.get("step") if isinstance(step, dict) else step
            raise IllegalAction(f"Unknown step {got!r}; the steps are {', '.join(STEPS)}.")
        kind = step["step"]
        if kind in BETWEEN:
            self._between(kind, step)
        elif kind == "deal":
            self._deal()
        elif kind == "dice":
            self._dice(step)
        elif kind == "act":
            self._act(step)
        elif kind == "reveal":
            self._reveal(step)
        elif kind == "winners":
            self._winners(step)
        else:
            self._card(step)

    def _run(self, operation) -> None:
        """Run an engine operation; a card or a roll it needs becomes what the table is asked for next."""
        self._changed = True
        try:
            operation()
            hand = self.game.hand
            self.need = ("dice",) if hand is not None and not hand.is_complete and self.table.dice_due(hand) else None
        except NeedCard as need:
            self.need = ("card", need.slot)
            number = self._number()
            if number in self.named and naming_complete(self, number):
                # The table named the winners: the variant's hand pays them instead of reading cards.
                self.table.settle(self.game.hand, self.named[number])
                self.game._after_operation()
                self.need = None
        except NeedDice:
            self.need = ("dice",)

    def _refuse_while_waiting(self, what: str) -> None:
        if self.need is not None:
            wanted = "the dice" if self.need[0] == "dice" else "the cards shown at the reveal"
            raise WrongPhase(f"The hand is waiting for {wanted}; {what} must wait.")

    def _between(self, kind: str, step: dict) -> None:
        self._refuse_while_waiting(kind)
        name, keys = BETWEEN[kind]
        args = {key: step[key] for key in keys if key in step}
        extra = sorted(set(step) - {"step", *keys})
        if extra:
            raise IllegalAction(f"{kind} takes {', '.join(keys) or 'nothing'}; got {', '.join(extra)}.")
        verify = getattr(self.game, f"verify_{name}")
        try:
            verify(**args)
        except TypeError as exc:
            raise IllegalAction(f"{kind} takes {', '.join(keys) or 'nothing'}: {exc}.") from None
        self._changed = True
        getattr(self.game, name)(**args)

    def _deal(self) -> None:
        self._refuse_while_waiting("the next deal")
        game = self.game
        game.verify_start_hand()
        self._starting = game.hands_played + 1
        self._changed = True
        self._snapshot = (_copy_between_hands(game), len(self.steps))
        self._start()

    def _start(self) -> None:
        self._starting = self.game.hands_played + 1

        def start() -> None:
            hand = self.game.start_hand()
            self.table.after_start(hand, self)

        self._run(start)

    def _rerun(self) -> None:
        """Run the current hand again from its start, now that a card or a roll is known."""
        game, first = self._snapshot
        self.game = _copy_between_hands(game)
        self.need = None
        self._start()
        for step in self.steps[first + 1 :]:
            kind = step["step"]
            if kind == "act":
                self._act(step, again=True)
            elif kind in BETWEEN:
                name, keys = BETWEEN[kind]
                getattr(self.game, name)(**{key: step[key] for key in keys if key in step})

    def _act(self, step: dict, *, again: bool = False) -> None:
        if not again:
            self._refuse_while_waiting("the players")
        seat, verb = step.get("seat"), step.get("verb")
        args = {k: v for k, v in step.items() if k not in ("step", "seat", "verb")}
        game = self.game
        hand = game.hand
        if hand is None or hand.is_complete:
            raise WrongPhase("No hand is being played: the dealer deals the next hand first.")
        if verb not in self.base.verbs:
            raise WrongPhase(f"Unknown action {verb!r}; the actions are {', '.join(self.base.verbs)}.")
        allowed = self.table.step_args.get(verb, ())
        extra = sorted(set(args) - set(allowed))
        if extra:
            takes = f"takes {', '.join(allowed)}" if allowed else "takes nothing but seat and verb"
            raise IllegalAction(f"At a real-cards table {verb} {takes} (no card is named); got {', '.join(extra)}.")
        if seat not in self.game.waiting_for():
            game.verify_act(seat, verb, **self._engine_args(hand, seat, verb, args, strict=False))
        engine_args = self._engine_args(hand, seat, verb, args)
        try:
            game.verify_act(seat, verb, **engine_args)
        except NeedCard:
            raise IllegalAction(f"{verb} is not allowed now.") from None
        self._run(lambda: game.act(seat, verb, **engine_args))

    def _engine_args(self, hand: Any, seat: Any, verb: str, args: dict, *, strict: bool = True) -> dict:
        try:
            return self.table.translate(hand, seat, verb, args)
        except (KeyError, IndexError, TypeError, AttributeError):
            if strict:
                raise IllegalAction(f"{verb} is not allowed for seat {seat!r} now.") from None
            return {}

    def _dice(self, step: dict) -> None:
        if self.need != ("dice",):
            raise WrongPhase("No roll is due now.")
        number = self._number()
        by = step.get("by", "table")
        if by == "site":
            count = len(self.dice.get(number, []))
            rolled = self.table.dice_document(self.table.site_dice(self._hand_seed(number), self.game.options, count))
            if "dice" not in step:
                step["dice"] = rolled  # kept with the step: undo and replays use the roll, not the seed
            elif self.check_site_rolls and step["dice"] != rolled:
                raise IllegalAction(
                    f"the site's roll {count + 1} of hand {number} from the revealed seed is {rolled}, "
                    f"not {step['dice']}."
                )
        elif by != "table":
            raise IllegalAction(f"dice are rolled by 'table' (entered) or 'site'; got {by!r}.")
        elif "dice" not in step:
            raise IllegalAction('Enter the roll as "dice" (or let the site roll: "by": "site").')
        dice = self.table.parse_dice(step["dice"])
        self._changed = True
        self.dice.setdefault(number, []).append(dice)
        resume = getattr(self.table, "resume", None)
        if resume is not None:
            # A hand that only paused for the roll (Classic) goes on from where it is: the same as a new run.
            def go_on() -> None:
                resume(self.game.hand, dice)
                self.game._after_operation()

            self._run(go_on)
        else:
            self._rerun()

    def _parse(self, text: object) -> Any:
        return self.base.parse_card(text)  # `InvalidCard` says what a card looks like

    def _check_cards(self, number: int, cards: list, replacing: list[int]) -> None:
        """Each card exists in the deck and is not shown more often than the deck holds it in this hand."""
        in_deck = Counter(self.base.deck())
        board = self.boards.get(number, {})
        used = Counter(card for slot, card in board.items() if slot not in replacing)
        for card in cards:
            used[card] += 1
            if used[card] > in_deck[card]:
                copies = in_deck[card]
                raise InvalidSelection(
                    f"{card.code} is already shown in hand {number}; the deck holds it "
                    f"{'once' if copies == 1 else f'{copies} times'}."
                )

    def _reveal(self, step: dict) -> None:
        seat, cards = step.get("seat"), step.get("cards")
        hand = self.game.hand
        number = self._number()
        if hand is None:
            raise WrongPhase("No hand has been dealt yet; nothing can be shown.")
        names = self.game.names
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in hand.seats:
            raise IllegalAction(f"Seat {seat!r} is not in hand {number}; its seats are {hand.seats}.")
        if seat in hand.folded:
            raise IllegalAction(f"{names[seat]} folded; folded hands are never shown.")
        if self.named.get(number):
            raise WrongPhase("The table named this hand's winners; undo the naming to show the cards instead.")
        told = step.get("hand", number)
        if told != number:
            raise WrongPhase(
                f"Hand {told!r} is not the hand at the table (hand {number}): a hand's reveal can be corrected "
                "only until the next hand is dealt."
            )
        earlier = self.shown.get(number, {}).get(seat)
        if earlier is None:
            if self.need is None or self.need[0] != "card" or not self.unknown_of(seat):
                raise WrongPhase(f"{names[seat]} has nothing to show now; {self._waiting_words()}.")
            slots = [card.slot for card in self.unknown_of(seat)]
        else:
            slots = earlier  # a correction: the same cards' places, shown anew
        if not isinstance(cards, list) or len(cards) != len(slots):
            raise InvalidSelection(
                f"{names[seat]} shows {len(slots)} card{'' if len(slots) == 1 else 's'}: give cards as a list "
                f"of {len(slots)} card codes."
            )
        parsed = [self._parse(c) for c in cards]
        self._check_cards(number, parsed, slots)
        self._changed = True
        board = self.boards.setdefault(number, {})
        for slot, card in zip(slots, parsed, strict=True):
            board[slot] = card
        self.shown.setdefault(number, {})[seat] = slots
        if not self._batch:
            self._rerun()

    def _card(self, step: dict) -> None:
        if self.need is None or self.need[0] != "card":
            raise WrongPhase(f"No card is to be turned over now; {self._waiting_words()}.")
        slot = self.need[1]
        owners = [s for s in self.live() if any(c.slot == slot for c in self.unknown_of(s))]
        if owners and len(self.unknown_of(owners[0])) > 1:
            raise WrongPhase(f"{self.game.names[owners[0]]} shows their hand first (a reveal step).")
        seat = step.get("seat")
        if seat is not None and owners and seat != owners[0]:
            raise IllegalAction(f"This card is {self.game.names[owners[0]]}'s, not seat {seat!r}'s.")
        number = self._number()
        card = self._parse(step.get("card"))
        self._check_cards(number, [card], [])
        self._changed = True
        self.boards.setdefault(number, {})[slot] = card
        self.shown.setdefault(number, {}).setdefault("card", []).append(slot)
        self._rerun()

    def _winners(self, step: dict) -> None:
        pot, seats = verify_named(self, step)
        number = self._number()
        self._changed = True
        self.named.setdefault(number, {})[pot] = list(seats)
        if naming_complete(self, number):
            self._rerun()

    def _waiting_words(self) -> str:
        return due(self)["says"]

    # ----- results ------------------------------------------------------------------------------------

    @property
    def stacks(self) -> list[int]:
        return list(self.game.stacks)

    def results(self) -> list[dict]:
        """Every finished hand as the engine sums it up (pots, winners, shares, the hands shown)."""
        return list(self.game.results)


def _copy_between_hands(game: Game) -> Game:
    """A copy of a game between hands to run the next hand on. What no later operation changes is shared: the
    finished hand (a game never touches it again) and the summaries of finished hands."""
    memo: dict[int, Any] = {id(game.variant): game.variant}
    if game.hand is not None:
        memo[id(game.hand)] = game.hand
    for summary in game.results:
        memo[id(summary)] = summary
    return copy.deepcopy(game, memo)


def _checked_setup(setup: dict) -> dict:
    if not isinstance(setup, dict):
        raise IllegalAction("A real-cards game's setup is an object with variant, preset, options, players, dealer.")
    allowed = {"variant", "preset", "options", "players", "dealer"}
    extra = sorted(set(setup) - allowed)
    if extra:
        raise IllegalAction(f"Unknown setup fields {', '.join(extra)}; the fields are {', '.join(sorted(allowed))}.")
    variant = (default_variant() if setup.get("variant") is None else get_variant(setup["variant"])).name
    presets = get_variant(variant).presets
    preset = setup.get("preset") or next(iter(presets))
    players = setup.get("players")
    if not isinstance(players, list) or not all(isinstance(p, list | tuple) and len(p) == 2 for p in players):
        raise IllegalAction('players is a list of [name, stack] pairs, like [["Ann", 100], ["Bob", 100]].')
    dealer = setup.get("dealer")
    if type(dealer) is not int:
        raise IllegalAction("Name the first dealer (dealer: a seat number); the table draws for it itself.")
    options = setup.get("options") or {}
    if not isinstance(options, dict):
        raise IllegalAction('options is an object of option overrides, like {"ante": 2}.')
    return {
        "variant": variant,
        "preset": preset,
        "options": dict(options),
        "players": [list(p) for p in players],
        "dealer": dealer,
    }
