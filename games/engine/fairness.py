"""Checking a finished game's decks against its commitments (RULES 1.7): `verify_game`.

Each seeded hand of a `sabacc-replay/2` export of a finished game carries the commitment published
before its deal and its revealed server seed. The hand seed is the server seed mixed with the
players' entropy (`shuffle.mix_entropy`, docs/rules.md), and the deck, the dice and every reshuffle
follow from it. `game_problems` replays the whole document and lists every hand that does not match.
"""

from typing import Any

from games.engine.cards import codes
from games.engine.errors import EngineError
from games.engine.replay import FORMAT_2, export_replay, replay_game
from games.engine.shuffle import commitment, deck_from_seed
from games.engine.state import Game


def verify_game(game_or_document: Game | dict) -> bool:
    """True when every hand of a finished game was dealt from the seed it committed to before its deal."""
    return not game_problems(game_or_document)


def game_problems(game_or_document: Game | dict) -> list[str]:
    """Every reason, one line each, why a finished game's decks cannot be trusted; empty when all check out."""
    document = export_replay(game_or_document) if isinstance(game_or_document, Game) else game_or_document
    if not isinstance(document, dict) or document.get("format") != FORMAT_2:
        return [f'Only a "{FORMAT_2}" export of a finished game carries the seeds to check.']
    hands = document.get("hands")
    if not isinstance(hands, list) or not hands:
        return ["The document lists no hands."]
    problems = []
    for number, hand in enumerate(hands, start=1):
        if not isinstance(hand, dict) or "commitment" not in hand:
            problems.append(f"Hand {number}: its deck was given, not dealt from a committed seed.")
        elif not isinstance(hand.get("server_seed"), str):
            problems.append(f"Hand {number}: its server seed is not revealed (seeds are revealed when the game ends).")
        elif commitment(hand["server_seed"]) != hand["commitment"]:
            problems.append(f"Hand {number}: the revealed server seed does not match the commitment published.")
    if problems:
        return problems

    def check(game: Game, played: Any, listed: dict) -> None:
        seed = played._seed
        where = f"Hand {played.number}"
        try:
            deck = codes(game.variant.parse_card(code) for code in listed.get("deck", []))
        except EngineError:
            deck = []
        if deck != codes(deck_from_seed(seed, game.variant.deck())):
            problems.append(f"{where}: the deck is not the one its seed deals.")
        problems.extend(f"{where}: {problem}" for problem in game.variant.seed_problems(played, listed, seed))
        listed_piles = [codes(map(game.variant.parse_card, pile)) for pile in listed.get("reshuffles", [])]
        if [codes(pile) for pile in played.reshuffled] != listed_piles:
            problems.append(f"{where}: the reshuffles listed are not the ones its seed makes.")

    try:
        game = replay_game(document, on_hand_end=check, verify=True)
    except EngineError as exc:
        return [*problems, str(exc)]
    if not game.is_over:
        problems.append("The game is not over: its seeds are revealed, and can be checked, only when it ends.")
    return problems
