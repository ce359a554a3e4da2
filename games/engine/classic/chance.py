"""Where a Classic hand's chance comes from: its deck, every roll of the dice and every new draw pile.

A live hand draws all three from its hand seed (RULES 1.7 and 3.7: the seed fixes the deck, every roll
and every new pile). A replayed or stacked hand is given its deck and lists its rolls and the top of its
new piles; the rest of a pile follows the seeded order (`order.py`), so the document fixes everything.
"""

from collections import Counter
from dataclasses import dataclass

from games.engine.classic.cards import ClassicCard, canonical, canonical_pile, codes, encode_cards, full_deck
from games.engine.classic.dice import Roll, roll_dice
from games.engine.classic.order import complete_pile, pile_label
from games.engine.errors import MissingReshuffle
from games.engine.shuffle import deck_from_seed, reshuffle_rng
from games.engine.twister import Twister


@dataclass(frozen=True, slots=True)
class RollSpec:
    """What fixes the chance of a hand whose deck is given: the listed rolls (None: rolled from the deck) and
    the whole-number seed of the seeded order for unlisted pile cards (a replay document's `seed`)."""

    rolls: tuple[Roll, ...] | None = None
    order_seed: int = 0

    def encode(self) -> str:
        rolls = "*" if self.rolls is None else "".join(f"{a}{b}" for a, b in self.rolls)
        return f"{self.order_seed}:{rolls}"

    @classmethod
    def decode(cls, text: str) -> "RollSpec":
        seed, rolls = text.split(":")
        listed = None if rolls == "*" else tuple((int(rolls[i]), int(rolls[i + 1])) for i in range(0, len(rolls), 2))
        return cls(rolls=listed, order_seed=int(seed))


class SeededChance:
    """Everything from the hand seed: `random.Random(seed)` shuffles the deck, `<seed>/dice` rolls the dice
    and `<seed>/reshuffle/<j>` shuffles new pile j (its cards taken in canonical order first)."""

    listed = False

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self._dice = Twister(f"{seed}/dice")

    def deck(self) -> list[ClassicCard]:
        return deck_from_seed(self.seed, full_deck())

    def next_roll(self) -> Roll | None:
        draw = self._dice.random  # `roll_dice(self._dice)`, inlined: a hand rolls after every play turn
        return (1 + int(6 * draw()), 1 + int(6 * draw()))

    def new_pile(self, pool: list[ClassicCard], number: int, what: str) -> list[ClassicCard]:
        pile = canonical_pile(pool)
        reshuffle_rng(self.seed, number).shuffle(pile)
        return pile


class ListedChance:
    """A given deck with listed rolls and piles (replays, tests, saved stacked hands).

    `rolls` None means the rolls follow from the deck itself (a stacked hand without dice); a list is used
    up in order, and a roll due after it returns None (the replay stops there). `piles` lists the top of
    each new pile; the rest, and every pile past the list, follow the seeded order of `order_seed`.
    """

    listed = True

    def __init__(
        self,
        deck: list[ClassicCard],
        rolls: list[Roll] | None,
        piles: list[list[ClassicCard]] | None,
        *,
        hand: int,
        order_seed: int = 0,
    ) -> None:
        self._deck = list(deck)
        self.rolls = None if rolls is None else list(rolls)
        self._generator = Twister(f"{encode_cards(deck)}/dice") if rolls is None else None
        self.used = 0
        self.piles = [list(p) for p in piles or []]
        self.hand = hand
        self.order_seed = order_seed

    def deck(self) -> list[ClassicCard]:
        return list(self._deck)

    def next_roll(self) -> Roll | None:
        if self._generator is not None:
            return roll_dice(self._generator)
        if self.used >= len(self.rolls):
            return None
        self.used += 1
        return self.rolls[self.used - 1]

    def new_pile(self, pool: list[ClassicCard], number: int, what: str) -> list[ClassicCard]:
        listed = self.piles[number - 1] if number <= len(self.piles) else []
        missing = Counter(listed) - Counter(pool)
        if missing:
            where = "a card in no interference field" if what == "shift" else "a card of the discard pile"
            raise MissingReshuffle(
                f"reshuffles entry {number} lists {', '.join(codes(canonical(missing.elements())))}, which "
                f"{'is' if sum(missing.values()) == 1 else 'are'} not in the new pile; a {what} pile holds only "
                f"{where}."
            )
        return complete_pile(listed, pool, self.order_seed, pile_label(self.hand, number))
