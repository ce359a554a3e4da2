"""What a real-cards table must do now, in words and in data (`due(game)`).

One answer at a time, in the order the rules ask: the game is over; a roll; the cards of the hands still
in (folded hands are never asked for), or instead the winners of each pot (`or_name_winners`); one more
card (a tie-break draw, a Sudden Demise card); the players whose decision is awaited, with only their legal
choices; or the next deal, by whom.
"""

from typing import Any

from games.engine.realcards.winners import may_name, open_pots


def due(game: Any) -> dict:
    """What is due now: `{"due": ..., "says": words, ...data}`."""
    engine = game.game
    names = engine.names
    hand = engine.hand
    if game.need is not None and game.need[0] == "dice":
        roller = game.table.roller(hand) if hasattr(game.table, "roller") else hand.dealer
        return {
            "due": "dice",
            "hand": hand.number,
            "roller": roller,
            "commitment": hand.commitment,
            "says": f"{names[roller]}: {game.table.dice_words} (or let the site roll)",
        }
    if game.need is not None:
        slot = game.need[1]
        pending = [s for s in game.live() if game.unknown_of(s)]
        owner = next((s for s in pending if any(c.slot == slot for c in game.unknown_of(s))), None)
        if owner is not None and len(game.unknown_of(owner)) == 1 and len(game.table.held(hand, owner)) > 1:
            return {
                "due": "card",
                "hand": hand.number,
                "seat": owner,
                "says": f"{names[owner]} turns over one more card from the draw pile (a tie-break)",
            }
        if pending:
            pots = open_pots(game)
            named = game.named.get(hand.number)
            if named:
                left = [row for row in pots if row["pot"] not in named]
                return {
                    "due": "winners",
                    "hand": hand.number,
                    "pots": left,
                    "says": "name the winners of "
                    + (", ".join(f"pot {row['pot']}" for row in left) or "the Sabacc pot"),
                }
            shows = [{"seat": s, "player": names[s], "cards": len(game.unknown_of(s))} for s in pending]
            words = ", ".join(f"{row['player']} ({row['cards']})" for row in shows)
            data = {"due": "reveal", "hand": hand.number, "seats": shows, "says": f"show the hands still in: {words}"}
            if may_name(game) and not game.shown.get(hand.number):
                data["or_name_winners"] = pots
            return data
        return {
            "due": "card",
            "hand": hand.number,
            "seat": None,
            "says": "turn over the top card of the draw pile for the tie-break",
        }
    if hand is not None and not hand.is_complete:
        waiting = engine.waiting_for()
        choices = {s: game.table.choices(hand, s, hand.legal_actions(s)) for s in waiting}
        who = ", ".join(names[s] for s in waiting)
        return {
            "due": "act",
            "hand": hand.number,
            "phase": hand.phase,
            "seats": waiting,
            "choices": choices,
            "says": f"waiting for {who}",
        }
    if engine.over:
        return {"due": "game_over", "standings": engine.standings(), "says": "the game is over"}
    if not engine.can_start_hand():
        return {"due": "between_hands", "says": "no hand can start: fewer than two players hold credits"}
    dealer = engine._next_dealer()
    return {
        "due": "deal",
        "hand": engine.hands_played + 1,
        "dealer": dealer,
        "commitment": engine.next_commitment(),  # of the hand's seed, for a roll the site may make
        "says": f"{names[dealer]} deals hand {engine.hands_played + 1}: {game.table.deal_words}",
    }
