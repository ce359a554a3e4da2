"""One hand of Corellian Spike (RULES 2.2-2.4): antes, deal, market, card turns, spikes, betting, reveal.

The hand runs by itself through every step that needs no decision and stops at each decision: a card
turn, a spike, a betting turn. Every operation is verified first (raising an `IllegalAction` subclass
and changing nothing), then applied and recorded. Betting and side pots are the shared machinery
(`betting.NoLimit`, `pots.side_pots`); card prices join the main pot as dead money (Ruling 2.2.7).
"""

from games.engine.betting import LegalActions, legal_from
from games.engine.cards import Card, codes
from games.engine.errors import MissingDice
from games.engine.pots import Pot
from games.engine.records import Record, card_record, new_record
from games.engine.spike.actions import (
    BET_VERBS,
    BETTING_PHASES,
    CARD_PHASES,
    CARD_TURN_DEFAULTS,
    CARD_VERBS,
    PRICE_NAMES,
    PRIVATE_KINDS,
    CardTurnActions,
)
from games.engine.spike.dice import SpikeDice
from games.engine.spike.evaluation import evaluate
from games.engine.spike.options import POSITIONS
from games.engine.spike.plays import SpikePlays
from games.engine.ties import best, split

# The phases, verbs and legal actions live in `actions`; these names are read from here too.
__all__ = [
    "BETTING_PHASES",
    "BET_VERBS",
    "CARD_PHASES",
    "CARD_VERBS",
    "PRICE_NAMES",
    "PRIVATE_KINDS",
    "CardTurnActions",
    "SpikeHand",
]


