"""`manage.py simulate`: play bot-only games of a preset and print a summary with the invariant checks."""

import sys

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games.engine.bots.simulate import (
    DEFAULT_BOTS,
    DEFAULT_MAX_HANDS,
    Summary,
    check_arguments,
    iter_games,
    summary_lines,
)


class Command(BaseCommand):
    help = "Play bot-only games and print hands per game, average pot, wins per bot kind and invariant checks."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--variant",
            default="coruscant_shift",
            help="coruscant_shift (the default), corellian_spike or classic",
        )
        parser.add_argument(
            "--preset",
            default=None,
            help="coruscant_shift: halcyon, cantina (the default), better or casino; "
            "corellian_spike: galaxy_series (the default) or cantina_spike; classic: classic (the default) or universe",
        )
        parser.add_argument("--players", type=int, default=6, help="seats per table, 2 to 8")
        parser.add_argument("--games", type=int, default=10, help="number of games, at least 1")
        parser.add_argument("--seed", type=int, default=0, help="seed of the whole run")
        parser.add_argument(
            "--bots",
            default=",".join(DEFAULT_BOTS),
            help="bot kinds given to the seats in turn, comma-separated (random, sensible)",
        )
        parser.add_argument(
            "--max-hands",
            type=int,
            default=DEFAULT_MAX_HANDS,
            help="stop a game after this many hands (casino games never end by themselves)",
        )

    def handle(self, *args, **options) -> None:
        bots = tuple(kind.strip() for kind in options["bots"].split(",") if kind.strip())
        variant = options["variant"]
        preset = options["preset"] or {"corellian_spike": "galaxy_series", "classic": "classic"}.get(variant, "cantina")
        settings = {
            "variant": variant,
            "preset": preset,
            "players": options["players"],
            "games": options["games"],
            "bots": bots,
            "max_hands": options["max_hands"],
        }
        try:
            check_arguments(**settings)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        summary = Summary()
        outcomes = iter_games(seed=options["seed"], **settings)
        for outcome in tqdm(outcomes, total=settings["games"], desc="games", unit="game", file=sys.stderr):
            summary.add(outcome)
        lines = summary_lines(
            summary,
            preset=settings["preset"],
            players=settings["players"],
            max_hands=settings["max_hands"],
            variant=variant,
        )
        self.stdout.write("\n".join(lines))
        if not (summary.credits_conserved and summary.cards_accounted):
            raise CommandError("An invariant failed: see the summary above.")
