"""A game's hand history as the table saw it: every hand, action by action, from its replay document.

The replay document fixes the deck order and the dice, so it is never served. This module plays it
through the engine (`replay_game` with its step hooks) and keeps, after each step, only the spectator's
view (stacks, bets, pots, phase, whose turn) and a line of text; the cards that appear are the
selections shown at the reveal. A folded hand is never shown, a selection's cards are not named when it
is made, and seeds and commitments are dropped.
"""

from typing import Any

from games.engine import EngineError, Game
from games.engine.classic.ranking import HAND_TITLES as CLASSIC_TITLES
from games.engine.replay import replay_game
from games.engine.spike.evaluation import HAND_TITLES
from games.words import card_name, cards_words

VERBS = {
    "check": "checks",
    "call": "calls",
    "fold": "folds",
    "allin": "goes all in",
    "stand": "stands",
    "draw": "draws a card",
}
PHASE_NAMES = {
    "select": "select",
    "improve": "improve",
    "bet": "betting",
    "complete": "hand over",
}


class HistoryError(ValueError):
    """The stored replay cannot be turned into a history (the engine refused it); the message says why."""


def public_history(document: dict[str, Any]) -> dict[str, Any]:
    """{"players": [...], "hands": [{"number", "dealer", "steps": [{"text", ...}], "result"}]} from a replay
    document of either version, played by the engine (`replay_game`) with a step hook."""
    hands: list[dict[str, Any]] = []

    shifts_told = [0]

    def on_step(game: Game, number: int, index: int, action: dict | None) -> None:
        if index == 0:
            hands.append(_hand_start(game, number))
            shifts_told[0] = 0
        else:
            phase = hands[-1]["steps"][-1]["phase"]  # the phase the action was made in
            hands[-1]["steps"].append(_step(game, _action_text(action, phase)))
        # Classic Sabacc: each pair of dice since the last step set off a Sabacc Shift, told as it happened.
        hand = game.hand
        shifts = list(getattr(hand, "shifts", None) or [])
        for roll in shifts[shifts_told[0] :]:
            a, b = hand.rolls[roll - 1]
            hands[-1]["steps"].append(
                _step(game, f"The dice show {a}-{b}: a Sabacc Shift redeals every unlocked card.")
            )
        shifts_told[0] = len(shifts)

    def on_hand_end(game: Game, hand: Any, listed: Any) -> None:
        final = game.spectator_view()["hand"] or {}
        if final.get("result") and final.get("phase") == "complete":
            result = _public_result(final["result"])
            hands[-1]["result"] = result
            hands[-1]["steps"].append(_step(game, _result_text(result)))

    if not isinstance(document, dict):
        raise HistoryError("A replay is a JSON object; this one is not.")
    try:
        game = replay_game(document, on_step=on_step, on_hand_end=on_hand_end)
    except (EngineError, KeyError, ValueError, TypeError) as exc:
        raise HistoryError(str(exc)) from None
    if game.over and game.leftovers_paid and hands:
        # Paid when the last hand ended (its result says so) or when the table closed after it.
        paid = {game.names[s]: amount for s, amount in game.leftovers_paid.items()}
        result = hands[-1]["result"] or {}
        if leftovers_note(paid) not in result.get("notes", []):
            hands[-1]["steps"].append(_step(game, leftovers_note(paid)))
    return {"players": list(game.names), "hands": hands}


