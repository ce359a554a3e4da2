from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournaments.demo import load_demo_data


class Command(BaseCommand):
    help = "Load the demo league, players and tournaments (idempotent) and print the three demo logins."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Run on production settings too (it creates accounts whose passwords are public).",
        )

    def handle(self, *args, **options) -> None:
        if getattr(settings, "IS_PRODUCTION", False) and not options["force"]:
            raise CommandError(
                "demo_data creates accounts with publicly known passwords; it does not run on production "
                "settings. Use --force if you really want the demo on this site."
            )
        load_demo_data(self.stdout)
