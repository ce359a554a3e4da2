"""The public log of finished hands: each step as the table saw it, for hand-history pages.

`public_log(document)` plays a replay document (either version, an export included) and returns,
for every finished hand, its steps with only public information: forced bets, who was dealt a
card (never which), the roll, how many cards each player chose (public once the phase closed),
every bet, reshuffles, tie-breaking draws, and the selections shown at the reveal. Cards of a
player who folded, or who won without showing, never appear. The seeds never do.
"""

from games.engine.cards import codes
from games.engine.records import Record
from games.engine.replay import replay_game
from games.engine.views import hand_summary


def public_log(document: dict) -> list[dict]:
    """Every finished hand of `document`: `number`, `dealer`, `target`, `suit`, `steps` and the `result`
    (the replay result's hand). Raises `ReplayError` as `play_replay` does."""
    hands: list[dict] = []

    def capture(game, hand, listed) -> None:
        names = game.names
        steps = [_step(record, names) for record in hand.log_for(None) if record.kind != "end"]
        entry = {"number": hand.number, "dealer": names[hand.dealer]}
        hand.add_public_hand(entry)
        entry["steps"] = steps
        entry["result"] = game.results[-1] if game.results else hand_summary(game, hand)
        hands.append(entry)

    replay_game(document, on_hand_end=capture)
    return hands


def _step(record: Record, names: list[str]) -> dict:
    """One log record as a JSON-able dict with only what the table saw."""
    step: dict = {"kind": record.kind}
    if record.seat is not None:
        step["player"] = names[record.seat]
    if record.kind == "roll":
        step["number"], step["suit"] = record.amount, record.note
    elif record.kind == "select":
        step["count"] = record.amount
        if record.cards:
            step["cards"] = codes(record.cards)  # shown at the reveal
    elif record.kind == "tie_draw":
        step["cards"] = codes(record.cards)
    elif record.kind == "reshuffle":
        step["count"] = record.amount
    elif record.kind not in ("deal", "shift") and record.amount is not None:
        step["amount"] = record.amount
    if record.kind not in ("roll", "select", "tie_draw"):
        # Other variants' public details: face-up cards turned up or taken, where a card came from.
        if record.cards:
            step["cards"] = codes(record.cards)
        if record.note:
            step["detail"] = record.note
    return step