def _hand_start(game: Game, number: int) -> dict[str, Any]:
    view = game.spectator_view()
    dealer = game.names[view["hand"]["dealer"]]
    if "target" in view["hand"]:
        target, suit = view["hand"]["target"], view["hand"]["suit"]
        steps = [_step(game, f"{dealer} deals. The dice: target {_signed(target)}, suit {suit}.")]
    elif view["hand"].get("variant") == "classic":  # Classic Sabacc: two cards each, nothing face up
        steps = [_step(game, f"{dealer} deals two cards each.")]
    else:  # Corellian Spike: two cards each, and the first face-up card
        face_up = [m["card"] for m in view["hand"].get("market", [])] or [view["hand"].get("discard_top")]
        where = "the Pilot" if view["hand"].get("market") else "the discard pile"
        face_up_name = card_name(face_up[0], "corellian_spike")
        steps = [_step(game, f"{dealer} deals two cards each; {face_up_name} is turned up as {where}.")]
    forced = {row["name"]: row["contributed"] for row in view["players"] if row.get("contributed")}
    if forced:
        paid = ", ".join(f"{name} {amount:,}" for name, amount in forced.items())
        steps.append(_step(game, f"Forced bets: {paid}."))
    return {"number": number, "dealer": dealer, "steps": steps, "result": None}


def _action_text(action: dict[str, Any], phase: str) -> str:
    """What the table saw a player do: a selection is made, its cards are not named."""
    player, verb = action.get("player"), action.get("do")
    if action.get("call_hand") and verb not in ("draw", "trade", "stand"):  # Classic: a bet that calls the hand
        return _action_text({k: v for k, v in action.items() if k != "call_hand"}, phase)[:-1] + " and calls the hand."
    if verb == "select":
        return f"{player} {'chooses what to keep' if phase == 'improve' else 'makes a selection'}."
    if verb == "bet":
        return f"{player} bets {action.get('amount', 0):,}."
    if verb == "raise":
        return f"{player} raises to {action.get('to', 0):,}."
    if verb in ("draw", "trade", "stand") and "from" not in action and verb != "buy":
        # Classic Sabacc: the card given up goes face down; field cards are public, so locks are named.
        text = f"{player} {VERBS[verb] if verb != 'trade' else 'trades a card with the draw pile'}"
        if action.get("unlock"):
            text += f", unlocks {card_name(action['unlock'], 'classic')}"
        if action.get("lock"):
            text += f", locks {card_name(action['lock'], 'classic')}"
        return text + (", and calls the hand." if action.get("call_hand") else ".")
    if verb in ("trade", "buy"):
        # A face-up card taken is public; a card given up face down, or one drawn unseen, is not named.
        source = action.get("from")
        where = "the draw pile" if source == "deck" else f"the {source}"
        return f"{player} {'trades a card for one from' if verb == 'trade' else 'buys from'} {where}."
    if verb == "spike":
        return f"{player} spikes a card."
    return f"{player} {VERBS.get(verb, verb)}."


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
        "pots": [pot["amount"] for pot in pots_in_play(view)],
        "players": players,
    }


