"""The sensible bot's Corellian Spike play, from its seat's view only.

Cards: it values a hand against the special-hand hierarchy (RULES 2.3) and looks at every move whose
result it can see (standing, buying or trading for a face-up card, each at its price); a move onto the
draw pile is worth the average over the cards it cannot see. It takes the move of highest worth, so it
buys a market card when that improves its hand by more than the price. Spikes give up the card whose
loss hurts least. Betting: special hands bet and raise, a plain Sabacc bets, a Nulrhek close to zero
checks and calls small bets, anything else checks or folds.
"""

import random
from collections import Counter
from functools import cache

from games.engine.bots.base import Decision
from games.engine.bots.betting import first, open_betting, raise_by, read_table
from games.engine.cards import CARDS, FULL_DECK, Card, parse_card
from games.engine.spike.evaluation import RANKS, evaluate

# What a hand is worth on one scale: a Sabacc from 60 up (special hands higher), a Nulrhek below.
SABACC_WORTH = 60.0
# A credit spent on a card is worth this much of hand worth.
CREDIT_WORTH = 1.5
# Share of its credits (stack + already in this hand) the bot commits, by what it holds.
COMMITMENT = {"special": 0.8, "sabacc": 0.45, "near": 0.12, "far": 0.0}


@cache
def _worth(key: tuple[int, ...]) -> float:
    cards = [CARDS[i] for i in key]
    score = evaluate(cards)
    if score.total == 0:
        # Rank 1 (Pure Sabacc) is worth most; the tie-breakers nudge within a name.
        return SABACC_WORTH + 3.0 * (len(RANKS) - RANKS[score.name]) + score.size * 0.3 + score.positive_total * 0.02
    return 40.0 - 6.0 * abs(score.total) + (0.5 if score.total > 0 else 0.0) + score.size * 0.2


def worth(cards: list[Card]) -> float:
    """The worth of a hand at the reveal (larger is better)."""
    return _worth(tuple(sorted(card.index for card in cards)))


def _unseen(view: dict) -> list[Card]:
    """The cards the seat cannot see: the deck less its own hand, the market and a face-up discard top."""
    left = Counter(FULL_DECK)
    seen = [parse_card(c) for c in view["cards"]]
    hand = view["hand"]
    seen += [parse_card(m["card"]) for m in hand.get("market", [])]
    if hand.get("discard_top"):
        seen.append(parse_card(hand["discard_top"]))
    for card in seen:
        if left[card]:
            left[card] -= 1
    return list(left.elements())


def _draw_worth(cards: list[Card], unseen: list[Card], rng: random.Random) -> float:
    sample = unseen if len(unseen) <= 24 else rng.sample(unseen, 24)
    return sum(worth([*cards, card]) for card in sample) / max(1, len(sample))


def card_turn(view: dict, rng: random.Random) -> Decision:
    legal = view["legal"]
    verbs = legal["verbs"]
    cards = [parse_card(c) for c in view["cards"]]
    hand = view["hand"]
    face_up = {m["position"]: parse_card(m["card"]) for m in hand.get("market", [])}
    if hand.get("discard_top"):
        face_up["discard"] = parse_card(hand["discard_top"])
    unseen = _unseen(view)
    options: list[tuple[float, Decision]] = [(worth(cards), Decision("stand"))]
    if "draw" in verbs and len(cards) < 5:
        options.append((_draw_worth(cards, unseen, rng) - CREDIT_WORTH * legal["draw_cost"], Decision("draw")))
    for source, price in legal.get("buy_from", {}).items():
        if source in face_up and len(cards) < 5:
            options.append((worth([*cards, face_up[source]]) - CREDIT_WORTH * price, Decision("buy", source=source)))
    for source, price in legal.get("trade_from", {}).items():
        for given in set(cards):
            rest = list(cards)
            rest.remove(given)
            if source == "deck":
                value = _draw_worth(rest, unseen, rng)
            elif source in face_up:
                value = worth([*rest, face_up[source]])
            else:
                continue
            options.append((value - CREDIT_WORTH * price, Decision("trade", card=given.code, source=source)))
    best = max(value for value, _ in options)
    return next(decision for value, decision in options if value == best)


def spike(view: dict, rng: random.Random) -> Decision:
    """Give up the card whose loss leaves the best hand once the replacement comes (on average)."""
    cards = [parse_card(c) for c in view["cards"]]
    unseen = _unseen(view)
    best_card, best_value = cards[0], float("-inf")
    for given in set(cards):
        rest = list(cards)
        rest.remove(given)
        value = _draw_worth(rest, unseen, rng)
        if value > best_value:
            best_card, best_value = given, value
    return Decision("spike", card=best_card.code)


def strength(view: dict) -> str:
    score = evaluate([parse_card(c) for c in view["cards"]])
    if score.total == 0:
        return "special" if RANKS[score.name] <= 11 else "sabacc"
    return "near" if abs(score.total) <= 2 else "far"


# Rough chance that a hand of this kind wins at the reveal (round 3); earlier rounds lean toward even.
WIN_CHANCE = {"special": 0.9, "sabacc": 0.7, "near": 0.35, "far": 0.1}


def bet(view: dict, rng: random.Random, bluff: float) -> Decision:
    """Bet by the hand's kind, and call when the chance of winning pays for the call (pot odds)."""
    legal = view["legal"]
    verbs = legal["verbs"]
    me, opponents, pot, min_bet, facing, free = read_table(view, legal)
    kind = strength(view)
    round_number = view["hand"].get("round", 3)
    # More opponents, fewer wins; cards still to come pull every hand toward an even chance.
    chance = WIN_CHANCE[kind] ** max(1, opponents) ** 0.5
    chance = chance + (0.5 - chance) * (3 - round_number) / 4
    worth_now = me["stack"] + me.get("contributed", 0)
    room = COMMITMENT[kind] * (0.5 + round_number / 6) * worth_now - me.get("contributed", 0)
    if free:
        if kind in ("special", "sabacc") and ("bet" in verbs or "raise" in verbs):
            return open_betting(legal, min_bet, min(pot * (0.5 if kind == "sabacc" else 0.9), max(room, min_bet)))
        if kind == "far" and round_number == 3 and rng.random() < bluff:
            return open_betting(legal, min_bet, pot * 0.3)
        return Decision("check")
    if chance * (pot + facing) < facing:
        return Decision("fold")
    if kind == "special" and "raise" in verbs and rng.random() < 0.6:
        return raise_by(legal, room)
    return first(verbs, "call", "allin", "fold")


def decide(view: dict, rng: random.Random, bluff: float) -> Decision:
    legal = view["legal"]
    verbs = legal["verbs"]
    if not verbs:
        raise ValueError(f"Seat {legal['seat']} has no decision to make in phase {legal['phase']}.")
    if "spike" in verbs:
        return spike(view, rng)
    if "stand" in verbs:
        return card_turn(view, rng)
    return bet(view, rng, bluff)
