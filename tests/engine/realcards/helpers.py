"""Small drivers for real-cards tests: a table set up, and a hand taken to its reveal."""

from games.engine.realcards.due import due
from games.engine.realcards.game import RealCardsGame

MASTER = "0123456789abcdef0123456789abcdef"


def table(variant="coruscant_shift", preset="cantina", players=3, stack=100, options=None, dealer=0):
    setup = {
        "variant": variant,
        "preset": preset,
        "options": options or {},
        "players": [[f"P{i}", stack] for i in range(players)],
        "dealer": dealer,
    }
    return RealCardsGame(setup, master=MASTER)


def coruscant_to_reveal(game, keep=2, fold=(), dice=None):
    """Deal, roll (the target 0 in circles unless given), everyone keeps `keep` cards then adds none; seats in
    `fold` fold at their first betting turn, the others check or call (or stay)."""
    game.step({"step": "deal"})
    game.step({"step": "dice", "dice": dice or {"number": 0, "suit": "circle"}})
    folded = set()
    while (d := due(game))["due"] == "act":
        seat = d["seats"][0]
        verbs = d["choices"][seat]["verbs"]
        if verbs == ["select"]:
            count = keep if game.game.hand.phase == "select" else 0
            game.step({"step": "act", "seat": seat, "verb": "select", "count": count})
        elif seat in fold and seat not in folded:
            folded.add(seat)
            game.step({"step": "act", "seat": seat, "verb": "fold"})
        else:
            game.step({"step": "act", "seat": seat, "verb": "check" if "check" in verbs else "call"})
    return due(game)


def snapshot(game):
    """What a refused step must leave as it was."""
    return (list(game.steps), due(game), list(game.stacks), game.game.total_credits(), dict(game.boards))
