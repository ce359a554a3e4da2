"""Play a game with the deck (random legal bots), and the same game at a real table in step: the same actions,
the rolls the deck's game made, and at the reveal the cards its players held (tie-break cards too)."""

import random

from games.engine import Game
from games.engine.bots.base import apply_decision
from games.engine.bots.random_legal import RandomBot
from games.engine.realcards.due import due
from games.engine.realcards.game import RealCardsGame
from games.engine.variant_options import build_options


def table_step(variant: str, seat: int, decision) -> dict:
    """A bot's decision as the table enters it: counts and sources, never a card."""
    step = {"step": "act", "seat": seat, "verb": decision.verb}
    verb = decision.verb
    if verb == "select":
        step["count"] = len(decision.cards)
    elif verb in ("trade", "buy") and decision.source is not None:
        step["source"] = decision.source
    if verb in ("bet", "raise"):
        step["amount"] = decision.amount
    if variant == "classic":
        if verb in ("draw", "trade", "stand"):
            step["unlock"] = decision.unlock is not None
            step["lock"] = decision.lock is not None
        elif decision.call_hand:
            step["call_hand"] = True
    return step


def held(variant: str, hand, seat: int) -> list:
    if variant == "coruscant_shift":
        return list(hand._selection[seat])
    if variant == "classic":
        return list(hand._hand[seat]) + list(hand._field[seat])
    return list(hand._cards[seat])


def tie_cards(variant: str, hand) -> list:
    """The cards the deck's hand turned over after the reveal, in order (tie draws, Sudden Demise cards)."""
    kinds = {"tie_draw", "sudden_demise"}
    return [card for record in hand._log if record.kind in kinds for card in record.cards]


def play_twins(
    variant: str,
    preset: str,
    seed: int,
    players: int = 3,
    max_hands: int = 6,
    stack: int = 30,
    name_winners=False,
    undo_rate: float = 0.0,
):
    """Yield (the deck's game, the real-cards game) after each hand. With `undo_rate`, that share of the real
    steps is taken back and taken again at once (a mis-tap corrected by the same tap)."""
    rng = random.Random(seed)
    options = build_options(variant, preset, {"hands": max_hands} if "hands" in _option_names(variant) else {})
    names = [(f"P{i}", stack) for i in range(players)]
    online = Game.new(options=options, players=names, dealer=0, rng=random.Random(seed), variant=variant, preset=preset)
    setup = {
        "variant": variant,
        "preset": preset,
        "options": options.to_dict(),
        "players": [list(p) for p in names],
        "dealer": 0,
    }
    real = RealCardsGame(setup, master="0" * 32)
    if undo_rate:
        real = _Retaking(real, random.Random(seed + 1), undo_rate)
    bots = {s: RandomBot(random.Random(rng.random())) for s in range(players)}
    hands = 0
    while not online.over and online.can_start_hand() and hands < max_hands:
        hands += 1
        online.start_hand()
        real.step({"step": "deal"})
        hand = online.hand
        last_held: dict[int, list] = {}
        rolls_used = 0
        extra = None
        for _ in range(2000):
            d = due(real)
            if d["due"] == "act":
                assert not hand.is_complete
                assert d["seats"] == online.waiting_for()
                seat = d["seats"][0]
                last_held = {s: held(variant, hand, s) for s in hand.seats if s not in hand.folded}
                decision = bots[seat].decide(online.view_for(seat))
                apply_decision(online, seat, decision)
                real.step(table_step(variant, seat, decision))
            elif d["due"] == "dice":
                real.step({"step": "dice", "dice": _dice(variant, hand, rolls_used)})
                rolls_used += 1
            elif d["due"] == "reveal" and name_winners:
                assert hand.is_complete
                for step in _named(hand, d):
                    real.step(step)
            elif d["due"] == "reveal":
                assert hand.is_complete
                shown = _shown(variant, hand, last_held)
                for row in d["seats"]:
                    real.step({"step": "reveal", "seat": row["seat"], "cards": [c.code for c in shown[row["seat"]]]})
            elif d["due"] == "card":
                if extra is None:
                    extra = tie_cards(variant, hand)
                real.step({"step": "card", "card": extra.pop(0).code})
            else:
                break
        assert hand.is_complete
        yield online, real


def _option_names(variant: str) -> set:
    from games.engine.variant import get_variant

    return {f for f in get_variant(variant).options_class.__dataclass_fields__}


def _dice(variant: str, hand, used: int):
    if variant == "coruscant_shift":
        return hand.dice.to_dict()
    if variant == "classic":
        return list(hand.rolls[used])
    return hand.dice.to_list()


def _shown(variant: str, hand, last_held: dict) -> dict:
    if variant == "coruscant_shift":
        return hand.showdown_cards()
    if variant == "classic":
        # Each hand as shown, its field included, before any Sudden Demise card.
        shown = {s: list(cards) for s, (cards, _field) in hand.revealed_cards.items()}
        return {**last_held, **shown}
    return {**last_held, **hand.showdown_cards()}


def _named(hand, due: dict) -> list[dict]:
    """The winners the deck's hand paid, named pot by pot (then the Sabacc pot, where there is one)."""
    steps = [
        {"step": "winners", "pot": row["pot"], "seats": list(hand.awards[row["pot"]]["winners"])}
        for row in due["or_name_winners"]
    ]
    award = getattr(hand, "sabacc_award", None)
    if award is not None:
        steps.append({"step": "winners", "pot": "sabacc", "seats": list(award["winners"])})
    return steps


class _Retaking:
    """A real-cards game whose steps are now and then undone and taken again."""

    def __init__(self, game: RealCardsGame, rng: random.Random, rate: float) -> None:
        self.__dict__["_game"], self.__dict__["_rng"], self.__dict__["_rate"] = game, rng, rate

    def step(self, step: dict) -> None:
        self._game.step(step)
        if self._rng.random() < self._rate:
            taken = self._game.undo()
            self._game.step(taken)

    def __getattr__(self, name: str):
        return getattr(self._game, name)