class SpikeHand(SpikePlays):
    """The state of one Corellian Spike hand. Hidden fields (cards, draw pile, discards) are private."""

    # Slots, not a `__dict__`: the engine reads these on every decision, and a slot is read without a dict lookup.
    __slots__ = (
        "_aside",
        "_cards",
        "_final_cards",
        "_given_piles",
        "_market",
        "_pending",
        "acted",
        "card_costs",
        "card_costs_paid",
        "pools_out",
        "purchases",
        "rolled",
        "round_number",
        "sabacc_antes",
        "sabacc_award",
        "sabacc_in",
    )

    def _start(
        self, deck: list[Card], dice: SpikeDice | None, reshuffles: list | None, pools: dict[str, int] | None
    ) -> None:
        self._given_piles = None  # Ruling 2.1.3: the draw pile never runs out
        self._market: list[Card] = []  # galaxy: Pilot, Wing, Gunner (the newest first)
        self._aside: list[Card] = []  # folded hands, face down (Ruling 2.2.13)
        self._cards: dict[int, list[Card]] = {s: [] for s in self.seats}
        self.sabacc_antes: dict[int, int] = {}
        self.card_costs: dict[int, int] = dict.fromkeys(self.seats, 0)
        self.sabacc_in = (pools or {}).get("sabacc_pot", 0)
        self.sabacc_award: dict = {}
        self.pools_out: dict[str, int] = {"sabacc_pot": self.sabacc_in}
        self.purchases: list[dict] = []  # public: who took which face-up card, in which round, for what
        self.acted: set[int] = set()
        self._pending: list[int] = []  # card turns or spikes still to come in this phase, in turn
        self.round_number = 0
        self.rolled = False
        # Set when the hand ends (`_end`): the cards shown, the card prices paid.
        self._final_cards: dict[int, list[Card]] = {}
        self.card_costs_paid: dict[int, int] = {}

    def __repr__(self) -> str:
        return f"<SpikeHand {self.number} phase={self.phase} dealer={self.dealer} seats={self.seats}>"

    def dead_money(self) -> int:
        """The carry-over and the card prices paid join the main pot (Ruling 2.2.7)."""
        return self.carry_in + sum(self.card_costs.values())

    # ----- queries ----------------------------------------------------------------------------

    def waiting_for(self) -> list[int]:
        return list(self._awaited())

    def _awaited(self) -> list[int]:
        """`waiting_for()` itself, not copied (callers inside the hand only read it)."""
        waiting = self._waiting
        if waiting is None:
            if self.phase in CARD_PHASES or self.phase == "spike":
                waiting = self._pending[:1]
            else:
                actor = self.actor()
                waiting = [] if actor is None else [actor]
            self._waiting = waiting
        return waiting

    def actor(self) -> int | None:
        """The seat to act in a betting round; None outside betting or when the round is over."""
        if self.phase in BETTING_PHASES and self.round is not None:
            waiting = self._waiting
            if waiting is not None:
                return waiting[0] if waiting else None
            return self.structure.actor(self.round, self._stacks, self.folded)
        return None

    def sources(self) -> list[str]:
        """The face-up cards that can be taken now, by position (`pilot`, `wing`, `gunner`, `discard`)."""
        if self.options.market == "galaxy":
            return list(POSITIONS[: len(self._market)])
        return ["discard"] if self._discard else []

    def price(self, source: str, *, trade: bool) -> int:
        opts = self.options
        if source == "deck":
            return opts.swap_cost if trade else opts.gain_cost
        if source == "discard":
            return opts.swap_cost if trade else opts.gain_cost
        return opts.market_prices[POSITIONS.index(source)]

    def legal_actions(self, seat: int):
        legal = self._legal.get(seat) if type(seat) is int else None
        if legal is None:
            legal = self._work_out_legal(seat)
            if type(seat) is int:
                self._legal[seat] = legal
        return legal

    def _work_out_legal(self, seat: int):
        if seat not in self._awaited():
            return LegalActions(seat=seat, phase=self.phase)
        if self.phase in BETTING_PHASES:
            return self.structure.legal(self.round, seat, self._stacks, self.phase)
        cards = tuple([card.code for card in self._cards[seat]])
        if self.phase == "spike":
            return legal_from(
                CardTurnActions,
                {**CARD_TURN_DEFAULTS, "seat": seat, "phase": self.phase, "verbs": ("spike",), "cards": cards},
            )
        stack, opts = self._stacks[seat], self.options
        if opts.market == "galaxy":
            # The face-up cards the stack can pay for, by position (lists, not generators: asked every card turn).
            prices = opts.market_prices
            affordable = tuple([(POSITIONS[i], prices[i]) for i in range(len(self._market)) if prices[i] <= stack])
            buy_from = affordable if opts.gain_from_discard else ()
            trade_from = (("deck", opts.swap_cost), *affordable) if opts.swap_cost <= stack else affordable
        else:
            trade_from = (
                tuple((s, opts.swap_cost) for s in (("deck", "discard") if self._discard else ("deck",)))
                if opts.swap_cost <= stack
                else ()
            )
            buy_from = (
                (("discard", opts.gain_cost),)
                if opts.gain_from_discard and self._discard and opts.gain_cost <= stack
                else ()
            )
        verbs = ["stand"]
        if opts.gain_cost <= stack:
            verbs.append("draw")
        if trade_from:
            verbs.append("trade")
        if buy_from:
            verbs.append("buy")
        return legal_from(
            CardTurnActions,
            {
                "seat": seat,
                "phase": self.phase,
                "verbs": tuple(verbs),
                "cards": cards,
                "draw_cost": opts.gain_cost,
                "trade_from": trade_from,
                "buy_from": buy_from,
            },
        )

    def log_for(self, seat: int | None = None) -> list[Record]:
        """The log as `seat` (None: a spectator) may see it: other players' cards removed, except the hands
        shown at the reveal."""
        shown = []
        # Even after the reveal: the cards a player gave up face down, or drew and gave up, stay hidden.
        for record in self._log:
            if record.cards and record.kind in PRIVATE_KINDS and record.seat != seat:
                record = new_record(record.kind, record.seat, record.amount, (), record.note)
            shown.append(record)
        return shown

    def _all_cards(self) -> list[Card]:
        cards = self._draw + self._market + self._discard + self._aside
        for seat in self.seats:
            cards += self._cards[seat]
        return cards

    def draw_pile_size(self) -> int:
        return len(self._draw)

    def sabacc_pot(self) -> int:
        """The Sabacc pot as it stands: what was carried in and this hand's Sabacc antes (0 once paid out)."""
        if self.is_complete:
            return 0
        return self.sabacc_in + sum(self.sabacc_antes.values())

    def bets(self) -> dict[int, int]:
        return dict(self.round.bets) if self.round is not None and self.phase in BETTING_PHASES else {}

    def pot_total(self) -> int:
        """Every credit of the hand outside the stacks: bets, card prices, the carry-over, the Sabacc pot."""
        return sum(self.contributions.values()) + sum(self.card_costs.values()) + self.carry_in + self.sabacc_pot()

    # ----- the automatic steps -----------------------------------------------------------------

    def begin(self) -> None:
        """Antes (main pot first, Ruling 2.2.1), the deal, the first face-up card; then the first card turn."""
        opts, stacks = self.options, self._stacks
        for seat in self.seats:
            ante = min(opts.ante, stacks[seat])
            stacks[seat] -= ante
            self.contributions[seat] += ante
            self.forced[seat] = ante
            self._log.append(new_record("ante", seat, ante))
            extra = min(opts.sabacc_ante, stacks[seat])
            if extra:
                stacks[seat] -= extra
                self.sabacc_antes[seat] = extra
                self._log.append(new_record("sabacc_ante", seat, extra))
        for _ in range(2):  # Ruling 2.2.2: one card at a time, in turn, twice round
            for seat in self.seats:
                card = self._draw.pop(0)
                self._cards[seat].append(card)
                self._log.append(card_record("deal", seat, card))
        self._turn_up()
        self._open_cards(1)
        self._advance()

    def _turn_up(self) -> None:
        """A new face-up card: the Pilot, or (discard-pile market) the first card of the discard pile."""
        card = self._draw.pop(0)
        if self.options.market == "galaxy":
            self._market.insert(0, card)
            self._log.append(new_record("pilot", None, cards=(card,)))
        else:
            self._discard.append(card)
            self._log.append(new_record("discard_up", None, cards=(card,)))

    def _open_cards(self, number: int) -> None:
        self.round_number = number
        self.phase = f"cards_{number}"
        self._pending = list(self._live)
        self.acted = set()

    def _open_betting(self, number: int) -> None:
        self.round = self.structure.open_round(number, list(self._live), {}, self._stacks, 0)
        self.phase = f"betting_{number}"
        self.acted = set()

    def _advance(self) -> None:
        self._changed()
        try:
            self._run_automatic_steps()
        except BaseException:
            self._changed()
            raise

    def _run_automatic_steps(self) -> None:
        while True:
            if len(self._live) == 1 and self.phase != "complete":
                self._finish_fold_out()
                return
            phase = self.phase
            self._changed()
            if phase in CARD_PHASES:
                if self._pending:
                    return
                self._open_betting(self.round_number)
            elif phase == "spike":
                if self._pending:
                    return
                self._round_3_market()
            elif phase in BETTING_PHASES:
                actor = self.actor()
                if actor is not None:
                    self._waiting = [actor]  # worked out already: the state stops here
                    return
                if phase == "betting_1":
                    if self.options.market == "galaxy":
                        self._turn_up()  # the Pilot becomes the Wing
                    self._open_cards(2)
                elif phase == "betting_2":
                    self._open_round_3()
                else:
                    self._showdown()
                    return
            else:
                return

    def _open_round_3(self) -> None:
        self.round_number = 3
        if self.options.spike_dice:
            if self.dice is None:
                raise MissingDice('round 3 needs the spike dice; give "dice": [a, b].')
            self.rolled = True
            self._log.append(new_record("spike_roll", None, note=f"{self.dice.first},{self.dice.second}"))
            if self.dice.match:
                self.phase = "spike"
                self._pending = list(self._live)
                self.acted = set()
                return
        self._round_3_market()

    def _round_3_market(self) -> None:
        if self.options.market == "galaxy":
            self._turn_up()  # Wing to Gunner, Pilot to Wing, a new Pilot
        self._open_cards(3)

    def _finish_fold_out(self) -> None:
        self._return_uncalled()
        (winner,) = self._live
        for pot in self.pots():
            self._pay(pot, [winner], {winner: pot.amount})
        # Ruling 2.4.3: a last player holding a Sabacc shows it and claims the Sabacc pot.
        score = evaluate(self._cards[winner])
        if score.is_sabacc:
            self.scores = {winner: score}
        self._pay_sabacc_pot([winner] if score.is_sabacc else [])
        self._end()

    def _showdown(self) -> None:
        self._return_uncalled()
        self.scores = {s: evaluate(self._cards[s]) for s in self._live}
        main_winners: list[int] = []
        for pot in self.pots():
            eligible = list(pot.eligible) or list(self._live)
            winners = self._from_left(best(self.scores, eligible))
            if len(winners) > 1:
                paid, odd = split(pot.amount, winners, self.odd_credits)
                self.carry_out += odd
            else:
                paid = {winners[0]: pot.amount}
            self._pay(pot, winners, paid)
            if not main_winners:
                main_winners = winners
        # Ruling 2.4.1: the Sabacc pot goes with the main pot, and only to a hand totalling zero.
        self._pay_sabacc_pot([s for s in main_winners if self.scores[s].is_sabacc])
        self._end()

    def _pay_sabacc_pot(self, winners: list[int]) -> None:
        amount = self.sabacc_in + sum(self.sabacc_antes.values())
        paid: dict[int, int] = {}
        left = amount
        if winners and amount:
            paid, left = split(amount, winners, self.odd_credits)
            for seat, share in paid.items():
                self._stacks[seat] += share
                self._log.append(new_record("sabacc_award", seat, share))
        self.sabacc_award = {"amount": amount, "winners": list(winners), "paid": paid, "carry_over": left}
        self.pools_out = {"sabacc_pot": left}

    def _pay(self, pot: Pot, winners: list[int], paid: dict[int, int]) -> None:
        for seat, amount in paid.items():
            self._stacks[seat] += amount
            self._log.append(new_record("award", seat, amount))
        self.awards.append({"amount": pot.amount, "eligible": list(pot.eligible), "winners": winners, "paid": paid})

    def _end(self) -> None:
        self._final_cards = {s: list(self._cards[s]) for s in self.scores}
        for seat in self.seats:
            # Hands go aside face down: a face-up discard pile must not show a hand nobody showed.
            self._aside += self._cards[seat]
            self._cards[seat] = []
        self.contributions = dict.fromkeys(self.seats, 0)
        self.card_costs_paid = dict(self.card_costs)
        self.card_costs = dict.fromkeys(self.seats, 0)
        self.carry_in = 0
        self.phase = "complete"
        self.round = None
        self._pending = []
        self._log.append(new_record("end"))

    def showdown_cards(self) -> dict[int, list[Card]]:
        return dict(self._final_cards) if self.is_complete else {}

    # ----- what the views and results show ---------------------------------------------------

    def summary(self, game) -> dict:
        """The hand as a replay result shows it (docs/replay.md, Corellian Spike)."""
        names = game.names
        complete = self.is_complete
        costs = self.card_costs_paid if complete else self.card_costs
        summary: dict = {
            "number": self.number,
            "dealer": names[self.dealer],
            "forced": {names[s]: a for s, a in self.forced.items() if a},
            "sabacc_antes": {names[s]: a for s, a in self.sabacc_antes.items() if a},
            "card_costs": {names[s]: a for s, a in costs.items() if a},
            "showdown": {},
            "folded": [names[s] for s in self.seats if s in self.folded],
            "pots": [],
            "carry_over": self.carry_out,
        }
        if complete:
            cards = self.showdown_cards()
            for seat in self.seats:
                if seat in self.scores:
                    summary["showdown"][names[seat]] = {"cards": codes(cards[seat]), **self.scores[seat].to_dict()}
            for award in self.awards:
                summary["pots"].append(
                    {
                        "amount": award["amount"],
                        "eligible": [names[s] for s in award["eligible"]],
                        "winners": [names[s] for s in award["winners"]],
                        "paid": {names[s]: a for s, a in award["paid"].items()},
                    }
                )
            award = self.sabacc_award
            summary["sabacc_pot"] = {
                "amount": award["amount"],
                "winners": [names[s] for s in award["winners"]],
                "paid": {names[s]: a for s, a in award["paid"].items()},
                "carry_over": award["carry_over"],
            }
        else:
            for pot in self.pots():
                eligible = [names[s] for s in pot.eligible]
                summary["pots"].append({"amount": pot.amount, "eligible": eligible, "winners": [], "paid": {}})
            amount = self.sabacc_pot()
            summary["sabacc_pot"] = {"amount": amount, "winners": [], "paid": {}, "carry_over": amount}
        summary["stacks"] = {name: game.stacks[s] for s, name in enumerate(names)}
        return summary

    def add_public_hand(self, data: dict) -> None:
        """What everyone sees, added to `data`: the round, the market and its prices, the top of a face-up discard
        pile, how many cards are discarded, the Sabacc pot, the face-up cards taken and their prices, and the spike
        roll once it is rolled (each seat's prices paid are in its row of the view)."""
        opts = self.options
        face_up = opts.market == "discard_pile"
        data["round"] = self.round_number
        data["market"] = [
            {"position": POSITIONS[i], "card": card.code, "price": opts.market_prices[i]}
            for i, card in enumerate(self._market)
        ]
        data["discard_top"] = self._discard[-1].code if face_up and self._discard else None
        data["discard_count"] = len(self._discard)
        data["discard_face_up"] = face_up
        # After the reveal: what the Sabacc pot keeps for the next hand.
        data["sabacc_pot"] = self.pools_out.get("sabacc_pot", 0) if self.is_complete else self.sabacc_pot()
        data["purchases"] = [dict(p) for p in self.purchases] if self.purchases else []
        data["spike_dice"] = [self.dice.first, self.dice.second] if self.rolled and self.dice is not None else None

    def add_public_seats(self, rows: list[dict], viewer: int | None) -> None:
        """Each seat's public fields, added to its row (`rows[seat]`)."""
        costs = self.card_costs_paid if self.is_complete else self.card_costs
        held, acted = self._cards, self.acted
        for seat in self.seats:
            row = rows[seat]
            row["cards_held"] = len(held[seat])
            row["selection_size"] = 0
            row["has_acted"] = seat in acted
            row["card_costs"] = costs.get(seat, 0)

    def private_view(self, seat: int) -> dict:
        return {"cards": codes(self._cards.get(seat, ())), "selection": []}
