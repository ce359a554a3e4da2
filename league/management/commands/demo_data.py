from django.core.management.base import BaseCommand

from league.demo import load_demo_data


class Command(BaseCommand):
    help = "Load the demo league, players and tournaments (idempotent) and print the three demo logins."

    def handle(self, *args, **options) -> None:
        load_demo_data(self.stdout)
