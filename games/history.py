"""A game's hand history as the table saw it: every hand, action by action, from its replay document.

The replay document fixes the deck order and the dice, so it is never served. This module plays it through
the engine's public operations and keeps, after each step, only the spectator's view (stacks, bets, pots,
phase, whose turn) and a line of text; the cards that appear are the selections shown at the reveal. A
folded hand is never shown, a selection's cards are not named when it is made, and seeds and commitments
are dropped.
"""

import random
from typing import Any

from games.engine import EngineError, Game, build_options, parse_card
from games.engine.cards import full_deck
from games.engine.dice import parse_dice

SUPPORTED_FORMATS = ("sabacc-replay/1",)
VERBS = {
    "check": "checks",
    "call": "calls",
    "fold": "folds",
    "allin": "goes all in",
}
PHASE_NAMES = {
    "select": "select",
    "improve": "improve",
    "bet": "betting",
    "complete": "hand over",
}


class HistoryError(ValueError):
    """The stored replay cannot be turned into a history (a format this page does not read, or a bad step)."""


def public_history(document: dict[str, Any]) -> dict[str, Any]:
    """{"players": [...], "hands": [{"number", "steps": [{"text", "table"}], "result"}]} from a replay document."""
    if not isinstance(document, dict) or document.get("format") not in SUPPORTED_FORMATS:
        found = document.get("format") if isinstance(document, dict) else None
        raise HistoryError(f"Hand histories read {', '.join(SUPPORTED_FORMATS)} replays; this one is {found!r}.")
    game = _new_game(document)
    hands = []
    for number, hand in enumerate(document.get("hands") or [], start=1):
        hands.append(_play_hand(game, number, hand, document.get("seed", 0)))
    return {"players": list(game.names), "hands": hands}


def _new_game(document: dict[str, Any]) -> Game:
    variant = document.get("variant", "coruscant_shift")
    preset = document.get("preset")
    seats = document.get("seats") or []
    names = [seat.get("player") for seat in seats]
    try:
        options = build_options(variant, preset, document.get("options") or {})
        players = [(seat["player"], seat.get("stack", options.starting_stack)) for seat in seats]
        dealer = document.get("dealer")
        seed = document.get("seed", 0)
        return Game.new(
            options=options,
            players=players,
            dealer=None if dealer is None else names.index(dealer),
            rng=random.Random(f"sabacc-replay/{seed}"),
            variant=variant,
            preset=preset,
        )
    except (EngineError, KeyError, ValueError, TypeError) as exc:
        raise HistoryError(f"The replay's table cannot be set up: {exc}") from None


def _deck(number: int, listed: list | None, seed: Any) -> list:
    """The hand's deck as the replay format defines it: the listed cards, then the rest in a seeded order."""
    cards = [parse_card(code) for code in listed or []]
    rest = full_deck()
    for card in cards:
        rest.remove(card)
    random.Random(f"sabacc-replay/{seed}/hand/{number}").shuffle(rest)
    return cards + rest


def _play_hand(game: Game, number: int, hand: dict[str, Any], seed: Any) -> dict[str, Any]:
    try:
        game.start_hand(deck=_deck(number, hand.get("deck"), seed), dice=parse_dice(hand["dice"]))
    except (EngineError, KeyError, ValueError, TypeError) as exc:
        raise HistoryError(f"Hand {number} cannot start: {exc}") from None
    view = game.spectator_view()
    dealer = game.names[view["hand"]["dealer"]]
    steps = [
        _step(game, f"{dealer} deals. The dice: target {_signed(view['hand']['target'])}, suit {view['hand']['suit']}.")
    ]
    forced = {row["name"]: row["contributed"] for row in view["players"] if row.get("contributed")}
    if forced:
        paid = ", ".join(f"{name} {amount:,}" for name, amount in forced.items())
        steps.append(_step(game, f"Forced bets: {paid}."))
    for index, action in enumerate(hand.get("actions") or [], start=1):
        steps.append(_apply(game, number, index, action))
    result = None
    final = game.spectator_view()["hand"]
    if final and final.get("result") and final["phase"] == "complete":
        result = _public_result(final["result"])
        steps.append(_step(game, _result_text(result)))
    return {"number": number, "dealer": dealer, "steps": steps, "result": result}


def _apply(game: Game, number: int, index: int, action: dict[str, Any]) -> dict[str, Any]:
    player, verb = action.get("player"), action.get("do")
    try:
        seat = game.names.index(player)
        if verb == "select":
            phase = game.spectator_view()["hand"]["phase"]
            game.select(seat, action.get("cards") or [])
            text = f"{player} {'chooses what to keep' if phase == 'improve' else 'makes a selection'}."
        elif verb == "bet":
            game.bet(seat, action["amount"])
            text = f"{player} bets {action['amount']:,}."
        elif verb == "raise":
            game.raise_to(seat, action["to"])
            text = f"{player} raises to {action['to']:,}."
        elif verb == "allin":
            game.all_in(seat)
            text = f"{player} goes all in."
        elif verb in VERBS:
            getattr(game, verb)(seat)
            text = f"{player} {VERBS[verb]}."
        else:
            raise HistoryError(f"Hand {number}, action {index}: unknown action {verb!r}.")
    except (EngineError, KeyError, ValueError, TypeError) as exc:
        raise HistoryError(f"Hand {number}, action {index} ({player} {verb}): {exc}") from None
    return _step(game, text)


def _step(game: Game, text: str) -> dict[str, Any]:
    """The table after a step: what every spectator saw, without seeds, commitments or selection sizes."""
    view = game.spectator_view()
    hand = view.get("hand") or {}
    in_play = hand.get("phase") not in (None, "complete")
    to_act = [game.names[seat] for seat in view.get("waiting_for") or []]
    players = [
        {
            "name": row["name"],
            "stack": row["stack"],
            "bet": row.get("bet", 0) if in_play else 0,
            "in_pot": row.get("contributed", 0),
            "folded": bool(row.get("folded")),
            "all_in": bool(row.get("all_in")),
            "out": bool(row.get("out")),
            "to_act": row["name"] in to_act,
        }
        for row in view["players"]
    ]
    return {
        "text": text,
        "phase": PHASE_NAMES.get(hand.get("phase"), hand.get("phase") or ""),
        "pots": [pot["amount"] for pot in hand.get("pots") or []],
        "players": players,
    }


def _public_result(result: dict[str, Any]) -> dict[str, Any]:
    """The hand's result as revealed at the table: the showdown of the players still in, the pots, stacks."""
    folded = set(result.get("folded") or [])
    showdown = {
        name: {"cards": shown.get("cards", []), **{k: v for k, v in shown.items() if k != "cards"}}
        for name, shown in (result.get("showdown") or {}).items()
        if name not in folded
    }
    pots = [
        {"amount": pot["amount"], "winners": list(pot.get("winners") or []), "paid": dict(pot.get("paid") or {})}
        for pot in result.get("pots") or []
    ]
    return {
        "target": result.get("target"),
        "suit": result.get("suit"),
        "folded": sorted(folded),
        "showdown": showdown,
        "pots": pots,
        "stacks": dict(result.get("stacks") or {}),
    }


def _result_text(result: dict[str, Any]) -> str:
    parts = []
    for pot in result["pots"]:
        winners = " and ".join(pot["winners"]) or "nobody"
        parts.append(f"{winners} {'win' if len(pot['winners']) > 1 else 'wins'} {pot['amount']:,}")
    return "Reveal: " + ("; ".join(parts) if parts else "no pot") + "."


def _signed(number: int) -> str:
    return f"{number:+d}" if number else "0"
