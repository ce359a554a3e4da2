"""Why each pot of a finished real-cards hand went where it did: a code, the data, and words.

Built from the engine's own summary of the hand (the replay result's shape: pots, winners, shares, the hands
shown with what the variant scored them), so the reasons are the rules' own, and from what the table entered
(named winners). Codes: `fold_out` (everyone else folded), `named` (the table named the winners), `best_hand`,
`split` (equal best hands share; odd credits as the preset says), `draw` (a tie settled by cards turned over),
`sudden_demise`, `nobody` (no eligible hand could win it: Classic puts it in the Sabacc pot).
"""

from typing import Any

_SKIP = ("cards",)


def _hand_words(row: dict) -> str:
    parts = []
    for key, value in row.items():
        if key in _SKIP or isinstance(value, dict | list):
            continue
        parts.append(f"{key.replace('_', ' ')} {value}")
    shown = " ".join(row.get("cards", []))
    return f"{shown} ({', '.join(parts)})" if shown else ", ".join(parts)


def explain_hand(game: Any, number: int) -> list[dict]:
    """One entry per pot of hand `number` (then the Sabacc pot, where there is one): why it went where it did."""
    summary = next((s for s in game.game.results if s["number"] == number), None)
    if summary is None:
        raise LookupError(f"Hand {number} is not finished.")
    named = game.named.get(number, {})
    showdown = summary.get("showdown", {})
    entries = []
    for index, pot in enumerate(summary["pots"]):
        winners = pot["winners"]
        entry = {
            "pot": index,
            "amount": pot["amount"],
            "eligible": pot["eligible"],
            "winners": winners,
            "paid": pot["paid"],
        }
        who = " and ".join(winners)
        if index in named:
            entry["why"], words = "named", f"the table named {who}"
        elif not winners:
            entry["why"], words = "nobody", "no hand that could win it stood (it went to the Sabacc pot)"
        elif not showdown or all(name not in showdown for name in pot["eligible"]):
            entry["why"], words = "fold_out", f"everyone else folded; {who} takes it"
        elif pot.get("draws"):
            drawn = "; ".join(f"{name} turned over {' '.join(cards)}" for name, cards in pot["draws"].items())
            entry["why"], words = "draw", f"tied hands drew: {drawn}; {who} won"
        elif any("sudden_demise" in showdown.get(name, {}) for name in winners):
            entry["why"], words = "sudden_demise", f"tied hands played a Sudden Demise; {who} won it"
        elif len(winners) > 1:
            entry["why"], words = "split", f"{who} tied with the best hands and share it"
        else:
            entry["why"], words = "best_hand", f"{who} showed the best hand"
        hands = {name: showdown[name] for name in pot["eligible"] if name in showdown}
        if hands:
            entry["hands"] = hands
            words += ": " + "; ".join(f"{name} {_hand_words(row)}" for name, row in hands.items())
        entry["says"] = f"Pot {index + 1} ({pot['amount']}): {words}."
        entries.append(entry)
    sabacc = summary.get("sabacc_pot")
    if isinstance(sabacc, dict):
        winners = sabacc.get("winners", [])
        if winners:
            words = f"{' and '.join(winners)} won the main pot with a hand that takes it"
        else:
            words = "nobody won it with a hand that takes it; it stays for the next hand"
        entries.append({"pot": "sabacc", **sabacc, "says": f"Sabacc pot ({sabacc.get('amount', 0)}): {words}."})
    return entries
