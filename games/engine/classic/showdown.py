"""The end of a Classic hand: a fold-out, the reveal with its penalties and Sudden Demise, the pots and the
Sabacc pot paid (`settle`), and the hand as the replay result shows it. `ClassicHand` takes these steps from
`ClassicShowdown`.
"""

from games.engine.classic.actions import _canonical
from games.engine.classic.cards import codes
from games.engine.classic.plays import ClassicPlays
from games.engine.classic.ranking import evaluate
from games.engine.classic.settle import decide, share
from games.engine.pots import Pot
from games.engine.records import new_record


class ClassicShowdown(ClassicPlays):
    """The showdown and results of `ClassicHand` (which holds the fields they read and write)."""

    # No fields of its own: `ClassicHand`'s slots hold them all.
    __slots__ = ()

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