def pots_in_play(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The pots of the hand being played as a table shows them: `[{"amount", "eligible"}]`, from a view.

    The engine's pots (`hand.pots()`, which settle the hand) slice the contributions at every level, so while a
    betting round is open a bet not yet called looks like a side pot that the seats still to act cannot win. Here
    an uncalled bet is a bet: the pots are cut only where an all-in caps a seat's share (at its contribution), and
    every seat still in the hand and not all-in can win every pot. Once every bet is matched these are exactly the
    engine's pots (the same credits, the same seats); the total is always the same."""
    hand = view.get("hand") or {}
    pots = hand.get("pots") or []
    rows = [row for row in view.get("players", []) if "contributed" in row]
    if not pots or not rows:
        return pots
    contributions = {row["seat"]: row["contributed"] for row in rows}
    folded = {row["seat"] for row in rows if row.get("folded")}
    capped = {row["seat"]: row["contributed"] for row in rows if row.get("all_in")}
    extra = sum(pot["amount"] for pot in pots) - sum(c for c in contributions.values() if c > 0)  # carry, prices
    top = max(contributions.values())
    shown: list[dict[str, Any]] = []
    previous = 0
    for level in [*sorted({c for c in capped.values() if 0 < c < top}), top]:
        amount = sum(min(c, level) - previous for c in contributions.values() if c > previous)
        eligible = [s for s in sorted(contributions) if s not in folded and capped.get(s, level) >= level]
        previous = level
        if shown and (not eligible or shown[-1]["eligible"] == eligible):
            shown[-1]["amount"] += amount  # the same seats, or a slice only folded seats paid: the pot below
        else:
            shown.append({"amount": amount, "eligible": eligible})
    shown[0]["amount"] += extra
    return shown


def _public_result(result: dict[str, Any]) -> dict[str, Any]:
    """The hand's result as revealed at the table: the showdown of the players still in, the pots, stacks."""
    folded = set(result.get("folded") or [])
    showdown = {
        name: {"cards": shown.get("cards", []), **{k: v for k, v in shown.items() if k != "cards"}}
        for name, shown in (result.get("showdown") or {}).items()
        if name not in folded
    }
    for shown in showdown.values():
        title = shown_title(shown)
        if title:
            shown["title"] = title
    pots = [
        {"amount": pot["amount"], "winners": list(pot.get("winners") or []), "paid": dict(pot.get("paid") or {})}
        for pot in result.get("pots") or []
    ]
    return {
        "target": result.get("target"),
        "suit": result.get("suit"),
        "notes": reveal_notes(result),
        "folded": sorted(folded),
        "showdown": showdown,
        "pots": pots,
        "stacks": dict(result.get("stacks") or {}),
    }


def shown_title(shown: dict[str, Any]) -> str | None:
    """The name of a hand shown at the reveal, as players say it: Corellian Spike's hands ("Prime Sabacc"),
    Classic's kinds ("Idiot's Array", "Pure Sabacc", "bombed out"; an ordinary total has none) and what a
    Sudden Demise card made of it. Coruscant Shift's selections have no names (None)."""
    hand = shown.get("hand")
    if hand is None:
        return None
    if "field" not in shown:  # Corellian Spike
        return HAND_TITLES.get(hand, hand)
    title = CLASSIC_TITLES.get(hand, hand)
    demise = shown.get("sudden_demise")
    if demise:
        after = CLASSIC_TITLES.get(demise.get("hand"), demise.get("hand"))
        drawn = cards_words(demise.get("cards") or [], "classic")
        title = f"{title + '; ' if title else ''}Sudden Demise: drew {drawn}, total {_signed(demise.get('total', 0))}"
        title += f", {after}" if after else ""
    return title or None


def reveal_notes(result: dict[str, Any]) -> list[str]:
    """What else the reveal settled, in words: Classic's bomb-out penalties and its Sabacc pot (won, or carried
    to the next hand), and, when the game ended, where the credits it left on the table went (`leftovers`)."""
    notes = [
        f"{name} bombed out and paid {amount:,} into the Sabacc pot."
        for name, amount in (result.get("penalties") or {}).items()
        if amount
    ]
    sabacc = result.get("sabacc_pot")
    ended = result.get("leftovers")
    if isinstance(sabacc, dict):
        paid = sabacc.get("paid") or {}
        if paid:
            won = " and ".join(f"{amount:,} to {name}" for name, amount in paid.items())
            notes.append(f"The Sabacc pot pays {won}.")
        elif sabacc.get("after") and not ended:
            notes.append(f"The Sabacc pot of {sabacc['after']:,} carries over to the next hand.")
    if ended:
        notes.append(leftovers_note(ended))
    return notes


def leftovers_note(paid: dict[str, int]) -> str:
    """RULES 1.5 "Credits left at the end", in words: who took what the game left on the table."""
    shares = " and ".join(f"{name} {amount:,}" for name, amount in paid.items())
    total = sum(paid.values())
    return (
        f"The game is over: the {total:,} credit{'' if total == 1 else 's'} left on the table "
        f"{'goes' if total == 1 else 'go'} to the players: {shares}."
    )


def _result_text(result: dict[str, Any]) -> str:
    parts = []
    for pot in result["pots"]:
        winners = " and ".join(pot["winners"]) or "nobody"
        parts.append(f"{winners} {'win' if len(pot['winners']) > 1 else 'wins'} {pot['amount']:,}")
    return "Reveal: " + ("; ".join(parts) if parts else "no pot") + "."


def _signed(number: int) -> str:
    return f"{number:+d}" if number else "0"
