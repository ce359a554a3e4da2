"""Bot-only games for `manage.py simulate`: play them, check the invariants at every step, summarise.

Pure Python like the rest of the engine; the management command only parses arguments, shows
progress and prints `summary_lines()`.
"""

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from games.engine.bots import BOTS, play_turn
from games.engine.cards import DECK_COUNTS
from games.engine.state import MAX_SEATS, MIN_SEATS, Game
from games.engine.variant import default_variant, get_variant, variant_names
from games.engine.variant_options import build_options

DEFAULT_BOTS = ("random", "sensible")
DEFAULT_MAX_HANDS = 200
DECK_SIZE = sum(DECK_COUNTS.values())


@dataclass
class GameOutcome:
    """One simulated game: hands played, each hand's pot, the winners' bot kinds, whether the hand cap ended it,
    and the invariant checks."""

    hands: int
    pots: list[int]
    winners: list[str]
    kinds: list[str]
    capped: bool
    credits_conserved: bool
    cards_accounted: bool


@dataclass
class Summary:
    games: int = 0
    hands: list[int] = field(default_factory=list)
    pots: list[int] = field(default_factory=list)
    wins: dict[str, float] = field(default_factory=dict)
    seats: dict[str, int] = field(default_factory=dict)
    capped: int = 0
    credits_conserved: bool = True
    cards_accounted: bool = True

    def add(self, outcome: GameOutcome) -> None:
        self.games += 1
        self.hands.append(outcome.hands)
        self.pots.extend(outcome.pots)
        for kind in outcome.kinds:
            self.seats[kind] = self.seats.get(kind, 0) + 1
            self.wins.setdefault(kind, 0.0)
        for kind in outcome.winners:
            # A shared first place shares the win, so the wins add up to the number of games.
            self.wins[kind] += 1 / len(outcome.winners)
        self.capped += outcome.capped
        self.credits_conserved &= outcome.credits_conserved
        self.cards_accounted &= outcome.cards_accounted


def bots_for(variant: str) -> dict[str, type]:
    """The bot kinds of a variant: every variant shares `BOTS` (each bot plays the variant its view names)."""
    return BOTS


def check_arguments(
    *,
    preset: str,
    players: int,
    games: int,
    bots: Sequence[str],
    max_hands: int,
    variant: str | None = None,
) -> None:
    """Raise ValueError with a message a user can act on when an argument is out of range."""
    variant = variant or default_variant().name
    if variant not in variant_names():
        raise ValueError(f"Unknown variant {variant!r}; the variants are: {', '.join(variant_names())}.")
    presets = get_variant(variant).presets
    if preset not in presets:
        raise ValueError(f"Unknown preset {preset!r} for {variant}; the presets are: {', '.join(presets)}.")
    if not MIN_SEATS <= players <= MAX_SEATS:
        raise ValueError(f"--players must be from {MIN_SEATS} to {MAX_SEATS}; got {players}.")
    if games < 1:
        raise ValueError(f"--games must be at least 1; got {games}.")
    if max_hands < 1:
        raise ValueError(f"--max-hands must be at least 1; got {max_hands}.")
    if not bots:
        raise ValueError(f"--bots needs at least one bot kind; the kinds are: {', '.join(BOTS)}.")
    for kind in bots:
        if kind not in bots_for(variant):
            raise ValueError(f"Unknown bot {kind!r}; the kinds are: {', '.join(bots_for(variant))}.")


def play_game(
    *,
    preset: str,
    kinds: Sequence[str],
    seed: str,
    max_hands: int = DEFAULT_MAX_HANDS,
    variant: str | None = None,
) -> GameOutcome:
    """Play one game between bots of `kinds` (one per seat) until it ends or `max_hands` hands are played.

    Credits and cards are checked after every start and every decision.
    """
    variant = variant or default_variant().name
    options = build_options(variant, preset)
    players = [(f"{kind}-{seat + 1}", options.starting_stack) for seat, kind in enumerate(kinds)]
    game = Game.new(
        options=options, players=players, rng=random.Random(f"{seed}/table"), preset=preset, variant=variant
    )
    kinds_of = bots_for(variant)
    bots = [kinds_of[kind](random.Random(f"{seed}/seat/{seat}")) for seat, kind in enumerate(kinds)]
    deck_size = len(game.variant.deck())
    expected = game.total_credits()
    credits_ok = cards_ok = True

    def check() -> None:
        nonlocal credits_ok, cards_ok
        credits_ok &= game.total_credits() == expected
        cards_ok &= game.card_count() == deck_size

    while not game.is_over and game.hands_played < max_hands and game.can_start_hand():
        game.start_hand()
        check()
        while game.in_hand:
            seat = game.waiting_for()[0]
            play_turn(game, seat, bots[seat])
            check()
    standings = game.standings()
    winners = [kinds[row["seat"]] for row in standings if row["place"] == 1]
    pots = [sum(pot["amount"] for pot in result["pots"]) for result in game.results]
    return GameOutcome(
        hands=game.hands_played,
        pots=pots,
        winners=winners,
        kinds=list(kinds),
        capped=not game.is_over and game.hands_played >= max_hands,
        credits_conserved=credits_ok,
        cards_accounted=cards_ok,
    )


def seat_kinds(players: int, bots: Sequence[str]) -> list[str]:
    """Bot kinds assigned round-robin over the seats."""
    return [bots[seat % len(bots)] for seat in range(players)]


def iter_games(
    *,
    preset: str,
    players: int,
    games: int,
    seed: int,
    bots: Sequence[str] = DEFAULT_BOTS,
    max_hands: int = DEFAULT_MAX_HANDS,
    variant: str | None = None,
) -> Iterator[GameOutcome]:
    """Play `games` games one after the other; game i is seeded from `seed` and i, so a run is repeatable."""
    variant = variant or default_variant().name
    check_arguments(preset=preset, players=players, games=games, bots=bots, max_hands=max_hands, variant=variant)
    kinds = seat_kinds(players, bots)
    for number in range(games):
        yield play_game(preset=preset, kinds=kinds, seed=f"{seed}/{number}", max_hands=max_hands, variant=variant)


def simulate(**kwargs) -> Summary:
    """Play the games of `iter_games(**kwargs)` and summarise them."""
    summary = Summary()
    for outcome in iter_games(**kwargs):
        summary.add(outcome)
    return summary


def summary_lines(
    summary: Summary, *, preset: str, players: int, max_hands: int, variant: str | None = None
) -> list[str]:
    hands = summary.hands
    pots = summary.pots
    average_pot = sum(pots) / len(pots) if pots else 0.0
    wins = ", ".join(
        f"{kind} {_number(summary.wins[kind])} of {summary.games} ({summary.seats[kind]} seats)"
        for kind in summary.wins
    )
    head = f"preset: {preset}, players: {players}"
    variant = variant or default_variant().name
    if variant != default_variant().name:
        head = f"variant: {variant}, {head}"
    return [
        head,
        f"games: {summary.games}",
        f"hands per game: mean {sum(hands) / len(hands):.1f}, min {min(hands)}, max {max(hands)}",
        f"games stopped at the {max_hands}-hand cap: {summary.capped}",
        f"average pot: {average_pot:.1f}",
        f"wins per bot kind: {wins}",
        f"credits conserved: {_yes(summary.credits_conserved)}",
        f"all {_deck_size(variant)} cards accounted for: {_yes(summary.cards_accounted)}",
    ]


def _deck_size(variant: str) -> int:
    return len(get_variant(variant).deck())


def _number(value: float) -> str:
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"
