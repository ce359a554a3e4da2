"""What every variant's hand class shares: the plain queries on its state and the pots derived from its
contributions. A variant's hand derives from `HandBase` and says only which credits besides the bets join the
main pot (`dead_money`)."""

from games.engine.pots import Pot, side_pots


class HandBase:
    """The shared queries of a hand (`phase`, `seats`, `folded`, `contributions`, `_live`, `_stacks`, `_pots` and
    `_pots_key` are the hand class's own fields)."""

    # No fields of its own: each hand class keeps its fields (in slots or not).
    __slots__ = ()

    @property
    def is_complete(self) -> bool:
        return self.phase == "complete"

    @property
    def live(self) -> list[int]:
        """Seats still in the hand (not folded), clockwise from the dealer's left."""
        return list(self._live)

    @property
    def seed(self) -> None:
        """Always None: hand seeds are revealed only when the game ends (RULES 1.7), by `Game.revealed_seeds()`."""
        return None

    def is_all_in(self, seat: int) -> bool:
        return seat in self.seats and seat not in self.folded and self._stacks[seat] == 0

    def dead_money(self) -> int:
        """Credits in the main pot besides the bets (a carry-over, card prices); none by default."""
        return 0

    def pots(self) -> list[Pot]:
        # Pots follow from contributions, folds (which only grow) and the dead money alone: worked out again only
        # when one of them changes.
        extra = self.dead_money()
        key = (tuple(self.contributions.values()), len(self.folded), extra)
        if key != self._pots_key:
            self._pots = side_pots(self.contributions, self.folded, extra)
            self._pots_key = key
        return list(self._pots)
