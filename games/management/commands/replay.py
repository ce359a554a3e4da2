"""`python manage.py replay PATH|-`: play a sabacc-replay/1 or /2 document (or a real-cards game's
`sabacc-realcards/1`) and print its result as JSON.

A thin wrapper over `games.engine.replay.play_replay`. On success the result goes to standard
output and the exit status is 0; on any error one line goes to standard error, nothing to
standard output, and the exit status is 2. With `--verify`, the document (an export of a finished
game) is checked against its commitments instead (`games.engine.verify_game`; a finished real-cards game:
every roll the site made, against its revealed seed).
"""

import json
import sys

from django.core.management.base import BaseCommand

from games.engine.errors import EngineError
from games.engine.fairness import game_problems
from games.engine.realcards.document import FORMAT as REALCARDS
from games.engine.realcards.document import play_document, replay_result
from games.engine.replay import play_replay

EXIT_ERROR = 2


class Command(BaseCommand):
    help = (
        "Play a sabacc-replay/1 or /2 document (a file path, or - for standard input) and print the result JSON; "
        "with --verify, check a finished game's export against its seed commitments."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="replay file, or - to read standard input")
        parser.add_argument(
            "--verify",
            action="store_true",
            help="check every hand of a finished game's sabacc-replay/2 export against its commitment and seeds",
        )

    def handle(self, *args, **options) -> None:
        path = options["path"]
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
        except OSError as exc:
            self._fail(f"cannot read {path}: {exc.strerror or exc}")
        except UnicodeDecodeError as exc:
            self._fail(f"cannot read {path}: it is not UTF-8 text ({exc.reason} at byte {exc.start})")
        try:
            document = json.loads(text)
        except json.JSONDecodeError as exc:
            self._fail(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}")
        except ValueError as exc:  # valid JSON that Python will not read, such as a 5000-digit number
            self._fail(f"{path} cannot be read as JSON: {exc}")
        except RecursionError:
            self._fail(f"{path} cannot be read as JSON: it is nested too deeply")
        # A real-cards game (no deck: docs/replay.md, "Real-cards documents") names its format.
        real = isinstance(document, dict) and document.get("format") == REALCARDS
        if options.get("verify") and real:
            self._verify_real_cards(document)
            return
        if options.get("verify"):
            problems = game_problems(document)
            if problems:
                for problem in problems:
                    self.stderr.write("replay: " + " ".join(problem.split()))
                raise SystemExit(EXIT_ERROR)
            self.stdout.write(f"verified: {len(document['hands'])} hands")
            return
        try:
            result = replay_result(document) if real else play_replay(document)
        except EngineError as exc:
            self._fail(str(exc))
        self.stdout.write(json.dumps(result, indent=2))

    def _verify_real_cards(self, document: dict) -> None:
        """A finished real-cards game: every roll the site made is checked against the revealed seed."""
        if document.get("seed") is None:
            self._fail("this real-cards document has no seed: it is revealed, and listed, once the game is over")
        try:
            play_document(document)
        except EngineError as exc:
            self._fail(str(exc))
        rolls = sum(1 for step in document["steps"] if isinstance(step, dict) and step.get("by") == "site")
        self.stdout.write(f"verified: {rolls} site rolls")

    def _fail(self, message: str) -> None:
        self.stderr.write("replay: " + " ".join(message.split()))
        raise SystemExit(EXIT_ERROR)
