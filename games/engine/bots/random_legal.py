"""The random bot: a uniformly random legal decision, for tests, simulations and benchmarks."""

import random

from games.engine.bots.base import Decision, RandomBotBase, new_decision, pick_verb
from games.engine.draws import choice, randint
from games.engine.variant import get_variant

# Each variant's random choice, looked up once (the bot decides on every decision of the benchmarks' games).
_CHOOSERS: dict = {}


class RandomBot(RandomBotBase):
    """Picks a legal verb uniformly; a random subset for select, a random legal amount for bet and raise."""

    def decide(self, view: dict) -> Decision:
        name = view.get("variant")
        decide = _CHOOSERS.get(name)
        if decide is None:
            # A variant with decisions of its own (Classic's locks and calls of the hand) brings its random choice.
            own = None if name is None else get_variant(name).random_decision
            decide = _CHOOSERS[name] = own or random_decision
        return decide(view["legal"], self.rng)


def random_decision(legal: dict, rng: random.Random) -> Decision:
    """A uniformly random decision among those `legal` (a `LegalActions.to_dict()`) allows."""
    verb = pick_verb(legal, rng)
    if verb == "select":
        return new_decision("select", cards=tuple(card for card in legal["selectable"] if rng.random() < 0.5))
    if verb == "bet":
        return new_decision("bet", amount=randint(rng, legal["min_bet"], legal["max_bet"]))
    if verb == "raise":
        return new_decision("raise", amount=randint(rng, legal["min_raise_to"], legal["max_raise_to"]))
    if verb == "trade":
        return new_decision("trade", card=choice(rng, legal["cards"]), source=choice(rng, sorted(legal["trade_from"])))
    if verb == "buy":
        return new_decision("buy", source=choice(rng, sorted(legal["buy_from"])))
    if verb == "spike":
        return new_decision("spike", card=choice(rng, legal["cards"]))
    return new_decision(verb)
